// Look and limits of the PDF report: one place for colours, sizes and the caps that keep
// rendering bounded whatever a scan produced.
import type { RiskLevel } from '../report-model.js'

export const PAGE = { size: 'A4' as const, width: 595.28, height: 841.89, margin: { top: 64, bottom: 64, left: 56, right: 56 } }
export const CONTENT_WIDTH = PAGE.width - PAGE.margin.left - PAGE.margin.right

export const COLOR = {
  brand: '#14213d',
  brandAccent: '#3d7dca',
  text: '#1f2933',
  muted: '#616e7c',
  faint: '#9aa5b1',
  rule: '#d9e2ec',
  tableHeader: '#e4e9f0',
  zebra: '#f5f7fa',
  evidenceBg: '#f3f4f6',
  kev: '#7a0019',
  link: '#1d5fa8',
}

export interface RiskStyle {
  label: string
  color: string
}

/** decisions.md: 0 info, 1 low, 2 medium, 3 high, 4 critical. */
export const RISK: Readonly<Record<RiskLevel, RiskStyle>> = {
  4: { label: 'Critical', color: '#8e1b1b' },
  3: { label: 'High', color: '#d62d20' },
  2: { label: 'Medium', color: '#e46b13' },
  1: { label: 'Low', color: '#b7860b' },
  0: { label: 'Info', color: '#3b6fb6' },
}
export const RISK_ORDER: readonly RiskLevel[] = [4, 3, 2, 1, 0]

export const riskStyle = (level: number): RiskStyle => RISK[(level >= 0 && level <= 4 ? Math.trunc(level) : 0) as RiskLevel]

export const SIZE = { body: 9.5, small: 8, mono: 7.5, h1: 20, h2: 14, h3: 12, label: 8 }

/** Caps: a scan can hold anything; the report stays readable and its rendering bounded. */
export const LIMIT = {
  /** Findings rendered in full; the rest appear only in the overview table. */
  detailedFindings: 1000,
  /** Rows of the findings overview and of the tests table. */
  overviewRows: 5000,
  testRows: 5000,
  /** Per finding field (description, impact, recommendation). */
  fieldChars: 6000,
  textEvidenceChars: 8000,
  textEvidenceLines: 250,
  tableEvidenceRows: 200,
  tableEvidenceColumns: 12,
  cellChars: 800,
  references: 30,
  cves: 60,
  /** Yield to the event loop every N findings so a big report does not stall a server. */
  yieldEvery: 25,
}
