// Results you can trust (issue 25, decisions.md "Scan states" and "Life cycle"): a finding is
// closed only by a complete scan that looked where it was, a scan that tested nothing never ends
// `finished`, a finished scan says which tests could not run, and scans that sent nothing end
// `failed to start`. Real scans against loopback listeners this file opens (127.0.27.x).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import http from 'node:http'
import { spawnSync, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { startWard, waitForScan, isTerminal, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn } from '../helpers/web.js'

const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined
if (!hasPdftotext) console.log('pdftotext (poppler-utils) is not installed: the PDF caveat is checked by structure only')
async function pdfText(scanId: number): Promise<string> {
  const pdf = await w.req('GET', `/api/v2/scans/${scanId}/output`, { headers: { accept: 'application/pdf' } })
  assert.equal(pdf.statusCode, 200)
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-')
  if (!hasPdftotext) return ''
  const file = path.join(w.dir, `scan-${scanId}.pdf`)
  fs.writeFileSync(file, pdf.rawPayload)
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString('utf8').replace(/\s+/g, ' ')
}

let w: TestWard
before(async () => {
  w = await startWard({ env: { WARD_TARGET_BLOCKLIST: '127.0.27.99' } })
})
after(() => w.close())

const HOST = '127.0.27.20'
const servers: net.Server[] = []
after(() => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))))

function listen(host: string, port: number, onConn: (c: net.Socket) => void): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer((c) => {
      c.on('error', () => {})
      onConn(c)
    })
    s.once('error', reject)
    s.listen(port, host, () => {
      servers.push(s)
      resolve(s)
    })
  })
}
const sshBanner = (c: net.Socket) => {
  c.end('SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.10\r\n')
  c.setTimeout(2000, () => c.destroy())
}
const close = (s: net.Server) => new Promise<void>((r) => s.close(() => r()))
const portOf = (s: net.Server) => (s.address() as net.AddressInfo).port

async function startScan(body: Record<string, unknown>): Promise<number> {
  const r = await w.req('POST', '/api/v2/scans', { body })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id
}
const ended = (id: number, ms = 60000) => waitForScan(w, id, isTerminal, ms)
const findingsOf = async (scanId: number) => (await w.req('GET', `/api/v2/findings?task_id=${scanId}`)).json().data as any[]
const changes = async (scanId: number) => (await w.req('GET', `/api/v2/scans/${scanId}/changes`)).json().data

