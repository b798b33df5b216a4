// The export formats as pure functions: hostile scanner text stays inert in every format, SARIF passes
// the official validator, fingerprints are stable across runs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  toCsv,
  toJunit,
  toMarkdown,
  toSarif,
  toJson,
  csvCell,
  findingFingerprint,
  type ScanInfo,
  type WireFinding,
  type WireTest,
} from '../../src/reports/formats/index.js'
import { validateSarif } from '../helpers/sarif.js'

const HOSTILE = 'x | y `code` <script>alert(1)</script> [link](javascript:alert(1)) @team\n| injected | row |'

const scan: ScanInfo = {
  id: 7,
  target: 'https://app.example.test/',
  tool_id: 170,
  tool_name: 'Website Scanner',
  status_name: 'finished',
  start_time: '2026-11-23T09:00:00Z',
  end_time: '2026-11-23T09:01:00Z',
  duration: 60,
  server: 'http://127.0.0.1:8080',
}

function finding(id: number, o: Partial<WireFinding> = {}): WireFinding {
  return {
    id,
    name: 'Missing Content-Security-Policy header',
    vuln_id: 'website.headers.csp-missing',
    risk_level: 2,
    test_description: 'Checks headers',
    test_finished: true,
    confirmed: true,
    in_cisa_catalog: false,
    cve: [],
    vuln_description: 'No CSP.',
    vuln_evidence: { type: 'text', data: { text: 'HTTP/1.1 200 OK' } },
    risk_description: 'Cross-site scripting is easier to exploit.',
    status: 'open',
    recommendation: 'Send a Content-Security-Policy header.',
    references: ['https://developer.mozilla.org/en-US/docs/Web/HTTP/CSP', 'not a url'],
    verified: false,
    owasp: {
      owasp_2017: 'A6:2017-Security Misconfiguration',
      owasp_2021: 'A05:2021-Security Misconfiguration',
      owasp_2025: 'A02:2025-Security Misconfiguration',
    },
    cwe: 'CWE-693',
    port: 443,
    protocol: 'tcp',
    service: 'https',
    url: 'https://app.example.test/',
    ...o,
  }
}

const findings: WireFinding[] = [
  finding(1),
  finding(2, {
    name: HOSTILE,
    vuln_id: 'website.info.odd',
    risk_level: 0,
    recommendation: HOSTILE,
    references: [HOSTILE],
    url: 'https://app.example.test/a b?q=1',
    cwe: '',
    owasp: null,
  }),
  finding(3, {
    name: '=HYPERLINK("http://evil")',
    vuln_id: 'website.files.env-exposed',
    risk_level: 4,
    url: 'https://app.example.test/.env',
    cve: ['CVE-2021-0001'],
  }),
  finding(4, { name: 'Open port', vuln_id: 'ports.open', risk_level: 1, url: null, port: 22, protocol: 'tcp', cwe: 'CWE-200' }),
]
const tests: WireTest[] = [
  {
    id: 10,
    name: 'Security headers',
    status: 'finished',
    result: 'failed',
    finding_ids: [1, 2],
    start_time: '2026-11-23T09:00:00Z',
    end_time: '2026-11-23T09:00:02Z',
  },
  { id: 11, name: 'Exposed files <&>', status: 'finished', result: 'failed', finding_ids: [3] },
  { id: 12, name: 'Cookies', status: 'finished', result: 'passed', finding_ids: [] },
  { id: 13, name: 'TLS', status: 'skipped', result: null, finding_ids: [] },
]

test('CSV: one row per finding, formula cells neutralised, quoting per RFC 4180', () => {
  const csv = toCsv(scan, findings)
  const lines = csv.trimEnd().split('\r\n')
  assert.match(lines[0]!, /^scan_id,target,finding_id,severity,risk_level,vuln_id,name,/)
  assert.ok(csv.includes(`"'=HYPERLINK(""http://evil"")"`), csv)
  for (const c of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) assert.equal(csvCell(c).replace(/^"|"$/g, '')[0], "'", c)
  assert.equal(csvCell('plain'), 'plain')
  assert.equal(csvCell('a,b'), '"a,b"')
  // The hostile name holds a newline: quoted, so the row count by records is still 4 findings.
  assert.equal((csv.match(/\r\n(?=\d+,)/g) ?? []).length, 4)
})

