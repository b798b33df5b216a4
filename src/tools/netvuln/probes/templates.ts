// The template phase of the Network Vulnerability Scanner: stored tcp/network templates against the
// open ports each one is for (its `port:`; any open port when it names none), and ssl templates
// against the TLS ports. One test per template; a match is a finding `template.<id>` on its port.
import type { ScanContext } from '../../../toolkit/tool.js'
import type { Recorder } from '../../../toolkit/recorder.js'
import {
  concludeTemplate,
  loadStoredTemplates,
  recordTemplateTests,
  runSslProtocol,
  runTcpProtocol,
  tcpTemplateFits,
  templateBounds,
  type Template,
  type TemplateFilter,
  type TemplateRunAt,
} from '../../lib/templates/index.js'
import type { PortInfo } from '../detect/services.js'

export interface NetTemplatePhase {
  ctx: ScanContext<{ templates?: TemplateFilter; rate_limit: number }>
  rec: Recorder
  host: string
  infos: readonly PortInfo[]
}

/** Runs the tcp and ssl templates; returns how many templates ran. */
export async function runNetTemplatePhase(p: NetTemplatePhase): Promise<number> {
  const { ctx } = p
  const filter = ctx.params.templates
  const log = (l: string) => ctx.log(l)
  const tcp = await loadStoredTemplates(ctx.templates, 'tcp', filter, log)
  const ssl = await loadStoredTemplates(ctx.templates, 'ssl', filter, log)
  const chosen = [...tcp.chosen, ...ssl.chosen]
  if (!chosen.length) return 0
  ctx.log(`templates: running ${tcp.chosen.length} of ${tcp.loaded} tcp and ${ssl.chosen.length} of ${ssl.loaded} ssl templates`)
  let requests = 0
  const bounds = templateBounds(ctx)
  const at = async (t: Template, port: PortInfo): Promise<TemplateRunAt> => {
    const env = { net: ctx.net, host: p.host, port: port.port, signal: ctx.signal, limiter: bounds.limiter }
    const outcome = await bounds.run(p.host, () => (t.protocol === 'ssl' ? runSslProtocol(t, env) : runTcpProtocol(t, env)))
    requests += outcome.requests
    return { outcome, place: { port: port.port, protocol: 'tcp', service: port.service } }
  }
  await recordTemplateTests(
    p.rec,
    chosen,
    ctx.signal,
    (t) =>
      `Check template ${t.id} (${t.path}, ${t.protocol}) against the ${t.protocol === 'ssl' ? 'TLS' : 'open'} ports it is for on ${p.host}.`,
    async (t) => {
      const ports = p.infos.filter((i) => (t.protocol === 'ssl' ? i.tls : tcpTemplateFits(t, i.port)))
      const runs: TemplateRunAt[] = []
      for (const port of ports) runs.push(await at(t, port))
      return concludeTemplate(t, runs, t.protocol === 'ssl' ? 'no TLS service among the open ports' : noPortReason(t))
    },
  )
  ctx.output('templates', { run: chosen.length, requests })
  ctx.log(`templates done: ${chosen.length} templates, ${requests} connections`)
  return chosen.length
}

function noPortReason(t: Template): string {
  const ports = [...new Set((t.tcp ?? []).flatMap((b) => b.ports))]
  return ports.length ? `none of its ports (${ports.join(', ')}) is open` : 'no open port'
}
