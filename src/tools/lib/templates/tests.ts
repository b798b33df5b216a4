// One test per template, however many places (ports, names) it ran at: the tests of a scan say
// which templates ran, matched, errored or were skipped. Shared by the tools that run templates.
import type { Hit, HitDefaults } from '../../../toolkit/hit.js'
import type { Recorder } from '../../../toolkit/recorder.js'
import { mapLimit } from '../../../toolkit/limit.js'
import type { Template } from './model.js'
import type { TemplateOutcome } from './run.js'
import { templateHit } from './finding.js'

/** Matches kept per place a template ran at. */
const MATCHES_PER_PLACE = 5

export interface TemplateRunAt {
  outcome: TemplateOutcome
  /** Where its findings are (port and protocol, or the name asked about). */
  place: HitDefaults
}

/**
 * A template's test result from its runs: findings where it matched; else an error when one run
 * failed; else skipped when no run applied (the reason); else passed.
 */
export function concludeTemplate(t: Template, runs: readonly TemplateRunAt[], skipReason: string): Hit[] | string {
  const hits: Hit[] = []
  for (const { outcome: o, place } of runs)
    if (o.status === 'matched')
      for (const m of o.matches.slice(0, MATCHES_PER_PLACE))
        hits.push({ ...templateHit(t, m), url: null, location: m.url || null, ...place })
  if (hits.length) return hits
  const error = runs.find((r) => r.outcome.status === 'error')?.outcome
  if (error?.status === 'error') throw new Error(`template ${t.id}: ${error.message}`)
  const ran = runs.filter((r) => r.outcome.status !== 'skipped')
  if (ran.length === 0) {
    const skipped = runs[0]?.outcome
    return skipped?.status === 'skipped' ? skipped.reason : skipReason
  }
  return []
}

/** Records one test per template, a few at a time; `run` gives its findings or why it was skipped. */
export async function recordTemplateTests(
  rec: Recorder,
  templates: readonly Template[],
  signal: AbortSignal,
  describe: (t: Template) => string,
  run: (t: Template) => Promise<Hit[] | string>,
  concurrency = 4,
): Promise<void> {
  await mapLimit(templates, concurrency, signal, (t) => rec.test(`Template ${t.id}: ${t.info.name}`, describe(t), () => run(t)))
}
