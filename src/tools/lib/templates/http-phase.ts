// The http template phase of the tools that run http templates against a site (the Website Scanner,
// the WordPress Scanner): the stored http templates the filter allows, run against the scanned URL on
// the scan's session, pace and budget, one test each; a template that matched is a finding `template.<id>`.
import type { ScanContext } from '../../../toolkit/tool.js'
import { scanBudget } from '../../../toolkit/budget.js'
import type { Egress } from '../../../toolkit/egress.js'
import type { HitDefaults } from '../../../toolkit/hit.js'
import type { Recorder } from '../../../toolkit/recorder.js'
import type { HostLimiters } from '../http/rate-limit.js'
import { createRequestCluster } from './cluster.js'
import { templateHit } from './finding.js'
import { maskMatch, secretMask } from './mask.js'
import { runTemplate } from './run.js'
import type { TemplateFilter } from './select.js'
import { createTemplateSender } from './send.js'
import { loadStoredTemplates } from './stored.js'

export interface HttpTemplatePhase {
  ctx: ScanContext<unknown>
  /** The scan's egress (its scope guard), logged in when the tool logged in. */
  net: Egress
  base: URL
  /** Where the findings are when a match does not say (the scanned URL, its port and service). */
  where: HitDefaults
  rec: Recorder
  filter: TemplateFilter | undefined
  /** The scan's per-host pace, shared with the tool's own requests. */
  limiter: HostLimiters
  /** Templates in flight at once (the tool's own request concurrency). */
  concurrency: number
  /** Told how many template tests are coming, so progress can count them. */
  grow?: (tests: number) => void
}

/** Loads, selects and runs the stored http templates; returns how many ran. */
export async function runHttpTemplatePhase(p: HttpTemplatePhase): Promise<number> {
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
  // In the scan's one budget (per host too), as many at once as the tool's other request phases.
  await scanBudget(ctx).each(chosen, { limit: p.concurrency, host: p.base.hostname, signal: ctx.signal }, (t) =>
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
      { where: p.where },
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
