// A diagnostic tool (id 9001) that records tests and findings over time without touching the
// network. It exists so the engine's lifecycle (stop, time limits, shutdown, crashes) can be tested
// and demonstrated deterministically; it is only registered when WARD_ENABLE_DIAGNOSTIC_TOOL=1.
import { defineTool } from '../../toolkit/tool.js'
import { diagnosticManifest } from './manifest.js'
import { AuthFailedError, TargetUnreachableError, ToolStartError } from '../../toolkit/errors.js'
import { textEvidence } from '../../toolkit/evidence.js'

import { diagnosticCheck } from './checks.js'
export { diagnosticCheck }

const sleep = (ms: number, signal: AbortSignal, ignoreAbort: boolean) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms)
    // A tool that ignores abort must not keep the process alive after its scan was given up on.
    if (ignoreAbort) t.unref()
    function done() {
      clearTimeout(t)
      signal.removeEventListener('abort', onAbort)
      resolve()
    }
    const onAbort = () => {
      if (!ignoreAbort) done()
    }
    signal.addEventListener('abort', onAbort)
  })

export const diagnosticTool = defineTool(diagnosticManifest, async (ctx) => {
  const p = ctx.params
  if (p.fail === 'unreachable') throw new TargetUnreachableError(`${ctx.target.name} could not be reached (diagnostic)`)
  if (p.fail === 'start') throw new ToolStartError('the diagnostic tool was asked not to start')
  if (p.fail === 'auth') throw new AuthFailedError('the diagnostic credentials were rejected')
  for (let i = 0; i < p.steps; i++) {
    if (ctx.signal.aborted && !p.ignore_abort) return
    const t = await ctx.test(`step ${i + 1}`, `Diagnostic step ${i + 1} of ${p.steps}`)
    ctx.log(`step ${i + 1}/${p.steps}`)
    await sleep(p.step_ms, ctx.signal, p.ignore_abort)
    for (const until = Date.now() + p.busy_ms; Date.now() < until; );
    if (p.error_steps.includes(i + 1)) {
      await t.error(`step ${i + 1} could not run (diagnostic)`)
      ctx.progress(i + 1, p.steps)
      continue
    }
    if (i % 2 === 0 && !p.quiet_steps.includes(i + 1)) {
      await t.finding({ check: diagnosticCheck, location: `step-${i + 1}`, evidence: textEvidence(`step ${i + 1}`) })
      // Logged once written: a log line never claims a finding the database lacks.
      ctx.log(`finding at step-${i + 1}`)
    }
    await t.done()
    ctx.progress(i + 1, p.steps)
    if (p.fail === 'crash' && i === 0) throw new Error('diagnostic crash')
  }
  if (p.ignore_abort) await sleep(3600000, ctx.signal, true)
  ctx.output('steps', p.steps)
})
