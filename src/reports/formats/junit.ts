// JUnit XML for CI test reports (GitLab, Jenkins, Azure): one test case per test record of the scan,
// a <failure> per finding at or above the threshold, the other findings in <system-out>. Findings no
// test record names (a server that does not link them) get one extra test case, so none is lost.
import { atOrAbove, findingLocation, severityOf, type FormatWriter, type WireFinding } from './types.js'

/** XML 1.0 text: markup characters escaped, characters XML cannot carry at all removed. */
export function xmlEscape(s: string): string {
  return String(s)
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

const seconds = (a?: string | null, b?: string | null) => {
  const s = a ? Date.parse(a) : NaN
  const e = b ? Date.parse(b) : NaN
  return Number.isFinite(s) && Number.isFinite(e) && e >= s ? ((e - s) / 1000).toFixed(3) : '0'
}

export const toJunit: FormatWriter = (scan, findings, tests, threshold) => {
  const byId = new Map(findings.map((f) => [f.id, f]))
  const linked = new Set<number>()
  const line = (f: WireFinding) => `[${severityOf(f.risk_level)}] ${f.name} (${f.vuln_id}) at ${findingLocation(scan, f).text}`
  const failureXml = (f: WireFinding) => {
    const loc = findingLocation(scan, f)
    const body = [line(f), f.vuln_description ?? '', f.recommendation ? `Recommendation: ${f.recommendation}` : '', ...(f.references ?? [])]
      .filter(Boolean)
      .join('\n')
    return `      <failure type="${xmlEscape(severityOf(f.risk_level))}" message="${xmlEscape(`${f.name} at ${loc.text}`)}">${xmlEscape(body)}</failure>\n`
  }
  const classname = `ward.${(scan.tool_name ?? String(scan.tool_id)).toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
  let failures = 0
  let errors = 0
  let skipped = 0
  const cases: string[] = []
  const testCase = (name: string, time: string, own: WireFinding[], status?: string) => {
    let inner = ''
    const failing = own.filter((f) => atOrAbove(f, threshold))
    const other = own.filter((f) => !atOrAbove(f, threshold))
    for (const f of failing) inner += failureXml(f)
    failures += failing.length ? 1 : 0
    if (status === 'error' && !failing.length) {
      errors++
      inner += `      <error message="the test could not be completed"/>\n`
    } else if (status === 'skipped' && !failing.length) {
      skipped++
      inner += `      <skipped/>\n`
    }
    if (other.length) inner += `      <system-out>${xmlEscape(other.map(line).join('\n'))}</system-out>\n`
    cases.push(
      `    <testcase classname="${xmlEscape(classname)}" name="${xmlEscape(name)}" time="${time}"${inner ? `>\n${inner}    </testcase>` : '/>'}\n`,
    )
  }
  for (const t of tests) {
    const own = (t.finding_ids ?? []).map((id) => byId.get(id)).filter((f): f is WireFinding => !!f)
    own.forEach((f) => linked.add(f.id))
    testCase(t.name, seconds(t.start_time, t.end_time), own, t.status)
  }
  const unlinked = findings.filter((f) => !linked.has(f.id))
  if (unlinked.length) testCase('findings not linked to a test', '0', unlinked)
  const suiteName = `Ward scan ${scan.id}: ${scan.tool_name ?? `tool ${scan.tool_id}`} on ${scan.target}`
  const props = [
    ['scan_id', String(scan.id)],
    ['target', scan.target],
    ['status', scan.status_name],
    ['fail_on', threshold ?? 'none'],
  ]
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="Ward" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${scan.duration ?? 0}">\n` +
    `  <testsuite name="${xmlEscape(suiteName)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" ` +
    `time="${scan.duration ?? 0}"${scan.start_time ? ` timestamp="${xmlEscape(scan.start_time)}"` : ''}>\n` +
    `    <properties>\n${props.map(([k, v]) => `      <property name="${k}" value="${xmlEscape(v!)}"/>\n`).join('')}    </properties>\n` +
    cases.join('') +
    `  </testsuite>\n</testsuites>\n`
  )
}
