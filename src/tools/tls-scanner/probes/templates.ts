// The template phase of the SSL/TLS Scanner: stored ssl templates against the scanned port, one test
// each; a match is a finding `template.<id>` on that port.
import type { ScanContext } from '../../../toolkit/tool.js'
import { createRecorder } from '../../../toolkit/recorder.js'
import { concludeTemplate, loadStoredTemplates, recordTemplateTests, runSslProtocol, templateBounds } from '../../lib/templates/index.js'
import type { TlsScannerParams } from '../params.js'

export async function runSslTemplatePhase(ctx: ScanContext<TlsScannerParams>, host: string, port: number): Promise<void> {
  const { chosen, loaded } = await loadStoredTemplates(ctx.templates, 'ssl', ctx.params.templates, (l) => ctx.log(l))
  if (!chosen.length) return
  ctx.log(`templates: running ${chosen.length} of ${loaded} ssl templates`)
  const rec = createRecorder(ctx, { logErrors: true })
  let requests = 0
  const bounds = templateBounds(ctx)
  await recordTemplateTests(
    rec,
    chosen,
    ctx.signal,
    (t) => `Check template ${t.id} (${t.path}) against the TLS service ${host}:${port}.`,
    async (t) => {
      const env = { net: ctx.net, host, port, servername: ctx.params.sni, signal: ctx.signal, limiter: bounds.limiter }
      const outcome = await bounds.run(host, () => runSslProtocol(t, env))
      requests += outcome.requests
      return concludeTemplate(t, [{ outcome, place: { port, protocol: 'tcp' } }], 'not run')
    },
  )
  ctx.output('templates', { run: chosen.length, requests })
}
