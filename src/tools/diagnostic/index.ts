// A diagnostic tool (id 9001) that records tests and findings over time without touching the
// network. It exists so the engine's lifecycle (stop, time limits, shutdown, crashes) can be tested
// and demonstrated deterministically; it is only registered when WARD_ENABLE_DIAGNOSTIC_TOOL=1.
import { Type } from '@sinclair/typebox'
import { defineTool } from '../../toolkit/tool.js'
import { OWASP, type Check } from '../../toolkit/check.js'
import { AuthFailedError, TargetUnreachableError, ToolStartError } from '../../toolkit/errors.js'
import { textEvidence } from '../../toolkit/evidence.js'

export const diagnosticCheck = {
  id: 'diagnostic.sample',
  name: 'Diagnostic sample finding',
  description: 'A finding recorded by the diagnostic tool.',
  impact: 'None: the diagnostic tool only exercises the scan engine.',
  risk: 'low',
  cwe: ['CWE-1059'],
  owasp: OWASP.none,
  recommendation: 'Nothing to fix.',
  references: ['https://cwe.mitre.org/data/definitions/1059.html'],
} as const satisfies Check

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

export const diagnosticTool = defineTool({
  id: 9001,
  name: 'Diagnostic',
  params: Type.Object(
    {
      steps: Type.Integer({ minimum: 0, maximum: 10000, default: 4 }),
      step_ms: Type.Integer({ minimum: 0, maximum: 3600000, default: 50 }),
      ignore_abort: Type.Boolean({ default: false }),
      fail: Type.Union(['none', 'unreachable', 'start', 'auth', 'crash'].map((s) => Type.Literal(s)), { default: 'none' }),
    },
    { additionalProperties: false },
  ),
  supportsMaxScanTime: true,
  needs: {},
  restartable: true,
  async run(ctx) {
    const p = ctx.params
    if (p.fail === 'unreachable') throw new TargetUnreachableError(`${ctx.target.name} could not be reached (diagnostic)`)
    if (p.fail === 'start') throw new ToolStartError('the diagnostic tool was asked not to start')
    if (p.fail === 'auth') throw new AuthFailedError('the diagnostic credentials were rejected')
    for (let i = 0; i < p.steps; i++) {
      if (ctx.signal.aborted && !p.ignore_abort) return
      const t = await ctx.test(`step ${i + 1}`, `Diagnostic step ${i + 1} of ${p.steps}`)
      ctx.log(`step ${i + 1}/${p.steps}`)
      await sleep(p.step_ms, ctx.signal, p.ignore_abort)
      if (i % 2 === 0) await t.finding({ check: diagnosticCheck, location: `step-${i + 1}`, evidence: textEvidence(`step ${i + 1}`) })
      await t.done()
      ctx.progress(i + 1, p.steps)
      if (p.fail === 'crash' && i === 0) throw new Error('diagnostic crash')
    }
    if (p.ignore_abort) await sleep(3600000, ctx.signal, true)
    ctx.output('steps', p.steps)
  },
})
