// The WordPress Scanner (270) runs the http templates tagged wordpress, shipped and imported, through
// the API against the loopback WordPress beds: their findings are `template.<id>` as the Website
// Scanner reports them, one test per template; an imported template tagged wordpress adds its finding
// with no code change; tool_params.templates chooses as for tool 170; the hardened twin gives none.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { scanThroughApi } from '../../helpers/api-scan.js'
import { importTemplates } from '../../../src/cli/template-import.js'
import { shippedSummaries } from '../../../src/tools/lib/templates/shipped.js'
import { startWordpressBed, WP_TRUTH, type WordpressBed } from '../../testbed/wordpress-site.js'

let w: TestWard
let weak: WordpressBed
let hardened: WordpressBed
before(async () => {
  ;[w, weak, hardened] = await Promise.all([startWard(), startWordpressBed('weak'), startWordpressBed('hardened')])
})
after(async () => {
  await Promise.all([weak.close(), hardened.close()])
  await w.close()
})

// The built-in checks are cut short (no readme probing, no author ids): these tests are about the templates.
const scan = (bed: WordpressBed, templates?: Record<string, unknown>) =>
  scanThroughApi(w, 270, bed.url, { enumerate: 'none', max_author_ids: 0, ...(templates ? { templates } : {}) })
const templateTests = (tests: any[]) =>
  tests
    .filter((t) => t.name.startsWith('Template '))
    .map((t) => t.name.replace(/^Template ([^:]+):.*$/, '$1'))
    .sort()
const templateFindings = (findings: any[]) =>
  findings
    .filter((f) => f.vuln_id.startsWith('template.'))
    .map((f) => f.vuln_id)
    .sort()
const SHIPPED_WP = shippedSummaries()
  .filter((s) => s.tags.includes('wordpress'))
  .map((s) => s.id)
  .sort()

test('by default every template tagged wordpress runs (one test each, no other template), and their findings are template.<id>', async () => {
  assert.ok(SHIPPED_WP.length >= 4, `${SHIPPED_WP.length} shipped templates tagged wordpress`)
  const { s, output, tests, findings } = await scan(weak)
  assert.equal(s.status_name, 'finished', s.status_message)
  assert.deepEqual(templateTests(tests), SHIPPED_WP, 'one test per template tagged wordpress, none other')
  assert.equal(output.templates.run, SHIPPED_WP.length)
  assert.deepEqual(templateFindings(findings), [...WP_TRUTH.templateFindings].sort())
  // The built-in checks still report, beside the templates.
  assert.ok(findings.some((f) => f.vuln_id === 'wordpress.debug-log'))
  const cve = findings.find((f) => f.vuln_id === 'template.CVE-2023-32243')
  assert.deepEqual(cve.cve, ['CVE-2023-32243'])
  assert.equal(cve.risk_level, 4, 'critical, from the template severity')
  assert.equal(new URL(cve.url).pathname, '/wp-content/plugins/essential-addons-for-elementor-lite/readme.txt')
  const fpd = findings.find((f) => f.vuln_id === 'template.wordpress-full-path-disclosure')
  assert.match(JSON.stringify(fpd), /\/var\/www\/html\//, 'the extracted path is in the evidence')
  // The Forminator template ran and found nothing: its test passed.
  assert.equal(tests.find((t) => t.name.startsWith('Template CVE-2023-4596:'))?.result, 'passed')
})

test('tool_params.templates chooses for 270 as for 170: ids, severities, exclude_ids; a bad filter is a 400', async () => {
  const one = await scan(weak, { ids: ['wordpress-db-repair-open'] })
  assert.deepEqual(templateTests(one.tests), ['wordpress-db-repair-open'])
  assert.deepEqual(templateFindings(one.findings), ['template.wordpress-db-repair-open'])
  const critical = await scan(weak, { severities: ['critical'], exclude_ids: ['CVE-2023-4596'] })
  assert.deepEqual(templateTests(critical.tests), ['CVE-2023-32243'], 'the wordpress tag stays when only severities are given')
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 270, target_name: weak.url, tool_params: { templates: { ids: 'x' } } },
  })
  assert.equal(r.statusCode, 400)
  assert.match(r.json().message, /tool_params\.templates/)
  const tool = (await w.req('GET', '/api/v2/tools')).json().data.find((x: any) => x.id === 270)
  assert.deepEqual(Object.keys(tool.tool_params.properties.templates.properties).sort(), [
    'exclude_ids',
    'exclude_tags',
    'ids',
    'severities',
    'tags',
    'variables',
  ])
})

test('an imported template tagged wordpress adds its finding with no code change; one not tagged wordpress does not run', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-wp-tpl-'))
  const tpl = (id: string, tags: string) =>
    `id: ${id}\ninfo:\n  name: Team check ${id}\n  author: team\n  severity: high\n  tags: ${tags}\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}/feed/"\n    matchers-condition: and\n    matchers:\n      - type: status\n        status: [ 200 ]\n      - type: word\n        words:\n          - "wordpress.org/?v=4.0.1"\n`
  fs.writeFileSync(path.join(dir, 'zz-wp-feed-version.yaml'), tpl('zz-wp-feed-version', 'wordpress,team'))
  fs.writeFileSync(path.join(dir, 'zz-feed-other.yaml'), tpl('zz-feed-other', 'team'))
  fs.writeFileSync(path.join(dir, 'zz-wp-intrusive.yaml'), tpl('zz-wp-intrusive', 'wordpress,intrusive'))
  try {
    const report = await importTemplates(w.h.db, [dir])
    assert.equal(report.loaded, 3, JSON.stringify(report.skipped))
    const { findings, tests } = await scan(weak)
    assert.deepEqual(templateFindings(findings), [...WP_TRUTH.templateFindings, 'template.zz-wp-feed-version'].sort())
    assert.ok(!templateTests(tests).includes('zz-feed-other'), 'not tagged wordpress')
    assert.ok(!templateTests(tests).includes('zz-wp-intrusive'), 'tagged intrusive: only when named')
    const named = await scan(weak, { ids: ['zz-wp-intrusive'] })
    assert.deepEqual(templateFindings(named.findings), ['template.zz-wp-intrusive'])
    assert.equal(findings.find((f) => f.vuln_id === 'template.zz-wp-feed-version').risk_level, 3)
    // The hardened twin: every template ran (the imported one too) and none matched.
    // A filter without ids or tags keeps the wordpress default (and the risky tags out).
    const h = await scan(hardened, { exclude_ids: ['none'] })
    assert.equal(h.s.status_name, 'finished', h.s.status_message)
    assert.deepEqual(templateTests(h.tests), [...SHIPPED_WP, 'zz-wp-feed-version'].sort())
    assert.deepEqual(templateFindings(h.findings), [])
    assert.deepEqual(
      h.tests.filter((t) => t.name.startsWith('Template ') && t.result !== 'passed').map((t) => t.name),
      [],
      'every template ran to a clean result',
    )
    assert.deepEqual(
      h.findings.filter((f) => f.risk_level > 0).map((f) => f.vuln_id),
      [],
    )
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
