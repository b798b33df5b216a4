// Website Recon (tool 310) through the API against sites built like real products: each site's
// technologies are named with their versions, outdated ones become version findings, a user's
// fingerprint entry (a favicon hash) is used, and the hardened twin gives nothing above info.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { FAVICON, HARDENED, SITES, startReconSite } from '../testbed/recon-sites.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w?.close())

async function scan(target_name: string, tool_params: Record<string, unknown> = {}) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 310, target_name, tool_params } })
  assert.equal(r.statusCode, 201, r.body)
  const s = await waitForScan(w, r.json().data.created_id, isTerminal, 60000)
  const output = (await w.req('GET', `/api/v2/scans/${s.id}/output`)).json().data.output_data
  return { s, output }
}

test('310 names every planted technology of each product-like site, with versions and categories', async () => {
  const sha = createHash('sha256').update(FAVICON).digest('hex')
  for (const [i, site] of SITES.entries()) {
    const bed = await startReconSite(`127.0.81.${10 + i}`, site)
    try {
      const { s, output } = await scan(bed.url, {
        fingerprints: { 'Bed Favicon': { cats: ['Miscellaneous'], favicon: [`sha256:${sha}`] } },
      })
      assert.equal(s.status_name, 'finished', s.status_message)
      const got = new Map<string, any>(output.technologies.map((t: any) => [t.name, t]))
      for (const [name, version] of site.truth) {
        assert.ok(got.has(name), `${site.name}: ${name} not found in ${[...got.keys()].join(', ')}`)
        if (version) assert.equal(got.get(name).version, version, `${site.name}: ${name} version`)
        assert.ok(
          got.get(name).categories.length > 0 && got.get(name).confidence > 0 && got.get(name).evidence,
          `${site.name}: ${name} categories, confidence, evidence`,
        )
      }
      assert.equal(
        got.has('Bed Favicon'),
        site.favicon !== undefined,
        `${site.name}: the favicon entry matches only where the favicon is served`,
      )
      assert.ok(output.findings.some((f: any) => f.vuln_id === 'recon.technologies' && f.risk_level === 0))
      if (site.name === 'wordpress') {
        const ids = output.findings.map((f: any) => f.vuln_id)
        assert.ok(ids.includes('eol.php'), 'PHP 7.2 is past end of life')
        assert.ok(
          output.findings.some((f: any) => f.vuln_id.startsWith('cve.') && /jQuery 1\.12\.4/.test(f.name)),
          'jQuery 1.12.4 CVEs',
        )
      }
    } finally {
      await bed.close()
    }
  }
})

test('310 against the hardened twin: no technology, nothing above info', async () => {
  const bed = await startReconSite('127.0.81.16', HARDENED)
  try {
    const { s, output } = await scan(bed.url)
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(output.technologies, [])
    assert.deepEqual(
      output.findings.filter((f: any) => f.risk_level > 0),
      [],
    )
  } finally {
    await bed.close()
  }
})

test('310 refuses user fingerprints that do not compile, naming the entry', async () => {
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 310, target_name: 'http://127.0.81.16/', tool_params: { fingerprints: { Broken: { scripts: ['(x'] } } } },
  })
  assert.equal(r.statusCode, 400)
  assert.match(r.json().message, /tool_params\.fingerprints Broken\.scripts\[0\]: /)
})
