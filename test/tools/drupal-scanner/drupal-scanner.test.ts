// Drupal Scanner (280) through the API against the loopback Drupal 7 and 8 beds and their hardened
// twin: version, Drupalgeddon 2 and 3 by version, end of life, modules and themes, user pages,
// update.php; nothing above info from the hardened site.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { scanThroughApi } from '../../helpers/api-scan.js'
import { startDrupalBed, DRUPAL_TRUTH } from '../../testbed/drupal-site.js'
import { startWordpressBed } from '../../testbed/wordpress-site.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w.close())

for (const kind of ['d7', 'd8'] as const) {
  test(`Drupal ${kind === 'd7' ? 7 : 8}: version, known vulnerabilities by version, modules, themes and users`, async () => {
    const bed = await startDrupalBed(kind)
    const truth = DRUPAL_TRUTH[kind]
    try {
      const { s, output, findings } = await scanThroughApi(w, 280, bed.url)
      assert.equal(s.status_name, 'finished', s.status_message)
      const d = output.drupal
      assert.equal(d.version, truth.version)
      assert.equal(d.major, truth.major)
      assert.deepEqual(Object.fromEntries(d.modules.map((m: any) => [m.slug, m.version])), truth.modules)
      assert.deepEqual(
        d.themes.map((t: any) => t.slug),
        truth.themes,
      )
      assert.deepEqual(
        d.users.map((u: any) => u.name),
        truth.users,
      )
      assert.deepEqual([...new Set(findings.map((f) => f.vuln_id))].sort(), [...truth.findings].sort())
      const geddon2 = findings.find((f) => f.vuln_id === 'cve.drupal-drupalgeddon2')
      assert.deepEqual(geddon2.cve, ['CVE-2018-7600'])
      assert.equal(geddon2.risk_level, 4)
      assert.match(geddon2.vuln_description + geddon2.name + JSON.stringify(geddon2), /not exploited/)
    } finally {
      await bed.close()
    }
  })
}

test('the hardened Drupal: only its major version is read, nothing above info', async () => {
  const bed = await startDrupalBed('hardened')
  try {
    const { s, output, findings } = await scanThroughApi(w, 280, bed.url, { enumerate: 'all' })
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(
      { version: output.drupal.version, major: output.drupal.major, users: output.drupal.users },
      { version: null, major: '10', users: [] },
    )
    assert.deepEqual(
      findings.filter((f) => f.risk_level > 0).map((f) => f.vuln_id),
      [],
    )
  } finally {
    await bed.close()
  }
})

test('tool 280 is listed; a site that is not Drupal is told apart and nothing more is tried', async () => {
  const t = (await w.req('GET', '/api/v2/tools')).json().data.find((x: any) => x.id === 280)
  assert.equal(t.name, 'Drupal Scanner')
  const bed = await startWordpressBed('weak')
  try {
    const { findings, tests, output } = await scanThroughApi(w, 280, bed.url)
    assert.deepEqual(findings, [])
    assert.deepEqual(
      tests.map((t) => [t.name, t.status]),
      [['Drupal detection', 'finished']],
    )
    assert.deepEqual(output.drupal.modules, [])
  } finally {
    await bed.close()
  }
})
