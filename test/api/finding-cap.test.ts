// Bounded output (issue 25, fault 5): a check gone wild stores at most 200 findings per scan plus one
// finding saying how many more (PDFs and bounded reads: bounded-output.test.ts).
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startFloodSite, type FloodSite } from '../testbed/flood-site.js'
import { ConfigError, loadConfig } from '../../src/config/config.js'

// This file's own loopback address.
const HOST = '127.0.83.4'
const BACKUP = 'fuzzer.exposure.backup'

let w: TestWard
let site: FloodSite
before(async () => {
  w = await startWard()
  site = await startFloodSite(HOST)
})
after(async () => {
  await site.close()
  await w.close()
})

/** Runs a scan to its end (it must finish); its id and findings. */
async function scanOf(
  tool_id: number,
  target_name: string,
  tool_params: Record<string, unknown>,
): Promise<{ id: number; findings: any[] }> {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id, target_name, tool_params } })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id
  const s = await waitForScan(w, id, isTerminal, 90_000)
  assert.equal(s.status_name, 'finished', s.status_message)
  const findings = (await w.req('GET', `/api/v2/findings?task_id=${id}`)).json().data
  return { id, findings }
}

const fuzz = (tool_params: Record<string, unknown>) => scanOf(90, site.url, tool_params)

const words = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `a${from + i}`)

describe('findings per check are capped', { concurrency: false }, () => {
  test('WARD_MAX_FINDINGS_PER_CHECK: 200 by default, a whole number from 1', () => {
    assert.equal(loadConfig({}).findingsPerCheck, 200)
    assert.equal(loadConfig({ WARD_MAX_FINDINGS_PER_CHECK: '25' }).findingsPerCheck, 25)
    for (const bad of ['0', '-1', 'many', '2.5'])
      assert.throws(
        () => loadConfig({ WARD_MAX_FINDINGS_PER_CHECK: bad }),
        (e: Error) => e instanceof ConfigError && /^WARD_MAX_FINDINGS_PER_CHECK: must be/.test(e.message),
      )
  })

  let first: { id: number; findings: any[] }

  test('a fuzzer scan of a site answering 200 for every .bak stores 200 findings of the check and one naming how many more', async () => {
    // One request at a time: the stored 200 are a0..a199, the rest are counted.
    first = await fuzz({ wordlist: words(0, 300), extensions: ['.bak'], concurrency: 1, rate_limit: 10000 })
    const backups = first.findings.filter((f) => f.vuln_id === BACKUP)
    assert.equal(backups.length, 201, `findings of ${BACKUP}`)
    const summaries = backups.filter((f) => / and \d+ more$/.test(f.name))
    assert.equal(summaries.length, 1, 'one summarising finding')
    const summary = summaries[0]
    assert.match(summary.name, /: and 100 more$/)
    assert.match(summary.vuln_description, /This scan found 300 findings of this check: 200 are listed one by one, and 100 more at /)
    // It names places that are not among the listed ones.
    const listed = new Set(backups.filter((f) => f !== summary).map((f) => new URL(f.vuln_evidence.data.rows[0][1]).pathname))
    assert.equal(listed.size, 200)
    const named = summary.vuln_evidence.data.rows.map((r: string[]) => new URL(r[0]).pathname)
    assert.equal(named.length, 50)
    assert.ok(
      named.every((p: string) => /^\/a(2\d\d)\.bak$/.test(p) && !listed.has(p)),
      named.join(' '),
    )
    assert.ok(summary.vuln_description.includes(`${site.url}a200.bak`), summary.vuln_description)
    // A real finding of the check: same catalogue entry, counted in the scan's summary.
    assert.equal(summary.recommendation, backups[0].recommendation)
    const scan = (await w.req('GET', `/api/v2/scans/${first.id}`)).json().data
    const total = ['critical', 'high', 'medium', 'low', 'info'].reduce((n, k) => n + scan.result_summary[k], 0)
    assert.equal(total, first.findings.length)
  })

  test('a rescan finding them in another order keeps the summary in its group and calls nothing gone', async () => {
    assert.ok(first, 'the first scan ran')
    // Reversed: this scan lists a299..a100 and only counts a99..a0, which the first scan listed.
    const second = await fuzz({ wordlist: words(0, 300).reverse(), extensions: ['.bak'], concurrency: 1, rate_limit: 10000 })
    const backups = second.findings.filter((f) => f.vuln_id === BACKUP)
    assert.equal(backups.length, 201)
    const changes = (await w.req('GET', `/api/v2/scans/${second.id}/changes`)).json().data
    assert.equal(changes.against_scan_id, first.id)
    const still = changes.findings.still.filter((f: any) => f.vuln_id === BACKUP)
    assert.ok(
      still.some((f: any) => / and 100 more$/.test(f.name)),
      'the summary is the same finding as before, not a new one',
    )
    assert.deepEqual(
      changes.findings.gone.filter((f: any) => f.vuln_id === BACKUP),
      [],
      'findings only counted by this scan are not gone',
    )
    assert.deepEqual(
      changes.findings.new.filter((f: any) => f.vuln_id === BACKUP),
      [],
      'findings only counted by the first scan are not new',
    )
    // The life cycle agrees: a0.bak, listed by the first scan and only counted by the second, is still open.
    const again = (await w.req('GET', `/api/v2/findings?task_id=${first.id}`)).json().data
    const a0 = again.find((f: any) => f.vuln_id === BACKUP && f.vuln_evidence.data.rows[0][1] === `${site.url}a0.bak`)
    assert.ok(a0, 'a0.bak was listed by the first scan')
    assert.equal(a0.status, 'open')
    assert.equal(a0.lifecycle, 'open')
  })
})