test('Markdown: hostile scanner text cannot break the table, open code spans, inject HTML or mention people', () => {
  const md = toMarkdown(scan, findings, tests, 'medium')
  assert.ok(!md.includes('<script>'))
  assert.ok(!md.includes('`'))
  assert.ok(!md.includes('@team'))
  assert.ok(!md.includes('](javascript'))
  assert.ok(md.includes('x &#124; y &#96;code&#96; &lt;script&gt;'), md)
  // Every table row keeps exactly its 4 cells (5 pipes).
  for (const row of md.split('\n').filter((l) => l.startsWith('| ') && !l.includes('Critical'))) {
    if (/^\| (info|low|medium|high|critical) \|/.test(row)) assert.equal(row.split('|').length, 6, row)
  }
  assert.match(md, /\*\*Failed:\*\* 2 finding\(s\) at or above medium/)
  assert.match(md, /\| 1 \| 0 \| 1 \| 1 \| 1 \|/)
})

test('JUnit: a test case per test record, a failure per finding at or above the threshold, escaped XML', () => {
  const xml = toJunit(scan, findings, tests, 'medium')
  assert.equal((xml.match(/<testcase /g) ?? []).length, 5) // 4 tests + the finding no test names (id 4)
  assert.equal((xml.match(/<failure /g) ?? []).length, 2) // medium (1) and critical (3); info (2) and low (4) are not
  assert.match(xml, /failures="2"/)
  assert.match(xml, /<skipped\/>/)
  assert.ok(!xml.includes('<script>'))
  assert.ok(xml.includes('Exposed files &lt;&amp;&gt;'))
  assert.match(xml, /name="findings not linked to a test"/)
  // Without a threshold nothing fails; the findings are listed as output.
  assert.equal((toJunit(scan, findings, tests, null).match(/<failure /g) ?? []).length, 0)
  // Characters XML 1.0 cannot carry are dropped rather than making the file unreadable.
  assert.ok(!toJunit(scan, [finding(1, { name: 'a\u0001b\u001b[31m' })], [], 'info').includes('\u0001'))
})

test('fingerprints: stable across scans and finding ids; differ by target, check, port or URL path; query and case of host ignored', () => {
  const f = finding(1)
  const base = findingFingerprint('https://app.example.test/', f)
  assert.equal(findingFingerprint('https://APP.example.test', { ...f, id: 99, scan_id: 5, name: 'other words' }), base)
  assert.equal(findingFingerprint('https://app.example.test/', { ...f, url: 'https://APP.example.test:443/?x=1#y' }), base)
  assert.notEqual(findingFingerprint('https://other.example.test/', f), base)
  assert.notEqual(findingFingerprint('https://app.example.test/', { ...f, vuln_id: 'x' }), base)
  assert.notEqual(findingFingerprint('https://app.example.test/', { ...f, port: 8443 }), base)
  assert.notEqual(findingFingerprint('https://app.example.test/', { ...f, url: 'https://app.example.test/admin' }), base)
})

test('SARIF 2.1.0: one rule per check, one result per finding with logical location and fingerprint; the official validator accepts it', async () => {
  const text = toSarif(scan, [...findings, finding(5, { url: 'https://app.example.test/other' })], tests, 'medium')
  const log = JSON.parse(text)
  const run = log.runs[0]
  assert.equal(log.version, '2.1.0')
  assert.equal(run.automationDetails.id, 'ward/170/https_app.example.test_/7')
  assert.equal(run.tool.driver.rules.length, 4)
  assert.equal(run.results.length, 5)
  const rule = run.tool.driver.rules.find((r: any) => r.id === 'website.headers.csp-missing')
  assert.equal(rule.properties['security-severity'], '5.5')
  assert.ok(rule.properties.tags.includes('external/cwe/cwe-693'))
  assert.ok(rule.properties.tags.includes('external/owasp/a05:2021'))
  assert.match(rule.help.text, /Recommendation: Send a Content-Security-Policy header\.\nReferences: https:\/\/developer\.mozilla\.org/)
  const r = run.results[0]
  assert.equal(r.locations[0].logicalLocations[0].fullyQualifiedName, 'app.example.test/443/tcp/https://app.example.test/')
  assert.match(r.partialFingerprints['wardFinding/v1'], /^[0-9a-f]{64}$/)
  assert.equal(run.results.find((x: any) => x.ruleId === 'website.files.env-exposed').level, 'error')
  assert.equal(run.tool.driver.rules.find((x: any) => x.id === 'website.files.env-exposed').properties['security-severity'], '9.5')

  const dir = mkdtempSync(join(tmpdir(), 'ward-formats-'))
  try {
    const file = join(dir, 'out.sarif')
    writeFileSync(file, text)
    const v = await validateSarif(file)
    assert.ok(v.ok, v.output)
    assert.deepEqual(v.warnings, [], v.output)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  // The raw JSON keeps the server's objects as they were.
  assert.deepEqual(JSON.parse(toJson(scan, findings, tests, 'high')).findings, findings)
})
