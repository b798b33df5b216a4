// A diagnostic tool (id 9001) that records tests and findings over time without touching the
// network. It exists so the engine's lifecycle (stop, time limits, shutdown, crashes) can be tested
// and demonstrated deterministically; it is only registered when WARD_ENABLE_DIAGNOSTIC_TOOL=1.
// The sequence: the failure asked for, then the steps one after another, then the output.
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { AuthFailedError, TargetUnreachableError, ToolStartError } from '../../toolkit/errors.js'
import { diagnosticManifest } from './manifest.js'
import type { DiagnosticParams } from './params.js'
import { runStep, sleep } from './probes/step.js'
import { stepOutcome } from './detect/step.js'
import { outputSteps } from './output.js'

export async function runDiagnostic(ctx: ScanContext<DiagnosticParams>): Promise<void> {
  const p = ctx.params
  if (p.fail === 'unreachable') throw new TargetUnreachableError(`${ctx.target.name} could not be reached (diagnostic)`)
  if (p.fail === 'start') throw new ToolStartError('the diagnostic tool was asked not to start')
  if (p.fail === 'auth') throw new AuthFailedError('the diagnostic credentials were rejected')
  for (let n = 1; n <= p.steps; n++) {
    if (ctx.signal.aborted && !p.ignore_abort) return
    const t = await ctx.test(`step ${n}`, `Diagnostic step ${n} of ${p.steps}`)
    ctx.log(`step ${n}/${p.steps}`)
    await runStep({ ms: p.step_ms, busyMs: p.busy_ms, signal: ctx.signal, ignoreAbort: p.ignore_abort })
    const outcome = stepOutcome(n, p)
    if ('error' in outcome) await t.error(outcome.error)
    else {
      for (const hit of outcome.hits) {
        await t.finding(hit)
        // Logged once written: a log line never claims a finding the database lacks.
        ctx.log(`finding at ${hit.location}`)
      }
      await t.done()
    }
    ctx.progress(n, p.steps)
    if ('error' in outcome) continue
    if (p.fail === 'crash' && n === 1) throw new Error('diagnostic crash')
  }
  if (p.ignore_abort) await sleep(3600000, ctx.signal, true)
  outputSteps(ctx, p.steps)
}

export const diagnosticTool = defineTool(diagnosticManifest, runDiagnostic)
