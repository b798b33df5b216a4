// The template phase of the Website Scanner: stored http templates the filter allows, run against the
// scanned URL, one test each; a template that matched is a finding `template.<id>`.
import type { ScanContext } from '../../../toolkit/tool.js'
import { scanBudget } from '../../../toolkit/budget.js'
import type { HostLimiters } from '../../lib/http/rate-limit.js'
import {
  createRequestCluster,
  createTemplateSender,
  loadStoredTemplates,
  maskMatch,
  secretMask,
  runTemplate,
  type TemplateFilter,
} from '../../lib/templates/index.js'
import type { Egress } from '../../../toolkit/egress.js'
import type { Recorder } from '../../../toolkit/recorder.js'
import { placed, type Where } from '../output.js'
import { templateHit } from '../detect/templates.js'
import { LIMITS } from '../params.js'

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
    variables: p.filter?.variables,
  }
  const mask = secretMask(Object.values(p.filter?.variables ?? {}))
  let requests = 0
  // In the scan's one budget (per host too), as many at once as the scanner's other request phases.
  await scanBudget(ctx).each(chosen, { limit: LIMITS.concurrency, host: p.base.hostname, signal: ctx.signal }, (t) =>
    p.rec.test(
      `Template ${t.id}: ${t.info.name}`,
      `Check template ${t.id} (${t.path}) against ${p.base.href}`,
      async () => {
        const o = await runTemplate(t, env)
        requests += o.requests
        if (o.status === 'skipped') return mask(o.reason)
        if (o.status === 'error') throw new Error(mask(`template ${t.id}: ${o.message}`))
        return o.status === 'matched' ? o.matches.slice(0, 5).map((m) => templateHit(t, maskMatch(m, mask))) : []
      },
      placed(p.where),
    ),
  )
  // Sent: every request asked for but those another template's identical request answered (POSTs too).
  ctx.output('templates', {
    run: chosen.length,
    requests,
    requests_sent: requests - cluster.saved,
    requests_saved_by_clustering: cluster.saved,
  })
  ctx.log(`templates done: ${chosen.length} templates, ${requests} requests (${cluster.saved} answered by clustering)`)
  return chosen.length
}
