// What the report says, worked out once before drawing: findings in risk order, counts, summary.
import type { ReportFinding, ReportScan, ReportTest, RiskLevel } from '../report-model.js'
import { plural } from './text.js'
import { RISK, RISK_ORDER } from './theme.js'
import { countTests, scanCaveat } from '../scan-caveat.js'

export interface ReportContent {
  scan: ReportScan
  /** Critical first; within a level by name, then id, so the order is stable between renders. */
  findings: ReportFinding[]
  tests: ReportTest[]
  /** Per risk level, counted from the findings in the report. */
  counts: Record<RiskLevel, number>
  kevCount: number
  confirmedCount: number
  summaryLine: string
  generatedAt: string
}

const level = (f: ReportFinding): RiskLevel => (f.risk_level >= 0 && f.risk_level <= 4 ? f.risk_level : 0)

export function buildContent(scan: ReportScan, findings: ReportFinding[], tests: ReportTest[], now = new Date()): ReportContent {
  const sorted = [...findings].sort((a, b) => level(b) - level(a) || a.name.localeCompare(b.name) || a.id - b.id)
  const counts: Record<RiskLevel, number> = { 0: 0, 1: 0, 2: 0, 3: 0, 4: 0 }
  for (const f of sorted) counts[level(f)]++
  return {
    scan,
    findings: sorted,
    tests,
    counts,
    kevCount: sorted.filter((f) => f.in_cisa_catalog).length,
    confirmedCount: sorted.filter((f) => f.confirmed).length,
    summaryLine: [summaryLine(counts, sorted.length), scanCaveat(scan, countTests(tests), sorted.length)].filter(Boolean).join(' '),
    generatedAt: now.toISOString(),
  }
}

function summaryLine(counts: Record<RiskLevel, number>, total: number): string {
  if (total === 0) return 'The scan recorded no findings.'
  const parts = RISK_ORDER.filter((l) => counts[l] > 0).map((l) => `${counts[l]} ${RISK[l].label.toLowerCase()}`)
  return `${plural(total, 'finding')}: ${parts.join(', ')}.`
}