describe(`honest results (${TEST_BACKEND})`, () => {
  test('a finding on a port the next scan did not probe stays open, listed "not covered"; a scan that probed it closed fixes it', async () => {
    const a = await listen(HOST, 0, sshBanner)
    const b = await listen(HOST, 0, sshBanner)
    const [pa, pb] = [portOf(a), portOf(b)]
    const scan = async (ports: string) => {
      const id = await startScan({ tool_id: 70, target_name: HOST, tool_params: { ports } })
      const s = await ended(id)
      assert.equal(s.status_name, 'finished', JSON.stringify(s))
      return id
    }
    const s1 = await scan(`${pa},${pb}`)
    const onA = (await findingsOf(s1)).filter((f) => f.port === pa)
    assert.ok(onA.length >= 1, 'findings on both ports')
    // The case: the same host scanned again on the other port only.
    const s2 = await scan(`${pb}`)
    for (const f of onA) {
      const now = (await w.req('GET', `/api/v2/findings/${f.id}`)).json().data
      assert.equal(now.status, 'open', `${f.name} on ${pa} was not looked at by scan ${s2}`)
      const hist = JSON.stringify((await w.req('GET', `/api/v2/findings/${f.id}/history`)).json().data)
      assert.ok(!hist.includes(`complete scan ${s2}`), hist)
    }
    const c2 = await changes(s2)
    assert.deepEqual(c2.findings.gone, [])
    assert.deepEqual([...new Set(c2.findings.not_covered.map((f: any) => f.port))], [pa])
    assert.deepEqual(c2.surface.ports.closed, [], 'a port not probed is not "closed"')
    // A scan that probed the port and found it closed: now it is fixed.
    await close(a)
    const s3 = await scan(`${pa},${pb}`)
    for (const f of onA) assert.equal((await w.req('GET', `/api/v2/findings/${f.id}`)).json().data.status, 'fixed')
    const c3 = await changes(s3)
    assert.equal(c3.against_scan_id, s2)
    assert.deepEqual(
      c3.surface.ports.closed.map((p: any) => p.port),
      [],
      'scan 2 had no port A to close',
    )
    const c3a = (await w.req('GET', `/api/v2/scans/${s3}/changes?against=${s1}`)).json().data
    assert.ok(c3a.findings.gone.some((f: any) => f.port === pa))
    assert.deepEqual(
      c3a.surface.ports.closed.map((p: any) => p.port),
      [pa],
    )
  })

  test('a shorter complete scan leaves what it did not test open; a test that ran and found nothing fixes', async () => {
    const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'coverage.example' } })).json().data.created_id
    const s1 = await startScan({ tool_id: 9001, target_id: target, tool_params: { steps: 5, step_ms: 1 } })
    await ended(s1)
    const step5 = (await changes(s1)).findings.new.find((f: any) => f.location === 'step-5')
    const s2 = await startScan({ tool_id: 9001, target_id: target, tool_params: { steps: 3, step_ms: 1 } })
    assert.equal((await ended(s2)).status_name, 'finished')
    assert.equal((await w.req('GET', `/api/v2/findings/${step5.id}`)).json().data.status, 'open')
    assert.deepEqual(
      (await changes(s2)).findings.not_covered.map((f: any) => f.location),
      ['step-5'],
    )
    // Step 5 errored: it could not run, so it is not fixed either (and the scan says so).
    const s3 = await startScan({ tool_id: 9001, target_id: target, tool_params: { steps: 5, step_ms: 1, error_steps: [5] } })
    const e3 = await ended(s3)
    assert.equal(e3.status_name, 'finished')
    assert.match(e3.status_message, /^1 of 5 tests could not run: step 5 \(error: step 5 could not run \(diagnostic\)\)$/)
    assert.equal((await w.req('GET', `/api/v2/findings/${step5.id}`)).json().data.status, 'open')
    await setPassword(w, w.userId)
    const page = await (await signIn(w)).get(`/scans/${s3}`)
    assert.match(page.body, /data-testid="caveat">1 of 5 tests could not run/)
    if (hasPdftotext) assert.match(await pdfText(s3), /1 of 5 tests could not run/)
    // Step 5 ran and found nothing: fixed by that scan.
    const s4 = await startScan({ tool_id: 9001, target_id: target, tool_params: { steps: 5, step_ms: 1, quiet_steps: [5] } })
    assert.equal((await ended(s4)).status_message, '')
    const lc = (await w.req('GET', `/api/v2/findings/${step5.id}/lifecycle`)).json().data
    assert.equal(lc.state, 'fixed')
    assert.equal(lc.fixed_scan_id, s4)
    const c4 = await changes(s4)
    assert.equal(c4.against_scan_id, s3, 'a finished scan with a test that could not run is a baseline for what it covered')
    assert.deepEqual(
      c4.findings.gone.map((f: any) => f.location),
      [],
      'step 5 was not covered by scan 3: not "gone" against it',
    )
    assert.deepEqual(c4.findings.new, [], 'nothing is new: scan 3 saw step-1 and step-3')
  })

  test('a scan none of whose tests ran to a result ends `connection error`, naming what failed; it is never a baseline', async () => {
    const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'nothing-ran.example' } })).json().data.created_id
    const good = await startScan({ tool_id: 9001, target_id: target, tool_params: { steps: 2, step_ms: 1 } })
    await ended(good)
    const id = await startScan({ tool_id: 9001, target_id: target, tool_params: { steps: 2, step_ms: 1, error_steps: [1, 2] } })
    const s = await ended(id)
    assert.equal(s.status_name, 'connection error')
    assert.match(
      s.status_message,
      /^No test ran to a result \(all 2 tests errored or were skipped\): step 1 \(error: step 1 could not run \(diagnostic\)\); step 2 /,
    )
    const text = await pdfText(id)
    if (hasPdftotext) {
      assert.ok(!text.includes('The scan recorded no findings. The scan') || text.includes('No test ran to a result'), text.slice(0, 2000))
      assert.match(text, /No test ran to a result: the scan ended “connection error”, so having no findings says nothing about the target/)
    }
    const next = await startScan({ tool_id: 9001, target_id: target, tool_params: { steps: 2, step_ms: 1 } })
    await ended(next)
    const c = await changes(next)
    assert.equal(c.against_scan_id, good, 'the scan that tested nothing is passed over')
    assert.deepEqual(c.findings.new, [])
  })

  test('TLS: a server that accepts TCP but never answers a ClientHello → connection error, not "no findings"', {
    timeout: 180000,
  }, async () => {
    const silent = await listen('127.0.27.30', 0, (c) => c.setTimeout(120000, () => c.destroy()))
    const id = await startScan({ tool_id: 450, target_name: `127.0.27.30`, tool_params: { port: portOf(silent) } })
    const s = await ended(id, 170000)
    assert.equal(s.status_name, 'connection error', JSON.stringify(s))
    assert.match(s.status_message, /SSL\/TLS protocol versions \(error: No SSL\/TLS handshake succeeded/)
    const pdf = await w.req('GET', `/api/v2/scans/${id}/output`, { headers: { accept: 'application/pdf' } })
    assert.equal(pdf.statusCode, 200)
  })

  test('website scan of a server that accepts TCP but never answers HTTP → connection error naming what failed', {
    timeout: 120000,
  }, async () => {
    const mute = await listen('127.0.27.31', 0, (c) => c.destroy())
    const id = await startScan({ tool_id: 170, target_name: `http://127.0.27.31:${portOf(mute)}/`, max_scan_time: 2 })
    const s = await ended(id, 110000)
    assert.equal(s.status_name, 'connection error', JSON.stringify(s))
    assert.match(s.status_message, /127\.0\.27\.31/)
  })

  test('a URL fuzzer scan whose login URL is outside the allowed scope ends `failed to start`: nothing was sent', async () => {
    let hits = 0
    const site = http.createServer((_req, res) => {
      hits++
      res.end('ok')
    })
    await new Promise<void>((r) => site.listen(0, '127.0.27.40', r))
    try {
      const port = (site.address() as net.AddressInfo).port
      const id = await startScan({
        tool_id: 90,
        target_name: `http://127.0.27.40:${port}/`,
        tool_params: { authentication: { type: 'form', login_url: `http://127.0.27.99:${port}/login`, username: 'u', password: 'p' } },
      })
      const s = await ended(id)
      assert.equal(s.status_name, 'failed to start', JSON.stringify(s))
      assert.match(s.status_message, /blocked: outside the allowed scope/)
      assert.equal(hits, 0, 'the scan sent nothing to the target')
    } finally {
      await new Promise<void>((r) => site.close(() => r()))
    }
  })
})
