// At most `cap` findings of one check (vuln_id) per scan are stored one by one; the rest are counted
// into ONE finding of the same check that says how many more there were and names some of them. A
// check gone wild (a server answering 200 for every `a<N>.bak`) then costs one row, not thousands, in
// the store, the API's lists, reports and PDFs. Every tool's findings pass through here
// (scan-context.ts), so no tool has to count for itself.
import type { Db } from '../store/db.js'
import type { FindingPlace, FindingRecord } from '../store/finding-rows.js'
import { insertFinding } from '../store/results.js'
import { MORE_FINDINGS_LOCATION, storedKeysOfCheck } from '../store/capped-findings.js'
import { RISK_LEVEL, type Risk } from '../toolkit/check.js'
import { tableEvidence } from '../toolkit/evidence.js'
import type { FindingInput } from '../toolkit/tool.js'

export const DEFAULT_FINDINGS_PER_CHECK = 200

/** Locations named in the summary's evidence (its description names the first few). */
const SAMPLE_ROWS = 50
const SAMPLES_IN_TEXT = 5
/** Identities remembered to count each further finding once (a tool may report one twice); past this, every report counts. */
const MAX_REMEMBERED = 100_000

export type MakeFindingRecord = (f: FindingInput, at: FindingPlace) => FindingRecord | Promise<FindingRecord>

export interface CappedFindings {
  /** Stores the finding, or counts it into its check's summary once the check has `cap` findings stored. */
  write(f: FindingInput, at: FindingPlace): Promise<void>
  /** Writes the summaries whose count moved since they were last written (the scan context's flush). */
  flush(): Promise<void>
}

interface CheckState {
  /** Identities stored one by one (at most `cap`). */
  stored: Set<string>
  more: Set<string>
  moreCount: number
  samples: string[][]
  risk: number
  confirmed: boolean
  /** The first further finding: its check, test and place carry the summary. */
  first: { f: FindingInput; at: FindingPlace } | null
  dirty: boolean
}

const RISK_BY_LEVEL = Object.fromEntries(Object.entries(RISK_LEVEL).map(([k, v]) => [v, k])) as Record<number, Risk>

export function cappedFindings(db: Db, scanId: number, cap: number, make: MakeFindingRecord): CappedFindings {
  const checks = new Map<string, Promise<CheckState>>()
  // Summaries are written one at a time: two writers of one summary could each find no row and insert two.
  let writing: Promise<void> = Promise.resolve()

  const stateOf = (vulnId: string): Promise<CheckState> => {
    let s = checks.get(vulnId)
    if (!s) {
      s = storedKeysOfCheck(db, scanId, vulnId, cap).then((keys) => ({
        stored: new Set(keys),
        more: new Set(),
        moreCount: 0,
        samples: [],
        risk: 0,
        confirmed: false,
        first: null,
        dirty: false,
      }))
      checks.set(vulnId, s)
    }
    return s
  }

  const writeSummary = (s: CheckState): Promise<void> => {
    writing = writing.then(async () => {
      if (!s.dirty || !s.first) return
      s.dirty = false
      await insertFinding(db, await make(summaryOf(s, cap), { ...s.first.at }))
    })
    return writing
  }

  return {
    async write(f, at) {
      const record = await make(f, at)
      const s = await stateOf(record.vuln_id)
      if (s.stored.has(record.dedup_key) || s.stored.size < cap) {
        s.stored.add(record.dedup_key)
        await insertFinding(db, record)
        return
      }
      if (s.more.has(record.dedup_key)) return
      if (s.more.size < MAX_REMEMBERED) s.more.add(record.dedup_key)
      s.moreCount++
      s.risk = Math.max(s.risk, record.risk_level)
      s.confirmed ||= record.confirmed
      if (s.samples.length < SAMPLE_ROWS) s.samples.push([placeOf(record), record.name])
      s.dirty = true
      if (!s.first) {
        s.first = { f, at }
        await writeSummary(s) // at once, so the scan shows it while running; later counts at flush
      }
    },
    async flush() {
      for (const p of checks.values()) {
        const s = await p
        if (s.dirty) await writeSummary(s)
      }
    },
  }
}

function placeOf(r: FindingRecord): string {
  if (r.url) return r.url
  const port = r.port != null ? `${r.port}${r.protocol ? `/${r.protocol}` : ''}` : ''
  return [r.location, port].filter(Boolean).join(' ') || '(no location)'
}

/** The summarising finding: the check's own catalogue entry, its worst risk, the count and some places. */
function summaryOf(s: CheckState, cap: number): FindingInput {
  const { f } = s.first!
  const n = s.moreCount
  const places = s.samples.slice(0, SAMPLES_IN_TEXT).map((r) => r[0])
  const others = n - places.length
  return {
    check: f.check,
    name: `${f.check.name}: and ${n} more`,
    location: MORE_FINDINGS_LOCATION,
    risk: RISK_BY_LEVEL[s.risk] ?? f.check.risk,
    confirmed: s.confirmed,
    detail:
      `This scan found ${cap + n} findings of this check: ${cap} are listed one by one, and ${n} more at ` +
      `${places.join(', ')}${others > 0 ? ` and ${others} other place${others === 1 ? '' : 's'}` : ''}` +
      ` (the evidence names the first ${s.samples.length}).`,
    evidence: tableEvidence(['Location', 'Finding'], s.samples),
  }
}
