// Templates inside the Website Scanner (170): tool_params.templates selects them, each runs as one
// test, a template that matched is a finding template.<id> with the template's meaning.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTemplateSite, type TemplateSite } from '../../testbed/template-site.js'
import { runTool } from '../../helpers/tool-harness.js'
import { websiteScanner } from '../../../src/tools/website-scanner/run.js'
import type { StoredTemplate, TemplateSource } from '../../../src/toolkit/templates.js'
import { RISK_LEVEL } from '../../../src/toolkit/check.js'
import { resolveToolParams } from '../../../src/toolkit/params.js'

const T = (id: string, path: string, word: string, o: { severity?: string; tags?: string; extra?: string } = {}) => `id: ${id}
info:
  name: AcmeCMS ${id}
  author: ward
  severity: ${o.severity ?? 'high'}
  tags: ${o.tags ?? 'exposure'}
  description: The AcmeCMS console is exposed.
  remediation: Restrict the console to the admin network.
  reference: [https://example.invalid/acme]
  classification:
    cve-id: CVE-2099-1234
    cwe-id: CWE-284
    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N
    cvss-score: 9.1
http:
  - method: GET
    path: ["{{BaseURL}}${path}"]
${o.extra ?? ''}    matchers:
      - type: word
        words: ["${word}"]
`

const STORED: StoredTemplate[] = [
  { id: 'acme-console', path: 'http/acme-console.yaml', yaml: T('acme-console', '/pos/word', 'AcmeCMS'), files: {} },
  { id: 'acme-clean', path: 'http/acme-clean.yaml', yaml: T('acme-clean', '/neg/word', 'AcmeCMS', { severity: 'low' }), files: {} },
  { id: 'acme-dos', path: 'http/acme-dos.yaml', yaml: T('acme-dos', '/pos/word', 'AcmeCMS', { tags: 'dos' }), files: {} },
  {
    id: 'acme-too-many',
    path: 'http/acme-too-many.yaml',
    yaml: T('acme-too-many', '/echo?q={{a}}{{b}}', 'never', {
      extra: `    attack: clusterbomb\n    payloads:\n      a: [${Array.from({ length: 100 }, (_, i) => i).join(',')}]\n      b: [${Array.from({ length: 100 }, (_, i) => i).join(',')}]\n`,
    }),
    files: {},
  },
  {
    id: 'acme-code',
    path: 'code/x.yaml',
    yaml: 'id: acme-code\ninfo: {name: c, author: w, severity: low}\ncode:\n  - source: id\n',
    files: {},
  },
]
const source: TemplateSource = { forProtocol: async (p) => (p === 'http' ? STORED : []) }

let site: TemplateSite
before(async () => {
  site = await startTemplateSite('127.0.61.2')
})
after(() => site.close())

