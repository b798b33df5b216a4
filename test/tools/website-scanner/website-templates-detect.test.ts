// One-line passes/fails tests of the Website Scanner's template detector (detect/templates.ts): a
// matched template becomes a catalogue entry and a hit, and only well-formed identifiers pass into it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadTemplate, type Template, type TemplateMatch } from '../../../src/tools/lib/templates/index.js'
import { templateCheck, templateHit } from '../../../src/tools/website-scanner/detect/templates.js'
import type { Hit } from '../../../src/tools/website-scanner/detect/types.js'

const yaml = (severity: string, classification = '') => `id: acme-panel
info:
  name: Acme panel exposed
  author: ward
  severity: ${severity}
  description: The Acme admin panel answers without login.
  reference:
    - https://example.test/advisory
    - javascript:alert(1)
${classification}http:
  - method: GET
    path:
      - "{{BaseURL}}/admin"
    matchers:
      - type: word
        words: ["Acme"]
`
const CLASSIFIED = `  classification:
    cwe-id: CWE-284,not-a-cwe
    cve-id: CVE-2024-1234,CVE-bogus
    cvss-score: 9.1
    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N
`
function load(text: string): Template {
  const r = loadTemplate(text, { path: 'acme.yaml' })
  if (!r.ok) assert.fail(`template did not load: ${r.reason}`)
  return r.template
}
/** The evidence table's rows (none when the evidence is not a table). */
function rowsOf(hit: Hit): string[][] {
  const d = hit.evidence?.data
  return d && 'rows' in d ? d.rows : []
}
const match = (over: Partial<TemplateMatch> = {}): TemplateMatch => ({
  requestLine: 'GET /admin HTTP/1.1',
  url: 'http://127.0.98.1/admin',
  matcherNames: [],
  hits: ['Acme'],
  extracted: [],
  truncated: false,
  ...over,
})

test('templateCheck: the severity is the risk, unknown severity is info', () => {
  assert.equal(templateCheck(load(yaml('critical'))).risk, 'critical')
  assert.equal(templateCheck(load(yaml('unknown'))).risk, 'info')
})

test('templateCheck: well-formed CWE, CVE and http(s) references pass, the rest are dropped', () => {
  const c = templateCheck(load(yaml('high', CLASSIFIED)))
  assert.deepEqual(
    [c.id, c.cwe, c.cve, c.references],
    ['template.acme-panel', ['CWE-284'], ['CVE-2024-1234'], ['https://example.test/advisory']],
  )
})

test('templateHit: the match is the evidence, the CVSS score comes along; none without a score', () => {
  const hit = templateHit(load(yaml('high', CLASSIFIED)), match({ matcherNames: ['panel'], truncated: true }))
  const rows = rowsOf(hit).map((r) => r[0])
  assert.deepEqual(rows, ['request', 'matchers', 'matched', 'note'])
  assert.equal(hit.cvss?.score, 9.1)
  assert.equal(templateHit(load(yaml('high')), match()).cvss, null)
})

test('templateHit: a hostile hit longer than a cell is cut, not dropped', () => {
  const hit = templateHit(load(yaml('low')), match({ hits: ['x'.repeat(2000)] }))
  const cell = rowsOf(hit)[1]?.[1] ?? ''
  assert.equal(cell.length, 501)
})
