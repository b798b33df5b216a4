// Report callbacks end to end: outbox written with the terminal state, sender retries/backoff,
// timeouts, give-up on 410, restarts, signatures, PDF bodies, and one delivery with two workers.
// Receivers listen on 127.0.8.x (this suite's loopback addresses).
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { pino } from 'pino'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import { verifySignature } from '../../src/reports/callback-signing.js'
import { reapExpiredLeases } from '../../src/store/scans.js'

interface Received {
  headers: http.IncomingHttpHeaders
  body: Buffer
  at: number
}

interface Receiver {
  url: string
  got: Received[]
  close(): Promise<void>
}

/** A loopback receiver; `answer(n, req)` decides the reply to the n-th request (0-based). */
async function receiver(
  host: string,
  answer: (n: number, r: Received, res: http.ServerResponse) => void | Promise<void>,
): Promise<Receiver> {
  const got: Received[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks), at: Date.now() }
      const n = got.push(r) - 1
      void answer(n, r, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host}:${port}/hook`,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const reply = (res: http.ServerResponse, status: number, headers: Record<string, string> = {}) => {
  res.writeHead(status, headers)
  res.end()
}

async function scanWithCallback(
  w: TestWard,
  callback: Record<string, unknown>,
  params: Record<string, unknown> = { steps: 2, step_ms: 5 },
) {
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: params, report_callback: callback },
  })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id as number
}

async function deliveries(w: TestWard, scanId: number) {
  const r = await w.req('GET', `/api/v2/scans/${scanId}/callbacks`)
  assert.equal(r.statusCode, 200, r.body)
  return r.json().data as any[]
}

async function waitDelivery(w: TestWard, scanId: number, pred: (d: any) => boolean, ms = 15000) {
  const until = Date.now() + ms
  let last: any[] = []
  while (Date.now() < until) {
    last = await deliveries(w, scanId)
    if (last.length && pred(last[0])) return last[0]
    await new Promise((r) => setTimeout(r, 30))
  }
  throw new Error(`delivery of scan ${scanId} did not reach the expected state; last: ${JSON.stringify(last)}`)
}

const FAST = { WARD_CALLBACK_BACKOFF_BASE_MS: '20' }

describe('report callbacks', () => {
  test('a receiver failing twice (503, then 429 retry-after 1) gets the signed report on the third attempt', async () => {
    const rx = await receiver('127.0.8.1', (n, _r, res) =>
      n === 0 ? reply(res, 503) : n === 1 ? reply(res, 429, { 'retry-after': '1' }) : reply(res, 200),
    )
    const w = await startWard({ env: FAST })
    try {
      const secret = 'hook-secret-ünïcode'
      const id = await scanWithCallback(w, { url: rx.url, format: 'json', secret })
      await waitForScan(w, id, isTerminal)
      const d = await waitDelivery(w, id, (d) => d.status === 'delivered')
      assert.equal(d.attempt_count, 3)
      assert.deepEqual(
        d.attempts.map((a: any) => a.status_code),
        [503, 429, 200],
      )
      assert.equal(d.signed, true)
      assert.equal(d.last_status_code, 200)
      assert.equal(JSON.stringify(d).includes(secret), false, 'the secret is never shown')
      assert.equal(rx.got.length, 3)
      // retry-after: 1 was honoured.
      assert.ok(rx.got[2]!.at - rx.got[1]!.at >= 950, `retry came ${rx.got[2]!.at - rx.got[1]!.at} ms after the 429`)
      const eventIds = new Set(rx.got.map((g) => g.headers['x-ward-event-id']))
      assert.equal(eventIds.size, 1, 'the event id is stable per delivery')
      assert.equal([...eventIds][0], d.event_id)
      for (const g of rx.got) {
        assert.equal(g.headers['x-ward-scan-id'], String(id))
        assert.equal(g.headers['content-type'], 'application/json')
        assert.match(String(g.headers['x-ward-timestamp']), /^\d{10}$/)
        assert.ok(verifySignature(secret, g.body, String(g.headers['x-ward-signature'])), 'signature verifies with the secret')
        assert.equal(verifySignature('wrong secret', g.body, String(g.headers['x-ward-signature'])), false)
      }
      // The body is the scan's JSON output.
      const output = await w.req('GET', `/api/v2/scans/${id}/output`)
      assert.deepEqual(JSON.parse(rx.got[2]!.body.toString()), output.json())
      assert.equal(JSON.parse(rx.got[2]!.body.toString()).data.output_data.findings.length, 1)
    } finally {
      await w.close()
      await rx.close()
    }
  })

  test('a hanging receiver times out and the delivery is retried', async () => {
    const rx = await receiver('127.0.8.2', (n, _r, res) => {
      if (n > 0) reply(res, 204) // the first request is never answered
    })
    const w = await startWard({ env: { ...FAST, WARD_CALLBACK_TIMEOUT_MS: '300' } })
    try {
      const id = await scanWithCallback(w, { url: rx.url })
      const d = await waitDelivery(w, id, (d) => d.status === 'delivered')
      assert.equal(d.attempt_count, 2)
      assert.equal(d.attempts[0].status_code, null)
      assert.match(d.attempts[0].error, /timed out after 300 ms/)
      assert.ok(d.attempts[0].duration_ms >= 250 && d.attempts[0].duration_ms < 5000, `duration ${d.attempts[0].duration_ms}`)
      assert.equal(d.attempts[1].status_code, 204)
      assert.equal(d.signed, false)
      assert.equal(rx.got[1]!.headers['x-ward-signature'], undefined, 'no signature without a secret')
    } finally {
      await w.close()
      await rx.close()
    }
  })

  test('410 Gone gives up at once; a network error is retried', async () => {
    const rx = await receiver('127.0.8.3', (_n, _r, res) => reply(res, 410))
    const w = await startWard({ env: FAST })
    try {
      const id = await scanWithCallback(w, { url: rx.url })
      const d = await waitDelivery(w, id, (d) => d.status !== 'pending')
      assert.equal(d.status, 'failed')
      assert.equal(d.attempt_count, 1)
      assert.equal(d.last_status_code, 410)
      assert.match(d.last_error, /410/)
      await new Promise((r) => setTimeout(r, 300))
      assert.equal(rx.got.length, 1, 'never retried after 410')

      // Nothing listens on this port (the receiver was closed): connection refused, retried.
      const gone = await receiver('127.0.8.3', () => {})
      const url = gone.url
      await gone.close()
      const id2 = await scanWithCallback(w, { url })
      const d2 = await waitDelivery(w, id2, (d) => d.attempt_count >= 2)
      assert.equal(d2.status, 'pending')
      assert.equal(d2.attempts[0].status_code, null)
      assert.match(d2.attempts[0].error, /ECONNREFUSED/)
    } finally {
      await w.close()
      await rx.close()
    }
  })

  test('a restart of the worker between attempts loses no delivery', async () => {
    let up = false
    const rx = await receiver('127.0.8.4', (_n, _r, res) => reply(res, up ? 200 : 503))
    const w = await startWard({ env: FAST })
    let second: Awaited<ReturnType<typeof startWorkerRole>> | null = null
    try {
      const id = await scanWithCallback(w, { url: rx.url, secret: 's3cret' })
      await waitDelivery(w, id, (d) => d.attempt_count >= 1)
      await w.worker!.stop() // Ward goes down while the receiver is still failing
      const sentWhileUp = rx.got.length
      await new Promise((r) => setTimeout(r, 200))
      assert.equal(rx.got.length, sentWhileUp, 'nothing is sent while no worker runs')
      const pending = (await deliveries(w, id))[0]
      assert.equal(pending.status, 'pending')
      up = true
      second = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config: w.config, log: pino({ level: 'silent' }) })
      const d = await waitDelivery(w, id, (d) => d.status === 'delivered')
      assert.equal(d.attempt_count, rx.got.length)
      assert.equal(d.attempts.at(-1).status_code, 200)
      assert.equal(new Set(rx.got.map((g) => g.headers['x-ward-event-id'])).size, 1)
      assert.equal(rx.got.filter((_g, i) => d.attempts[i].status_code === 200).length, 1)
      for (const g of rx.got) assert.ok(verifySignature('s3cret', g.body, String(g.headers['x-ward-signature'])))
    } finally {
      await second?.stop()
      await w.close()
      await rx.close()
    }
  })

  test('format pdf delivers the PDF report', async () => {
    const rx = await receiver('127.0.8.5', (_n, _r, res) => reply(res, 200))
    const w = await startWard({ env: FAST })
    try {
      const id = await scanWithCallback(w, { url: rx.url, format: 'pdf', secret: 'pdf-key' })
      const d = await waitDelivery(w, id, (d) => d.status === 'delivered', 30000)
      assert.equal(d.format, 'pdf')
      assert.equal(rx.got.length, 1)
      const g = rx.got[0]!
      assert.equal(g.headers['content-type'], 'application/pdf')
      assert.equal(g.body.subarray(0, 5).toString(), '%PDF-')
      assert.ok(g.body.length > 1000)
      assert.ok(verifySignature('pdf-key', g.body, String(g.headers['x-ward-signature'])))
    } finally {
      await w.close()
      await rx.close()
    }
  })

  test('a retried PDF delivery sends the same bytes, signed anew with the timestamp inside the MAC', async () => {
    // The first attempt is refused with retry-after 1: the retry comes at least a second later,
    // when a PDF built again would carry another creation time.
    const rx = await receiver('127.0.8.6', (n, _r, res) => (n === 0 ? reply(res, 503, { 'retry-after': '1' }) : reply(res, 200)))
    const w = await startWard({ env: FAST })
    try {
      const id = await scanWithCallback(w, { url: rx.url, format: 'pdf', secret: 'pdf-key' })
      const d = await waitDelivery(w, id, (d) => d.status === 'delivered', 30000)
      assert.equal(d.attempt_count, 2)
      assert.equal(rx.got.length, 2)
      const [a, b] = rx.got as [(typeof rx.got)[0], (typeof rx.got)[0]]
      assert.ok(a.body.equals(b.body), 'identical bytes on every attempt')
      assert.equal(a.headers['x-ward-event-id'], b.headers['x-ward-event-id'])
      for (const g of [a, b]) {
        const sig = String(g.headers['x-ward-signature'])
        assert.match(sig, /^t=\d+,v1=[0-9a-f]{64}$/)
        assert.equal(sig.slice(2, sig.indexOf(',')), String(g.headers['x-ward-timestamp']), 'the signed timestamp is the header')
        assert.ok(verifySignature('pdf-key', g.body, sig, { toleranceSeconds: 300 }))
      }
      assert.notEqual(a.headers['x-ward-timestamp'], b.headers['x-ward-timestamp'], 'each attempt signs its own time')
    } finally {
      await w.close()
      await rx.close()
    }
  })

  test('two workers: every terminal scan gets exactly one delivery, sent once, never concurrently', async () => {
    const inFlight = new Map<string, number>()
    let maxConcurrentPerEvent = 0
    const rx = await receiver('127.0.8.6', async (_n, r, res) => {
      const ev = String(r.headers['x-ward-event-id'])
      inFlight.set(ev, (inFlight.get(ev) ?? 0) + 1)
      maxConcurrentPerEvent = Math.max(maxConcurrentPerEvent, inFlight.get(ev)!)
      await new Promise((t) => setTimeout(t, 150))
      inFlight.set(ev, inFlight.get(ev)! - 1)
      reply(res, 200)
    })
    const w = await startWard({ env: FAST })
    const second = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config: w.config, log: pino({ level: 'silent' }) })
    try {
      const ids: number[] = []
      for (let i = 0; i < 8; i++) ids.push(await scanWithCallback(w, { url: rx.url }, { steps: 1, step_ms: 1 }))
      for (const id of ids) {
        await waitForScan(w, id, isTerminal)
        const d = await waitDelivery(w, id, (d) => d.status === 'delivered')
        assert.equal(d.attempt_count, 1)
        assert.equal((await deliveries(w, id)).length, 1)
      }
      assert.equal(rx.got.length, ids.length)
      assert.equal(new Set(rx.got.map((g) => g.headers['x-ward-scan-id'])).size, ids.length)
      assert.equal(maxConcurrentPerEvent, 1)
      const rows = await w.h.db.selectFrom('callback_deliveries').select('scan_id').execute()
      assert.equal(rows.length, ids.length)
    } finally {
      await second.stop()
      await w.close()
      await rx.close()
    }
  })

  test('terminal states outside the worker enqueue too: stop before start, reaped lease; scans without a callback none', async () => {
    const rx = await receiver('127.0.8.7', (_n, _r, res) => reply(res, 200))
    const w = await startWard({ env: FAST, worker: false })
    let worker: Awaited<ReturnType<typeof startWorkerRole>> | null = null
    try {
      const stopped = await scanWithCallback(w, { url: rx.url })
      assert.equal((await w.req('POST', `/api/v2/scans/${stopped}/stop`)).statusCode, 204)
      assert.equal((await waitForScan(w, stopped, isTerminal)).status_name, 'stopped')
      assert.equal((await deliveries(w, stopped)).length, 1)
      // A second stop of a terminal scan is a no-op: still one delivery.
      assert.equal((await w.req('POST', `/api/v2/scans/${stopped}/stop`)).statusCode, 204)
      assert.equal((await deliveries(w, stopped)).length, 1)

      const reaped = await scanWithCallback(w, { url: rx.url })
      await w.h.db
        .updateTable('scans')
        .set({
          status: 'running',
          lease_owner: 'dead-worker',
          lease_expires_at: new Date(Date.now() - 1000).toISOString(),
          start_time: new Date().toISOString(),
        })
        .where('id', '=', reaped)
        .execute()
      assert.deepEqual(await reapExpiredLeases(w.h.db), [reaped])
      assert.deepEqual(await reapExpiredLeases(w.h.db), [])
      assert.equal((await deliveries(w, reaped)).length, 1)

      const plain = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: { steps: 0 } } })
      const plainId = plain.json().data.created_id as number
      worker = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config: w.config, log: pino({ level: 'silent' }) })
      await waitDelivery(w, stopped, (d) => d.status === 'delivered')
      const r = await waitDelivery(w, reaped, (d) => d.status === 'delivered')
      assert.equal(r.attempts.length, 1)
      await waitForScan(w, plainId, isTerminal)
      assert.deepEqual(await deliveries(w, plainId), [])
      assert.equal(rx.got.length, 2)
      const body = JSON.parse(rx.got.find((g) => g.headers['x-ward-scan-id'] === String(reaped))!.body.toString())
      assert.equal(body.data.output_type, 'finding_list')

      // Another tenant cannot see the deliveries.
      const bob = await w.user('bob')
      assert.equal((await w.req('GET', `/api/v2/scans/${stopped}/callbacks`, { key: bob.key })).statusCode, 404)
    } finally {
      await worker?.stop()
      await w.close()
      await rx.close()
    }
  })
})
