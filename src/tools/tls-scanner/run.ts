// Tool 450, SSL/TLS Scanner: protocol versions, cipher suites, certificate, HSTS, compression,
// renegotiation and Heartbleed of one TLS service. The sequence: the analysis of the one port
// (probes/analysis.ts) → its coverage and output → one test per phase (detect/phases.ts).
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { targetHost } from '../../toolkit/ip.js'
import { tlsFindings } from '../lib/tls/findings.js'
import { tlsScannerManifest } from './manifest.js'
import type { TlsScannerParams } from './params.js'
import { analyzeEndpoint } from './probes/analysis.js'
import { PHASES, phaseOutcome, tlsPort } from './detect/phases.js'
import { outputReport } from './output.js'
import { runSslTemplatePhase } from './probes/templates.js'

export { tlsPort }

export interface TlsScannerOptions {
  /** Trust anchors (PEM) replacing the runtime's store in the chain check: for test beds with their own CA. */
  ca?: string[]
  /** Per connection/read timeout (default 5 s). */
  timeoutMs?: number
}

export function createTlsScanner(o: TlsScannerOptions = {}) {
  return defineTool(tlsScannerManifest, async (ctx: ScanContext<TlsScannerParams>) => {
    const host = targetHost(ctx.target.name)
    const port = tlsPort(ctx.target, ctx.params.port)
    ctx.log(`SSL/TLS scan of ${host}:${port}${ctx.params.sni ? ` (SNI ${ctx.params.sni})` : ''}`)
    const report = await analyzeEndpoint(ctx.net, host, port, {
      sni: ctx.params.sni,
      signal: ctx.signal,
      log: (l) => ctx.log(l),
      progress: (d, t) => ctx.progress(d, t),
      ...(o.ca ? { ca: o.ca } : {}),
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    })
    if (!report) return
    // The one port this scan looks at: findings of another port of the host stay as they are.
    ctx.cover({ protocol: 'tcp', probed: [port], open: [port] })
    outputReport(ctx, report)
    const findings = tlsFindings(report, host, port)
    for (const ph of PHASES) {
      const t = await ctx.test(ph.name, ph.description)
      const outcome = phaseOutcome(ph, report, findings, ctx.signal.aborted)
      if ('skip' in outcome) await t.skip(outcome.skip)
      else if ('error' in outcome) await t.error(outcome.error)
      else {
        for (const f of outcome.hits) await t.finding(f)
        await t.done()
      }
    }
    if (!ctx.signal.aborted && report.speaksTls) await runSslTemplatePhase(ctx, host, port)
  })
}

export const tlsScanner = createTlsScanner()
