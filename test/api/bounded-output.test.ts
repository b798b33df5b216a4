// Bounded output (issue 25, faults 5 and 11): PDFs of big scans are built a few at a time, off the
// event loop; bodies a tool reads stop at their bound however long the answer (the findings cap:
// finding-cap.test.ts).
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startEndlessSmtp, startFloodSite, type FloodSite } from '../testbed/flood-site.js'
import { buildFinding } from '../../src/domain/findings.js'
import { encodeFinding } from '../../src/store/finding-rows.js'
import { diagnosticCheck } from '../../src/tools/diagnostic/checks.js'

// This file's own loopback address.
const HOST = '127.0.83.2'

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

/** Waits up to 5 s for `ok` (the other side of a closed socket hears of it a moment later). */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (const stop = Date.now() + 5000; !ok(); await new Promise((r) => setTimeout(r, 20))) assert.ok(Date.now() < stop, what)
}

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
      assert.ok(
        raw.some((l) => /^SMTP open relay .*: the server sent more than 1 MiB without completing its answer/.test(l)),
        raw.join('\n'),
      )
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
    const r = await pw.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_name: '127.0.83.9', tool_params: { steps: 1, step_ms: 0 } },
    })
    scanId = r.json().data.created_id
    const s = await waitForScan(pw, scanId, isTerminal, 30_000)
    assert.equal(s.status_name, 'finished')
    // A scan that found a lot (what a raised WARD_MAX_FINDINGS_PER_CHECK, or an older Ward, lets in).
    const row = await pw.h.db.selectFrom('scans').select(['target_id', 'workspace_id']).where('id', '=', scanId).executeTakeFirstOrThrow()
    const rows = Array.from({ length: FINDINGS }, (_, i) =>
      encodeFinding(
        buildFinding(
          { check: diagnosticCheck, location: `place-${i}`, detail: `Seen at place ${i}.` },
          {
            scanId,
            targetId: row.target_id,
            workspaceId: row.workspace_id,
            testId: null,
            testDescription: 'seeded',
            now: new Date().toISOString(),
          },
          new Set(),
        ),
      ),
    )
    for (let i = 0; i < rows.length; i += 100)
      await pw.h.db
        .insertInto('findings')
        .values(rows.slice(i, i + 100))
        .execute()
  })
  after(() => pw.close())

  const pdf = () => pw.req('GET', `/api/v2/scans/${scanId}/output`, { headers: { accept: 'application/pdf' } })
  const gauge = async (state: string) =>
    Number(
      new RegExp(`^ward_pdf_builds\\{state="${state}"\\} (\\d+)$`, 'm').exec((await pw.req('GET', '/metrics', { key: null })).body)?.[1],
    )

  test('of three requests at once, one is built, one waits for it, the third is refused with retry-after', async () => {
    const answers = [pdf(), pdf()]
    // The first build holds the one slot; the second request waits in the queue.
    for (const stop = Date.now() + 20_000; (await gauge('waiting')) !== 1; await new Promise((r) => setTimeout(r, 20)))
      assert.ok(Date.now() < stop, 'a second request waits')
    assert.equal(await gauge('running'), 1)
    const third = await pdf()
    assert.equal(third.statusCode, 503)
    assert.equal(third.headers['retry-after'], '30')
    assert.deepEqual(third.json(), {
      status: 503,
      message: 'Too many PDF reports are being built (1 at once, 1 waiting): try again in 30 seconds',
    })
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
    for (const stop = Date.now() + 10_000; (await gauge('running')) !== 0; await new Promise((r) => setTimeout(r, 20)))
      assert.ok(Date.now() < stop, 'the build slot is given back')
    assert.equal(await gauge('waiting'), 0)
  })

  test('a report of more findings than it details counts them all and says where the rest are', async (t) => {
    assert.ok(built, 'the report was built above')
    const text = pdfText(built)
    if (text === null) {
      const why = 'pdftotext (poppler-utils) is not installed: the PDF was checked above for structure only'
      console.log(`skipped: ${why}`)
      return t.skip(why)
    }
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
