// Bounded output (issue 25, faults 5 and 11): a check gone wild stores at most 200 findings per scan
// plus one finding saying how many more; PDFs of big scans are built a few at a time; bodies a tool
// reads stop at their bound however long the answer.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startEndlessSmtp, startFloodSite, type FloodSite } from '../testbed/flood-site.js'
import { ConfigError, loadConfig } from '../../src/config/config.js'
import { buildFinding } from '../../src/domain/findings.js'
import { encodeFinding } from '../../src/store/finding-rows.js'
import { diagnosticCheck } from '../../src/tools/diagnostic/checks.js'

// This file's own loopback address.
const HOST = '127.0.83.2'
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
async function scanOf(tool_id: number, target_name: string, tool_params: Record<string, unknown>): Promise<{ id: number; findings: any[] }> {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id, target_name, tool_params } })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id
  const s = await waitForScan(w, id, isTerminal, 90_000)
  assert.equal(s.status_name, 'finished', s.status_message)
  const findings = (await w.req('GET', `/api/v2/findings?task_id=${id}`)).json().data
  return { id, findings }
}

const fuzz = (tool_params: Record<string, unknown>) => scanOf(90, site.url, tool_params)

/** Waits up to 5 s for `ok` (the other side of a closed socket hears of it a moment later). */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (const stop = Date.now() + 5000; !ok(); await new Promise((r) => setTimeout(r, 20))) assert.ok(Date.now() < stop, what)
}

const words = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `a${from + i}`)

describe('findings per check are capped', { concurrency: false }, () => {
  test('WARD_MAX_FINDINGS_PER_CHECK: 200 by default, a whole number from 1', () => {
    assert.equal(loadConfig({}).findingsPerCheck, 200)
    assert.equal(loadConfig({ WARD_MAX_FINDINGS_PER_CHECK: '25' }).findingsPerCheck, 25)
    for (const bad of ['0', '-1', 'many', '2.5']) assert.throws(() => loadConfig({ WARD_MAX_FINDINGS_PER_CHECK: bad }), (e: Error) => e instanceof ConfigError && /^WARD_MAX_FINDINGS_PER_CHECK: must be/.test(e.message))
  })

  let first: { id: number; findings: any[] }

  test('a fuzzer scan of a site answering 200 for every .bak stores 200 findings of the check and one naming how many more', async () => {
    // One request at a time: the stored 200 are a0..a199, the rest are counted.
    first = await fuzz({ wordlist: words(0, 300), extensions: ['.bak'], concurrency: 1 })
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
    assert.ok(named.every((p: string) => /^\/a(2\d\d)\.bak$/.test(p) && !listed.has(p)), named.join(' '))
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
    const second = await fuzz({ wordlist: words(0, 300).reverse(), extensions: ['.bak'], concurrency: 1 })
    const backups = second.findings.filter((f) => f.vuln_id === BACKUP)
    assert.equal(backups.length, 201)
    const changes = (await w.req('GET', `/api/v2/scans/${second.id}/changes`)).json().data
    assert.equal(changes.against_scan_id, first.id)
    const still = changes.findings.still.filter((f: any) => f.vuln_id === BACKUP)
    assert.ok(still.some((f: any) => / and 100 more$/.test(f.name)), 'the summary is the same finding as before, not a new one')
    assert.deepEqual(changes.findings.gone.filter((f: any) => f.vuln_id === BACKUP), [], 'findings only counted by this scan are not gone')
    assert.deepEqual(changes.findings.new.filter((f: any) => f.vuln_id === BACKUP), [], 'findings only counted by the first scan are not new')
    // The life cycle agrees: a0.bak, listed by the first scan and only counted by the second, is still open.
    const again = (await w.req('GET', `/api/v2/findings?task_id=${first.id}`)).json().data
    const a0 = again.find((f: any) => f.vuln_id === BACKUP && f.vuln_evidence.data.rows[0][1] === `${site.url}a0.bak`)
    assert.ok(a0, 'a0.bak was listed by the first scan')
    assert.equal(a0.status, 'open')
    assert.equal(a0.lifecycle, 'open')
  })
})

describe('bodies a tool reads stop at their bound', { concurrency: false }, () => {
  test('a fuzzer scan of answers that never end keeps 128 KiB of each and hangs up', async () => {
    const { id } = await fuzz({ wordlist: Array.from({ length: 20 }, (_, i) => `endless${i}`), concurrency: 10 })
    const urls = (await w.req('GET', `/api/v2/scans/${id}/output`)).json().data.output_data.urls
    assert.equal(urls.length, 20)
    for (const u of urls) assert.equal(u.length, 128 * 1024, `${u.url} was read to the bound, no further`)
    await until(() => site.endlessOpen() === 0, 'every endless answer was hung up on')
    assert.equal(site.endlessSent.length, 20)
    // What got out before the hang-up: the bound plus what socket buffers took, not an endless stream.
    assert.ok(Math.max(...site.endlessSent) < 32 << 20, `sent ${site.endlessSent.join(', ')}`)
  })

  test('a network scan of an SMTP server whose answer never ends stops reading it at 1 MiB', async () => {
    const smtp = await startEndlessSmtp(HOST)
    try {
      const { id } = await scanOf(350, HOST, { ports: String(smtp.port) })
      const tests = (await w.req('GET', `/api/v2/scans/${id}/tests`)).json().data
      const relay = tests.find((t: any) => t.name.startsWith('SMTP open relay'))
      assert.ok(relay, tests.map((t: any) => t.name).join(' | '))
      assert.equal(relay.status, 'error')
      const raw: string[] = (await w.req('GET', `/api/v2/scans/${id}/raw`)).json().data
      assert.ok(raw.some((l) => /^SMTP open relay .*: the server sent more than 1 MiB without completing its answer/.test(l)), raw.join('\n'))
      await until(() => smtp.sent.length >= 1, 'the endless answer was hung up on')
      assert.ok(Math.max(...smtp.sent) < 32 << 20, `sent ${smtp.sent.join(', ')}`)
    } finally {
      await smtp.close()
    }
  })
})

