// What the report says, worked out once before drawing: findings in risk order, counts, summary.
import type { ReportFinding, ReportScan, ReportTest, RiskLevel } from '../report-model.js'
import { plural } from './text.js'
import { RISK, RISK_ORDER } from './theme.js'
import { countTests, scanCaveat } from '../scan-caveat.js'

export interface ReportContent {
  scan: ReportScan
  /** Critical first; within a level by name, then id, so the order is stable between renders. */
  findings: ReportFinding[]
  /** All findings of the scan: more than `findings` when the caller passed only the ones drawn. */
  total: number
  tests: ReportTest[]
  /** Per risk level, over all findings. */
  counts: Record<RiskLevel, number>
  kevCount: number
  confirmedCount: number
  summaryLine: string
  generatedAt: string
}

/** What the report counts over all of a scan's findings, when it is given only the ones it draws. */
export interface ReportTotals {
  total: number
  counts: Record<RiskLevel, number>
  kevCount: number
  confirmedCount: number
}

const level = (f: { risk_level: number }): RiskLevel => (f.risk_level >= 0 && f.risk_level <= 4 ? (f.risk_level as RiskLevel) : 0)

/** The report's order: critical first; within a level by name, then id. */
type Ordered = { risk_level: number; name: string; id: number }

export const reportOrder = (a: Ordered, b: Ordered): number => level(b) - level(a) || a.name.localeCompare(b.name) || a.id - b.id

/** Counts over these findings (all of a scan's, or the light columns of all of them). */
export function reportTotals(findings: ReadonlyArray<{ risk_level: number; in_cisa_catalog: boolean; confirmed: boolean }>): ReportTotals {
  const counts: Record<RiskLevel, number> = { 0: 0, 1: 0, 2: 0, 3: 0, 4: 0 }
  let kevCount = 0
  let confirmedCount = 0
  for (const f of findings) {
    counts[level(f)]++
    if (f.in_cisa_catalog) kevCount++
    if (f.confirmed) confirmedCount++
  }
  return { total: findings.length, counts, kevCount, confirmedCount }
}

export function buildContent(
  scan: ReportScan,
  findings: ReportFinding[],
  tests: ReportTest[],
  now = new Date(),
  totals?: ReportTotals,
): ReportContent {
  const sorted = [...findings].sort(reportOrder)
  const t = totals ?? reportTotals(sorted)
  return {
    scan,
    findings: sorted,
    total: t.total,
    tests,
    counts: t.counts,
    kevCount: t.kevCount,
    confirmedCount: t.confirmedCount,
    summaryLine: [summaryLine(t.counts, t.total), scanCaveat(scan, countTests(tests), t.total)].filter(Boolean).join(' '),
    generatedAt: now.toISOString(),
  }
}

function summaryLine(counts: Record<RiskLevel, number>, total: number): string {
  if (total === 0) return 'The scan recorded no findings.'
  const parts = RISK_ORDER.filter((l) => counts[l] > 0).map((l) => `${counts[l]} ${RISK[l].label.toLowerCase()}`)
  return `${plural(total, 'finding')}: ${parts.join(', ')}.`
}