test('a light scan runs the templates tool_params.templates names; matched ones are findings with the template meaning', async () => {
  const r = await runTool(websiteScanner, {
    target: site.url + '/',
    params: { scan_type: 'light', templates: { tags: ['exposure'] } },
    templates: source,
  })
  assert.equal(r.error, undefined)
  const tests = new Map(r.tests.filter((t) => t.name.startsWith('Template ')).map((t) => [t.name.split(':')[0], t]))
  assert.deepEqual([...tests.keys()].sort(), ['Template acme-clean', 'Template acme-console', 'Template acme-too-many'])
  assert.equal(tests.get('Template acme-console')!.result, 'failed')
  assert.equal(tests.get('Template acme-clean')!.result, 'passed')
  const err = tests.get('Template acme-too-many')!
  assert.deepEqual(
    [err.status, err.message],
    ['error', 'template acme-too-many: 10000 payload combinations (clusterbomb) exceed the cap of 1000'],
  )
  const f = r.findings.find((x) => x.check.id === 'template.acme-console')!
  assert.ok(f)
  assert.equal(f.check.name, 'AcmeCMS acme-console')
  assert.equal(RISK_LEVEL[f.check.risk], 3)
  assert.deepEqual(f.check.cve, ['CVE-2099-1234'])
  assert.deepEqual(f.check.cwe, ['CWE-284'])
  assert.equal(f.check.recommendation, 'Restrict the console to the admin network.')
  assert.deepEqual(f.cvss, { score: 9.1, vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N' })
  assert.equal(f.url, `${site.url}/pos/word`)
  assert.deepEqual(f.evidence, {
    type: 'table',
    data: {
      headers: ['part', 'value'],
      rows: [
        ['request', 'GET /pos/word HTTP/1.1'],
        ['matched', 'AcmeCMS'],
      ],
    },
  })
  assert.deepEqual(r.output.templates, { run: 3, requests: 2, requests_sent: 2, requests_saved_by_clustering: 0 })
  // Template tests are counted in the progress total: it never runs past the end.
  assert.ok(
    r.progressSteps.every((p) => p.fraction <= 1),
    JSON.stringify(r.progressSteps.map((p) => p.fraction)),
  )
})

test('light scans without tool_params.templates run none; dos-tagged templates run only when named', async () => {
  const none = await runTool(websiteScanner, { target: site.url + '/', params: { scan_type: 'light' }, templates: source })
  assert.equal(none.tests.filter((t) => t.name.startsWith('Template ')).length, 0)
  const named = await runTool(websiteScanner, {
    target: site.url + '/',
    params: { scan_type: 'light', templates: { ids: ['acme-dos'] } },
    templates: source,
  })
  assert.deepEqual(
    named.findings.filter((f) => f.check.id.startsWith('template.')).map((f) => f.check.id),
    ['template.acme-dos'],
  )
  const dflt = await runTool(websiteScanner, {
    target: site.url + '/',
    params: { scan_type: 'light', templates: { exclude_ids: ['acme-too-many'], severities: ['high'] } },
    templates: source,
  })
  assert.deepEqual(
    dflt.findings.filter((f) => f.check.id.startsWith('template.')).map((f) => f.check.id),
    ['template.acme-console'],
  )
})

test('tool_params.templates is validated: unknown keys and severities are refused', () => {
  const bad = [{ templates: { idz: ['x'] } }, { templates: { severities: ['urgent'] } }, { templates: { ids: 'x' } }]
  for (const p of bad) assert.equal(resolveToolParams(websiteScanner.params, { scan_type: 'light', ...p }).ok, false, JSON.stringify(p))
  assert.equal(
    resolveToolParams(websiteScanner.params, {
      scan_type: 'deep',
      templates: { ids: ['a'], tags: ['b'], severities: ['critical'], exclude_tags: ['c'], exclude_ids: ['d'] },
    }).ok,
    true,
  )
})

test('output_data.templates counts every request sent, not only the clustered GETs', async () => {
  const post = `id: acme-post
info: {name: post, author: ward, severity: low, tags: exposure}
http:
  - raw:
      - |
        POST /raw HTTP/1.1
        Host: {{Hostname}}
        X-Ward: raw

        a=1
    matchers:
      - type: word
        words: ["raw ok"]
`
  const two: StoredTemplate[] = [
    { id: 'acme-post', path: 'http/acme-post.yaml', yaml: post, files: {} },
    { id: 'acme-get-1', path: 'http/a.yaml', yaml: T('acme-get-1', '/pos/word', 'AcmeCMS'), files: {} },
    { id: 'acme-get-2', path: 'http/b.yaml', yaml: T('acme-get-2', '/pos/word', 'AcmeCMS'), files: {} },
  ]
  const r = await runTool(websiteScanner, {
    target: site.url + '/',
    params: { scan_type: 'light', templates: { ids: ['acme-post', 'acme-get-1', 'acme-get-2'] } },
    templates: { forProtocol: async (p) => (p === 'http' ? two : []) },
  })
  // Three asked; the two identical GETs are sent once: one POST and one GET leave Ward.
  assert.deepEqual(r.output.templates, { run: 3, requests: 3, requests_sent: 2, requests_saved_by_clustering: 1 })
})