describe('PDF reports are built a few at a time, off the event loop, streamed', { concurrency: false }, () => {
  const FINDINGS = 1200 // more than the report details (1000): the rest only in its overview
  let pw: TestWard
  let scanId: number
  let built: Buffer | null = null
  before(async () => {
    // One build at a time, one request waiting: a third is refused.
    pw = await startWard({ env: { WARD_PDF_BUILDS: '1', WARD_PDF_QUEUE: '1' } })
    const r = await pw.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.83.9', tool_params: { steps: 1, step_ms: 0 } } })
    scanId = r.json().data.created_id
    const s = await waitForScan(pw, scanId, isTerminal, 30_000)
    assert.equal(s.status_name, 'finished')
    // A scan that found a lot (what a raised WARD_MAX_FINDINGS_PER_CHECK, or an older Ward, lets in).
    const row = (await pw.h.db.selectFrom('scans').select(['target_id', 'workspace_id']).where('id', '=', scanId).executeTakeFirstOrThrow())
    const rows = Array.from({ length: FINDINGS }, (_, i) =>
      encodeFinding(buildFinding({ check: diagnosticCheck, location: `place-${i}`, detail: `Seen at place ${i}.` }, { scanId, targetId: row.target_id, workspaceId: row.workspace_id, testId: null, testDescription: 'seeded', now: new Date().toISOString() }, new Set())),
    )
    for (let i = 0; i < rows.length; i += 100) await pw.h.db.insertInto('findings').values(rows.slice(i, i + 100)).execute()
  })
  after(() => pw.close())

  const pdf = () => pw.req('GET', `/api/v2/scans/${scanId}/output`, { headers: { accept: 'application/pdf' } })
  const gauge = async (state: string) => Number(new RegExp(`^ward_pdf_builds\\{state="${state}"\\} (\\d+)$`, 'm').exec((await pw.req('GET', '/metrics', { key: null })).body)?.[1])

  test('of three requests at once, one is built, one waits for it, the third is refused with retry-after', async () => {
    const answers = [pdf(), pdf()]
    // The first build holds the one slot; the second request waits in the queue.
    for (const stop = Date.now() + 20_000; (await gauge('waiting')) !== 1; await new Promise((r) => setTimeout(r, 20))) assert.ok(Date.now() < stop, 'a second request waits')
    assert.equal(await gauge('running'), 1)
    const third = await pdf()
    assert.equal(third.statusCode, 503)
    assert.equal(third.headers['retry-after'], '30')
    assert.deepEqual(third.json(), { status: 503, message: 'Too many PDF reports are being built (1 at once, 1 waiting): try again in 30 seconds' })
    for (const a of await Promise.all(answers)) {
      assert.equal(a.statusCode, 200)
      assert.equal(a.headers['content-type'], 'application/pdf')
      const buf = a.rawPayload
      assert.equal(buf.subarray(0, 5).toString('latin1'), '%PDF-')
      assert.match(buf.subarray(-16).toString('latin1'), /%%EOF\s*$/)
      const pages = (buf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length
      assert.ok(pages > 100, `pages: ${pages}`)
    }
    built = (await answers[0]!).rawPayload
    // The slot goes back when the thread has ended, a moment after its last bytes.
    for (const stop = Date.now() + 10_000; (await gauge('running')) !== 0; await new Promise((r) => setTimeout(r, 20))) assert.ok(Date.now() < stop, 'the build slot is given back')
    assert.equal(await gauge('waiting'), 0)
  })

  test('a report of more findings than it details counts them all and says where the rest are', async (t) => {
    assert.ok(built, 'the report was built above')
    const text = pdfText(built)
    if (text === null) return t.skip('pdftotext (poppler-utils) is not installed: the PDF was checked above for structure only')
    assert.ok(text.includes(`${FINDINGS + 1} findings: ${FINDINGS + 1} low.`), 'the summary counts every finding')
    assert.ok(text.includes('The report details the first 1000 findings; the overview lists 201 more, and the JSON output holds them all.'))
    assert.match(text, /Page (\d+) of \1\b/)
  })
})

/** The PDF's text by pdftotext, whitespace collapsed; null without poppler-utils. */
function pdfText(buf: Buffer): string | null {
  const r = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: buf, maxBuffer: 64 << 20 })
  return r.error ? null : r.stdout.toString('utf8').replace(/\s+/g, ' ')
}
