// A Markdown summary for pull-request comments. Everything the scanner reports is text from the scanned
// service, so it is hostile: it must not break the table (|, newlines), open code spans (`), inject
// HTML or links, or mention people. Each value is escaped as plain text in a table cell.
import { atOrAbove, findingLocation, SEVERITIES, severityOf, type FormatWriter } from './types.js'

/** Plain text for a Markdown table cell. */
export function mdText(s: unknown, max = 200): string {
  let t = String(s ?? '')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
  if (t.length > max) t = t.slice(0, max - 1) + '…'
  return t
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\*_{}[\]()#+!~-]/g, (c) => `\\${c}`)
    .replace(/[|`@:]/g, (c) => `&#${c.charCodeAt(0)};`)
}

const MAX_ROWS = 200

export const toMarkdown: FormatWriter = (scan, findings, tests, threshold) => {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<string, number>
  for (const f of findings) counts[severityOf(f.risk_level)]!++
  const hit = findings.filter((f) => atOrAbove(f, threshold)).length
  const verdict =
    threshold === null
      ? ''
      : hit
        ? `**Failed:** ${hit} finding(s) at or above ${threshold}.`
        : `**Passed:** no finding at or above ${threshold}.`
  const out: string[] = []
  out.push(`## Ward scan ${scan.id}: ${mdText(scan.tool_name ?? `tool ${scan.tool_id}`)} on ${mdText(scan.target)}`)
  out.push('')
  out.push(
    `Status: ${mdText(scan.status_name)}${scan.status_message ? ` (${mdText(scan.status_message)})` : ''}. ` +
      `Tests: ${tests.length}. Findings: ${findings.length}.${verdict ? ` ${verdict}` : ''}`,
  )
  out.push('')
  out.push('| Critical | High | Medium | Low | Info |')
  out.push('|---:|---:|---:|---:|---:|')
  out.push(`| ${counts.critical} | ${counts.high} | ${counts.medium} | ${counts.low} | ${counts.info} |`)
  if (findings.length) {
    const sorted = [...findings].sort((a, b) => b.risk_level - a.risk_level || a.vuln_id.localeCompare(b.vuln_id) || a.id - b.id)
    out.push('')
    out.push('| Severity | Finding | Where | Check |')
    out.push('|---|---|---|---|')
    for (const f of sorted.slice(0, MAX_ROWS)) {
      out.push(`| ${severityOf(f.risk_level)} | ${mdText(f.name)} | ${mdText(findingLocation(scan, f).text)} | ${mdText(f.vuln_id, 120)} |`)
    }
    if (sorted.length > MAX_ROWS) out.push('', `…and ${sorted.length - MAX_ROWS} more (see the full report).`)
  }
  return out.join('\n') + '\n'
}
