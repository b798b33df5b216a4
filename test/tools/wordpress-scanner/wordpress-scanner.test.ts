// WordPress Scanner (270) through the API against the loopback WordPress beds: old core with its
// catalogue and imported CVEs, plugins found passively and by readme probing with their known
// vulnerabilities, users, XML-RPC, wp-cron, debug log, uploads listing, wp-config copy, a leftover
// installer and open registration; the hardened twin gives nothing above info.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { scanThroughApi } from '../../helpers/api-scan.js'
import { upsertCves } from '../../../src/store/cves.js'
import { startWordpressBed, WP_TRUTH, type WordpressBed } from '../../testbed/wordpress-site.js'

let w: TestWard
before(async () => {
  w = await startWard()
  // Imported NVD knowledge (as `ward admin cve import` writes it), with ids no real CVE has.
  const cve = (id: string, vendor: string, product: string, endExcluding: string) => ({
    id,
    description: `${id}: test record`,
    cvss3: { score: 6.1, vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N' },
    cvss4: null,
    cwe: ['CWE-79'],
    references: [],
    lastModified: null,
    products: [{ vendor, product, version: null, startIncluding: null, startExcluding: null, endIncluding: null, endExcluding }],
  })
  await upsertCves(w.h.db, [
    cve('CVE-2099-27001', 'wordpress', 'wordpress', '4.2.1'),
    cve('CVE-2099-27002', 'automattic', 'akismet', '4.1.1'),
  ])
})
after(() => w.close())

const scan = (target_name: string, tool_params: Record<string, unknown> = {}) => scanThroughApi(w, 270, target_name, tool_params)

describe('WordPress Scanner through the API', { concurrency: false }, () => {
  let bed: WordpressBed
  before(async () => {
    bed = await startWordpressBed('weak')
  })
  after(() => bed.close())

  test('the weak site: core version, plugins, themes and users in output_data.wordpress', async () => {
    const { s, output } = await scan(bed.url)
    assert.equal(s.status_name, 'finished', s.status_message)
    const wp = output.wordpress
    assert.equal(wp.version, WP_TRUTH.version)
    const plugins = Object.fromEntries(wp.plugins.map((p: any) => [p.slug, p]))
    for (const [slug, version] of Object.entries(WP_TRUTH.plugins)) assert.equal(plugins[slug]?.version, version, slug)
    assert.equal(plugins['contact-form-7'].latest_known, '6.1.3')
    assert.deepEqual(Object.keys(plugins['akismet']).sort(), ['latest_known', 'slug', 'version'])
    assert.deepEqual(
      wp.themes.map((t: any) => [t.slug, t.version]),
      Object.entries(WP_TRUTH.themes),
    )
    assert.deepEqual(
      wp.users.map((u: any) => u.login),
      WP_TRUTH.users,
    )
    assert.deepEqual(wp.users[0], { id: 1, login: 'admin', name: 'Site Admin' })
  })

  test('the weak site: every planted weakness is a finding, vulnerable plugins with their CVEs, imported CVEs included', async () => {
    const { findings } = await scan(bed.url)
    const ids = new Set(findings.map((f) => f.vuln_id))
    for (const id of WP_TRUTH.findings) assert.ok(ids.has(id), `missing ${id}`)
    const vulnerable = findings.filter((f) => f.vuln_id === 'wordpress.plugin.vulnerable')
    assert.deepEqual(vulnerable.flatMap((f) => f.cve).sort(), [...WP_TRUTH.vulnerableCves, 'CVE-2099-27002'].sort())
    assert.ok(
      vulnerable.filter((f) => WP_TRUTH.vulnerableCves.includes(f.cve[0])).every((f) => f.risk_level === 4),
      'both shipped plugin flaws are critical by CVSS',
    )
    // wp-file-manager is named by no page: only the readme probe (enumerate=popular) finds it.
    assert.ok(vulnerable.some((f) => f.cve.includes('CVE-2020-25213')))
    // Imported NVD data: the core's and a plugin's.
    assert.ok(
      findings.some((f) => f.cve?.includes('CVE-2099-27001') && f.vuln_id === 'cve.cve-2099-27001'),
      'imported core CVE',
    )
    assert.equal(vulnerable.find((f) => f.cve.includes('CVE-2099-27002'))?.risk_level, 2, 'imported plugin CVE, risk from its CVSS 6.1')
    // The wp-config copy's secrets are named, never shown.
    assert.ok(!JSON.stringify(findings).includes('bed-db-password'))
  })

  test('enumerate=none probes no readme of a plugin the pages do not name', async () => {
    const before = bed.requests.length
    const { output, findings } = await scan(bed.url, { enumerate: 'none' })
    assert.ok(!output.wordpress.plugins.some((p: any) => p.slug === 'wp-file-manager'))
    assert.ok(!findings.some((f) => f.cve?.includes('CVE-2020-25213')))
    assert.ok(!bed.requests.slice(before).some((r) => r.path.includes('/wp-file-manager/')))
    assert.ok(
      output.wordpress.plugins.some((p: any) => p.slug === 'contact-form-7' && p.version === '5.1.1'),
      'the readme of a plugin the page names is still read',
    )
  })
})

test('the hardened twin: WordPress without versions, users or exposures gives nothing above info', async () => {
  const bed = await startWordpressBed('hardened')
  try {
    const { s, output, findings } = await scan(bed.url, { enumerate: 'all' })
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.equal(output.wordpress.version, null)
    assert.deepEqual(output.wordpress.users, [])
    assert.deepEqual(
      findings.filter((f) => f.risk_level > 0).map((f) => f.vuln_id),
      [],
    )
  } finally {
    await bed.close()
  }
})

test('tool 270 is listed with its parameters; a bad enumerate is a 400 naming it', async () => {
  const t = (await w.req('GET', '/api/v2/tools')).json().data.find((x: any) => x.id === 270)
  assert.equal(t.name, 'WordPress Scanner')
  assert.deepEqual(
    t.tool_params.properties.enumerate.anyOf.map((a: any) => a.const),
    ['none', 'popular', 'all'],
  )
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 270, target_name: 'http://127.0.71.10/', tool_params: { enumerate: 'everything' } },
  })
  assert.equal(r.statusCode, 400)
  assert.match(r.json().message, /tool_params\.enumerate/)
})
