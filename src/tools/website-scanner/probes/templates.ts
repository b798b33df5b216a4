// The template phase of the Website Scanner: stored http templates the filter allows, run against the
// scanned URL, one test each; a template that matched is a finding `template.<id>`.
import type { ScanContext } from '../../../toolkit/tool.js'
import { mapLimit } from '../../../toolkit/limit.js'
import type { HostLimiters } from '../../lib/http/rate-limit.js'
import {
  createRequestCluster,
  createTemplateSender,
  loadStoredTemplates,
  runTemplate,
  type TemplateFilter,
} from '../../lib/templates/index.js'
import type { Egress } from '../../../toolkit/egress.js'
import type { Recorder } from '../../../toolkit/recorder.js'
import { placed, type Where } from '../output.js'
import { templateHit } from '../detect/templates.js'

export interface TemplatePhase {
  ctx: ScanContext<unknown>
  net: Egress
  base: URL
  where: Where
  rec: Recorder
  filter: TemplateFilter | undefined
  limiter: HostLimiters
  /** Told how many template tests are coming, so progress can count them. */
  grow?: (tests: number) => void
}

/** Loads, selects and runs the stored http templates; returns how many ran. */
export async function runTemplatePhase(p: TemplatePhase): Promise<number> {
  const { ctx } = p
  if (!ctx.templates) return 0
  const { chosen, loaded } = await loadStoredTemplates(ctx.templates, 'http', p.filter, (l) => ctx.log(l))
  if (!chosen.length) return 0
  p.grow?.(chosen.length)
  ctx.log(`templates: running ${chosen.length} of ${loaded} http templates`)
  const cluster = createRequestCluster()
  const env = {
    target: p.base,
    send: createTemplateSender(p.net, ctx.signal, p.limiter),
    redirectLevel: ctx.options.redirectLevel,
    cluster,
    signal: ctx.signal,
  }
  let requests = 0
  await mapLimit(chosen, 4, ctx.signal, (t) =>
    p.rec.test(
      `Template ${t.id}: ${t.info.name}`,
      `Check template ${t.id} (${t.path}) against ${p.base.href}`,
      async () => {
        const o = await runTemplate(t, env)
        requests += o.requests
        if (o.status === 'skipped') return o.reason
        if (o.status === 'error') throw new Error(`template ${t.id}: ${o.message}`)
        return o.status === 'matched' ? o.matches.slice(0, 5).map((m) => templateHit(t, m)) : []
      },
      placed(p.where),
    ),
  )
  ctx.output('templates', { run: chosen.length, requests, requests_sent: cluster.sent, requests_saved_by_clustering: cluster.saved })
  ctx.log(`templates done: ${chosen.length} templates, ${requests} requests (${cluster.saved} answered by clustering)`)
  return chosen.length
}
