// SharePoint Scanner (260) through the API against the loopback SharePoint 2016 bed and its hardened
// twin: build, product and update, known vulnerabilities by build, end of life, anonymous _vti_bin,
// _api users and lists, _layouts pages; nothing above info from the hardened farm.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { scanThroughApi } from '../../helpers/api-scan.js'
import { startSharepointBed, SHAREPOINT_TRUTH } from '../../testbed/sharepoint-site.js'
import { startDrupalBed } from '../../testbed/drupal-site.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w.close())

test('SharePoint 2016 RTM with anonymous access: build, product, vulnerabilities by build, users, lists and open endpoints', async () => {
  const bed = await startSharepointBed('sp2016')
  const truth = SHAREPOINT_TRUTH.sp2016
  try {
    const { s, output, findings } = await scanThroughApi(w, 260, bed.url)
    assert.equal(s.status_name, 'finished', s.status_message)
    const sp = output.sharepoint
    assert.deepEqual(
      { version: sp.version, build: sp.build, product: sp.product, update: sp.update },
      { version: truth.version, build: truth.build, product: truth.product, update: truth.update },
    )
    assert.deepEqual([...sp.anonymous_endpoints].sort(), [...truth.anonymous_endpoints].sort())
    assert.deepEqual(sp.users, truth.users)
    assert.deepEqual(sp.lists, truth.lists)
    assert.deepEqual([...new Set(findings.map((f) => f.vuln_id))].sort(), [...truth.findings].sort())
    const rce = findings.find((f) => f.vuln_id === 'cve.sharepoint-lookup-deserialization')
    assert.deepEqual(rce.cve, ['CVE-2019-0604'])
    assert.equal(rce.risk_level, 4)
    assert.match(JSON.stringify(rce), /not exploited/)
    assert.ok(!findings.some((f) => f.vuln_id === 'cve.sharepoint-jwt-spoofing'), 'CVE-2023-29357 is SharePoint 2019 only')
    const users = findings.find((f) => f.vuln_id === 'sharepoint.api.users-anonymous')
    assert.match(JSON.stringify(users.evidence ?? users), /spadmin@contoso\.test/)
  } finally {
    await bed.close()
  }
})

test('the hardened SharePoint: its build is read from the header, nothing above info', async () => {
  const bed = await startSharepointBed('hardened')
  try {
    const { s, output, findings } = await scanThroughApi(w, 260, bed.url)
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(
      { build: output.sharepoint.build, product: output.sharepoint.product, endpoints: output.sharepoint.anonymous_endpoints },
      { build: '16.0.18526', product: 'SharePoint Server Subscription Edition', endpoints: [] },
    )
    assert.deepEqual(
      findings.map((f) => [f.vuln_id, f.risk_level]),
      [['sharepoint.version-disclosed', 0]],
    )
  } finally {
    await bed.close()
  }
})

test('tool 260 is listed; a site that is not SharePoint is told apart and nothing more is tried', async () => {
  const t = (await w.req('GET', '/api/v2/tools')).json().data.find((x: any) => x.id === 260)
  assert.equal(t.name, 'SharePoint Scanner')
  const bed = await startDrupalBed('d8')
  try {
    const { findings, tests, output } = await scanThroughApi(w, 260, bed.url)
    assert.deepEqual(findings, [])
    assert.deepEqual(
      tests.map((t) => [t.name, t.status]),
      [['SharePoint detection', 'finished']],
    )
    assert.equal(output.sharepoint.build, null)
  } finally {
    await bed.close()
  }
})
