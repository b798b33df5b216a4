// The template phase of the Subdomain Finder: stored dns templates (community takeover checks: a
// CNAME to an unclaimed service) on the domain and every name found, asked of the scan's one
// resolver. One test per template; a match is a finding `template.<id>` on the name.
import type { ScanContext } from '../../../toolkit/tool.js'
import { createRecorder } from '../../../toolkit/recorder.js'
import type { DnsClient } from '../../lib/dns/client.js'
import {
  concludeTemplate,
  loadStoredTemplates,
  recordTemplateTests,
  runDnsProtocol,
  templateBounds,
  type TemplateRunAt,
} from '../../lib/templates/index.js'
import type { SubdomainFinderParams } from '../params.js'

export async function runDnsTemplatePhase(
  ctx: ScanContext<SubdomainFinderParams>,
  client: DnsClient,
  domain: string,
  names: readonly string[],
): Promise<void> {
  const { chosen, loaded } = await loadStoredTemplates(ctx.templates, 'dns', ctx.params.templates, (l) => ctx.log(l))
  if (!chosen.length) return
  const all = [...new Set([domain, ...names])]
  ctx.log(`templates: running ${chosen.length} of ${loaded} dns templates on ${all.length} names`)
  const rec = createRecorder(ctx, { logErrors: true })
  let requests = 0
  const bounds = templateBounds(ctx)
  const query: Parameters<typeof runDnsProtocol>[1]['query'] = (name, type, o) =>
    client.query(name, type, { signal: o.signal, rd: o.rd, class: o.class })
  await recordTemplateTests(
    rec,
    chosen,
    ctx.signal,
    (t) => `Check template ${t.id} (${t.path}) on ${domain} and the ${all.length - 1} names found under it.`,
    async (t) => {
      const runs: TemplateRunAt[] = []
      for (const fqdn of all) {
        if (ctx.signal.aborted) break
        // Every question goes to the scan's one resolver: its budget slot, and the pace of the domain.
        const outcome = await bounds.run(client.server.host, () =>
          runDnsProtocol(t, { fqdn, domain, query, signal: ctx.signal, limiter: bounds.limiter }),
        )
        requests += outcome.requests
        runs.push({ outcome, place: { location: fqdn } })
      }
      return concludeTemplate(t, runs, 'no name to ask about')
    },
  )
  ctx.output('templates', { run: chosen.length, requests })
}
