// What changed between scans and the findings' life cycle, on real scans: a schedule run now (and
// again) against a diagnostic target whose findings come and go, and the TCP port scanner against
// loopback listeners this file opens and closes (127.0.26.20).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import http from 'node:http'
import https from 'node:https'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { verifySignature } from '../../src/reports/callback-signing.js'
import { startWard, waitForScan, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { diffScans } from '../../src/reports/scan-changes.js'
import type { ScanRow } from '../../src/store/schema.js'
import { changeRows } from '../../src/reports/pdf/changes.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w.close())

const finished = (s: any) => s.status_name === 'finished'
async function runNow(scheduleId: number): Promise<number> {
  const r = await w.req('POST', `/api/v2/schedules/${scheduleId}/run`)
  assert.equal(r.statusCode, 201, r.body)
  const [id] = r.json().data.created_ids
  assert.ok(id, r.body)
  return id
}
const changes = async (scanId: number, q = '') => {
  const r = await w.req('GET', `/api/v2/scans/${scanId}/changes${q}`)
  assert.equal(r.statusCode, 200, r.body)
  return r.json().data
}
const locations = (fs: any[]) => fs.map((f) => f.location).sort()

describe(`changes and finding life cycle (${TEST_BACKEND})`, () => {
  test('new, gone (fixed), still, regression, triage carried over, partial scans mark nothing gone', async () => {
    const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'lifecycle.example' } })).json().data.created_id
    const sched = await w.req('POST', '/api/v2/schedules', {
      body: { tool_id: 9001, target_id: target, interval_minutes: 1440, tool_params: { steps: 5, step_ms: 1 } },
    })
    assert.equal(sched.statusCode, 201, sched.body)
    const sid = sched.json().data.created_id

    // Run 1: findings at step-1, step-3, step-5; nothing to compare with.
    const s1 = await runNow(sid)
    await waitForScan(w, s1, finished)
    const c1 = await changes(s1)
    assert.equal(c1.against_scan_id, null)
    assert.deepEqual(locations(c1.findings.new), ['step-1', 'step-3', 'step-5'])
    const f1 = (await w.req('GET', `/api/v2/findings?task_id=${s1}`)).json().data
    const byLoc = async (scan: number) => {
      const out: Record<string, any> = {}
      for (const c of (await changes(scan)).findings.still.concat((await changes(scan)).findings.new)) out[c.location] = c
      return out
    }
    // Triage: step-3 accepted by a person.
    const step3 = (await byLoc(s1))['step-3']
    assert.equal(
      (await w.req('PATCH', `/api/v2/findings/${step3.id}`, { body: { status: 'accepted', reason: 'known, tolerated' } })).statusCode,
      200,
    )
    assert.equal(f1.length, 3)

    // Run 2 (partial: stopped before it starts would be empty; a stopped running scan is partial).
    await w.req('PATCH', `/api/v2/schedules/${sid}`, { body: { tool_params: { steps: 1, step_ms: 1 } } })
    const partial = await runNow(sid)
    const stopped = await w.req('POST', `/api/v2/scans/${partial}/stop`)
    assert.equal(stopped.statusCode, 204)
    await waitForScan(w, partial, (s) => s.status_name === 'stopped' || s.status_name === 'finished')
    const cp = await changes(partial, `?against=${s1}`)
    if ((await w.req('GET', `/api/v2/scans/${partial}`)).json().data.status_name === 'stopped') {
      assert.equal(cp.complete, false)
      assert.deepEqual(cp.findings.gone, [], 'a partial scan marks nothing gone')
    }
    const lc1 = (await w.req('GET', `/api/v2/findings/${(await byLoc(s1))['step-5'].id}/lifecycle`)).json().data
    assert.equal(lc1.state, 'open', 'a partial scan fixes nothing')

    // Run 3 (complete, 5 steps, step 5 ran and found nothing): step-5 is gone → fixed; step-1 still; step-3 still and still accepted.
    await w.req('PATCH', `/api/v2/schedules/${sid}`, { body: { tool_params: { steps: 5, step_ms: 1, quiet_steps: [5] } } })
    const s3 = await runNow(sid)
    await waitForScan(w, s3, finished)
    const c3 = await changes(s3)
    assert.equal(c3.against_scan_id, s1, 'against the previous complete scan (the partial one is passed over)')
    assert.equal(c3.complete, true)
    assert.equal(c3.changed, true)
    assert.deepEqual(locations(c3.findings.gone), ['step-5'])
    assert.deepEqual(locations(c3.findings.still), ['step-1', 'step-3'])
    assert.deepEqual(c3.findings.new, [])
    const step5id = c3.findings.gone[0].id
    const lc5 = (await w.req('GET', `/api/v2/findings/${step5id}/lifecycle`)).json().data
    assert.equal(lc5.state, 'fixed')
    assert.equal(lc5.fixed_scan_id, s3)
    assert.equal(lc5.regression, false)
    const fixedOne = (await w.req('GET', `/api/v2/findings/${step5id}`)).json().data
    assert.equal(fixedOne.status, 'fixed')
    assert.equal(fixedOne.lifecycle, 'fixed', 'the life cycle on the finding itself')
    assert.equal(fixedOne.regression, false)
    const now3 = await byLoc(s3)
    assert.equal((await w.req('GET', `/api/v2/findings/${now3['step-3'].id}`)).json().data.status, 'accepted', 'triage carried over')
    const lc1b = (await w.req('GET', `/api/v2/findings/${now3['step-1'].id}/lifecycle`)).json().data
    assert.equal(lc1b.first_scan_id, s1)
    assert.equal(lc1b.last_scan_id, s3)
    assert.ok(lc1b.first_seen <= lc1b.last_seen)
    const fixedList = (await w.req('GET', `/api/v2/findings?target_id=${target}&lifecycle=fixed`)).json().data
    assert.deepEqual([...new Set(fixedList.map((f: any) => f.id))].sort(), [step5id], 'filterable by life cycle')
    const openList = (await w.req('GET', `/api/v2/findings?target_id=${target}&lifecycle=open&task_id=${s3}`)).json().data
    assert.equal(openList.length, 2)
    // The PDF report of the scan has its "Since last scan" section: one page more than without changes.
    const pdf = await w.req('GET', `/api/v2/scans/${s3}/output`, { headers: { accept: 'application/pdf' } })
    assert.equal(pdf.statusCode, 200)
    assert.equal(pdf.headers['content-type'], 'application/pdf')
    assert.ok(pdf.rawPayload.subarray(0, 5).toString() === '%PDF-')
    const hist = (await w.req('GET', `/api/v2/findings/${step5id}/history`)).json().data
    assert.ok(JSON.stringify(hist).includes(`complete scan ${s3}`), JSON.stringify(hist))

    // Run 4 (5 steps again): step-5 is back: open, flagged as a regression, and new in the changes.
    await w.req('PATCH', `/api/v2/schedules/${sid}`, { body: { tool_params: { steps: 5, step_ms: 1 } } })
    const s4 = await runNow(sid)
    await waitForScan(w, s4, finished)
    const c4 = await changes(s4)
    assert.equal(c4.against_scan_id, s3)
    assert.deepEqual(locations(c4.findings.new), ['step-5'])
    const lc5b = (await w.req('GET', `/api/v2/findings/${c4.findings.new[0].id}/lifecycle`)).json().data
    assert.equal(lc5b.state, 'open')
    assert.equal(lc5b.regression, true)
    assert.equal(lc5b.first_scan_id, s1)
    const back = (await w.req('GET', `/api/v2/findings/${c4.findings.new[0].id}`)).json().data
    assert.equal(back.status, 'open')
    assert.equal(back.lifecycle, 'open')
    assert.equal(back.regression, true)
    assert.equal(back.first_seen, lc5b.first_seen)
    const inOutput = (await w.req('GET', `/api/v2/scans/${s4}/output`)).json().data.output_data.findings.find((f: any) => f.id === back.id)
    assert.deepEqual({ ...inOutput }, back, 'the same finding object in the scan output')
    const regressed = (await w.req('GET', `/api/v2/findings?target_id=${target}&regression=true`)).json().data
    assert.deepEqual(
      regressed.map((f: any) => f.id).sort((a: number, b: number) => a - b),
      [step5id, c4.findings.new[0].id],
      'the whole group, filterable',
    )
    assert.equal((await w.req('GET', `/api/v2/findings?target_id=${target}&regression=true&lifecycle=fixed`)).json().data.length, 0)

    // The schedule shows its last scans, newest first.
    const view = (await w.req('GET', `/api/v2/schedules/${sid}`)).json().data
    assert.deepEqual(
      view.last_scans.map((s: any) => s.id),
      [s4, s3, partial, s1],
    )
  })

  test('a change-only callback is sent when something changed, with the changes in the signed body, and skipped otherwise', async () => {
    const got: Array<{ headers: http.IncomingHttpHeaders; body: Buffer }> = []
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks) })
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.26.30', r))
    const url = `http://127.0.26.30:${(server.address() as net.AddressInfo).port}/hook`
    try {
      const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'notify.example' } })).json().data.created_id
      const secret = 'monitoring-secret'
      const sched = await w.req('POST', '/api/v2/schedules', {
        body: {
          tool_id: 9001,
          target_id: target,
          cron: '0 4 * * *',
          timezone: 'Europe/Paris',
          tool_params: { steps: 3, step_ms: 1 },
          report_callback: { url, secret, only_on_change: true },
        },
      })
      assert.equal(sched.statusCode, 201, sched.body)
      const sid = sched.json().data.created_id
      const view = (await w.req('GET', `/api/v2/schedules/${sid}`)).json().data
      assert.deepEqual(view.report_callback, { url, format: 'json', has_secret: true, only_on_change: true })
      assert.ok(!JSON.stringify(view).includes(secret), 'the secret is write-only')

      const delivered = async (scan: number) => {
        const until = Date.now() + 15000
        for (;;) {
          const d = (await w.req('GET', `/api/v2/scans/${scan}/callbacks`)).json().data[0]
          if (d && d.status !== 'pending') return d
          assert.ok(Date.now() < until, `callback of scan ${scan} still pending`)
          await new Promise((r) => setTimeout(r, 50))
        }
      }
      const s1 = await runNow(sid)
      await waitForScan(w, s1, finished)
      assert.equal((await delivered(s1)).status, 'delivered', 'the first scan has nothing to compare with: sent')
      const s2 = await runNow(sid)
      await waitForScan(w, s2, finished)
      const d2 = await delivered(s2)
      assert.equal(d2.status, 'skipped')
      assert.match(d2.last_error, new RegExp(`nothing changed since scan ${s1}`))
      await w.req('PATCH', `/api/v2/schedules/${sid}`, { body: { tool_params: { steps: 3, step_ms: 1, quiet_steps: [3] } } })
      const s3 = await runNow(sid)
      await waitForScan(w, s3, finished)
      assert.equal((await delivered(s3)).status, 'delivered')

      assert.equal(got.length, 2, 'one callback per changed scan, none for the unchanged one')
      const last = got[1]!
      assert.equal(last.headers['x-ward-scan-id'], String(s3))
      assert.ok(verifySignature(secret, last.body, last.headers['x-ward-signature'] as string, { toleranceSeconds: 300 }))
      const body = JSON.parse(last.body.toString('utf8')).data
      assert.equal(body.output_type, 'finding_list')
      assert.equal(body.changes.scan_id, s3)
      assert.equal(body.changes.against_scan_id, s2)
      assert.deepEqual(
        body.changes.findings.gone.map((f: any) => f.location),
        ['step-3'],
      )
    } finally {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    }
  })

  test('ports opened and closed between two port scans', async () => {
    const host = '127.0.26.20'
    const listen = (port = 0) =>
      new Promise<net.Server>((resolve, reject) => {
        const s = net.createServer((c) => {
          c.on('error', () => {})
          c.end('SSH-2.0-OpenSSH_9.6\r\n')
          c.setTimeout(2000, () => c.destroy())
        })
        s.once('error', reject)
        s.listen(port, host, () => resolve(s))
      })
    const close = (s: net.Server) => new Promise<void>((r) => s.close(() => r()))
    const a = await listen()
    const b = await listen()
    const pa = (a.address() as net.AddressInfo).port
    const pb = (b.address() as net.AddressInfo).port
    await close(b)
    const scan = async () => {
      const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 70, target_name: host, tool_params: { ports: `${pa},${pb}` } } })
      assert.equal(r.statusCode, 201, r.body)
      const id = r.json().data.created_id
      const s = await waitForScan(w, id, (x) => x.status_name !== 'waiting' && x.status_name !== 'running', 30000)
      assert.equal(s.status_name, 'finished', JSON.stringify(s))
      return id
    }
    const first = await scan()
    await close(a)
    const b2 = await listen(pb)
    try {
      const second = await scan()
      const c = await changes(second)
      assert.equal(c.against_scan_id, first)
      assert.deepEqual(
        c.surface.ports.opened.map((p: any) => `${p.protocol}/${p.port}`),
        [`tcp/${pb}`],
      )
      assert.deepEqual(
        c.surface.ports.closed.map((p: any) => `${p.protocol}/${p.port}`),
        [`tcp/${pa}`],
      )
      assert.equal(c.changed, true)
    } finally {
      await close(b2)
    }
  })
})

describe(`pages between two URL fuzzer scans (${TEST_BACKEND})`, () => {
  test('a page removed and a page added between two runs of one schedule: URLs found and gone', { timeout: 120000 }, async () => {
    const host = '127.0.26.30'
    const pages = new Set(['admin', 'backup'])
    const server = http.createServer((req, res) => {
      const name = (req.url ?? '/').replace(/^\/+/, '').split('?')[0]
      if (pages.has(name)) res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><title>${name}</title>${name} page</html>`)
      else res.writeHead(404).end('not found')
    })
    await new Promise<void>((r) => server.listen(0, host, () => r()))
    const port = (server.address() as net.AddressInfo).port
    try {
      const target = `http://${host}:${port}/`
      const r = await w.req('POST', '/api/v2/schedules', {
        body: { target_name: target, tool_id: 90, tool_params: { wordlist: ['admin', 'backup', 'login', 'old'] }, interval_minutes: 1440 },
      })
      assert.equal(r.statusCode, 201, r.body)
      const scheduleId = r.json().data.created_id
      const run = async () => {
        const id = await runNow(scheduleId)
        const s = await waitForScan(w, id, (x) => x.status_name !== 'waiting' && x.status_name !== 'running', 60000)
        assert.equal(s.status_name, 'finished', JSON.stringify(s))
        return id
      }
      const first = await run()
      pages.delete('backup')
      pages.add('login')
      const second = await run()
      const c = await changes(second)
      assert.equal(c.against_scan_id, first)
      assert.deepEqual(c.surface.urls.found, [`${target}login`])
      assert.deepEqual(c.surface.urls.gone, [`${target}backup`])
      assert.equal(c.changed, true)
    } finally {
      await new Promise<void>((r) => server.close(() => r()))
    }
  })
})

describe(`TLS surface between two scans (${TEST_BACKEND})`, () => {
  test('a new certificate (issuer, expiry, fingerprint) and TLS 1.3 switched off', { timeout: 120000 }, async () => {
    const host = '127.0.26.50'
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-monitor-tls-'))
    const cert = (name: string, days: number) => {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-sha256',
          '-days',
          String(days),
          '-subj',
          `/CN=${name}`,
          '-addext',
          `subjectAltName=IP:${host}`,
          '-keyout',
          path.join(dir, `${name}.key`),
          '-out',
          path.join(dir, `${name}.pem`),
        ],
        { stdio: 'ignore' },
      )
      return { key: fs.readFileSync(path.join(dir, `${name}.key`)), cert: fs.readFileSync(path.join(dir, `${name}.pem`)) }
    }
    const serve = (c: { key: Buffer; cert: Buffer }, maxVersion: 'TLSv1.2' | 'TLSv1.3', port = 0) =>
      new Promise<https.Server>((resolve, reject) => {
        const s = https.createServer(
          { ...c, minVersion: 'TLSv1.2', maxVersion, ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384' },
          (_req, res) => res.end('ok'),
        )
        s.on('tlsClientError', () => {})
        s.once('error', reject)
        s.listen(port, host, () => resolve(s))
      })
    const stop = (s: https.Server) =>
      new Promise<void>((r) => {
        s.closeAllConnections()
        s.close(() => r())
      })
    const a = cert('monitor-a', 365)
    const b = cert('monitor-b', 730)
    let server = await serve(a, 'TLSv1.3')
    const port = (server.address() as net.AddressInfo).port
    const scan = async () => {
      const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 450, target_name: host, tool_params: { port } } })
      assert.equal(r.statusCode, 201, r.body)
      const s = await waitForScan(w, r.json().data.created_id, (x) => x.status_name !== 'waiting' && x.status_name !== 'running', 90000)
      assert.equal(s.status_name, 'finished', JSON.stringify(s))
      return s.id as number
    }
    try {
      const first = await scan()
      await stop(server)
      server = await serve(b, 'TLSv1.2', port)
      const second = await scan()
      const c = await changes(second)
      assert.equal(c.against_scan_id, first)
      const fp = (p: Buffer) => new X509Certificate(p).fingerprint256
      assert.deepEqual(c.surface.tls.certificate.before.fingerprint_sha256, fp(a.cert))
      assert.deepEqual(c.surface.tls.certificate.after.fingerprint_sha256, fp(b.cert))
      assert.match(c.surface.tls.certificate.before.issuer, /monitor-a/)
      assert.match(c.surface.tls.certificate.after.issuer, /monitor-b/)
      assert.notEqual(c.surface.tls.certificate.before.valid_to, c.surface.tls.certificate.after.valid_to)
      assert.deepEqual(c.surface.tls.protocols_removed, ['TLSv1.3'])
      assert.deepEqual(c.surface.tls.protocols_added, [])
      assert.ok(
        c.surface.tls.ciphers_removed.length > 0 && c.surface.tls.ciphers_removed.every((x: string) => x.startsWith('TLSv1.3 ')),
        JSON.stringify(c.surface.tls),
      )
      assert.equal(c.changed, true)
    } finally {
      await stop(server)
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('diffScans (pure)', () => {
  test('the PDF gains a "Since last scan" page when changes are given', async () => {
    const { renderScanPdf } = await import('../../src/reports/pdf/index.js')
    const scan = {
      id: 9,
      tool_id: 450,
      tool_name: 'SSL/TLS Scanner',
      target: { name: 'site.example', type: 'hostname' },
      status_name: 'finished',
      status_message: null,
      start_time: null,
      end_time: null,
      duration: 0,
      result_summary: { critical: 0, high: 0, medium: 0, low: 0, info: 0, text: '' },
    }
    const pages = (b: Buffer) => (b.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length
    const now = new Date('2026-11-24T00:00:00Z')
    const plain = await renderScanPdf(scan as any, [], [], { now })
    const before = row(1, { urls: [{ url: 'http://h/a' }] })
    const withChanges = await renderScanPdf(scan as any, [], [], {
      now,
      changes: diffScans(row(2, { urls: [{ url: 'http://h/<script>' }] }), [], before, []),
    })
    assert.equal(pages(withChanges), pages(plain) + 1)
  })

  const row = (id: number, out: Record<string, unknown>, status = 'finished', msg: string | null = null) =>
    ({
      id,
      target_id: 1,
      tool_id: 450,
      status,
      status_message: msg,
      output_data: JSON.stringify(out),
      end_time: '2026-11-24T00:00:00.000Z',
    }) as unknown as ScanRow
  const cert = (fp: string, issuer: string, to: string) => ({
    position: 0,
    subject: 'CN=site',
    issuer,
    valid_to: to,
    fingerprint_sha256: fp,
  })
  const tls = (protos: Array<[string, string[]]>) =>
    protos.map(([name, ciphers]) => ({ name, accepted: true, ciphers: ciphers.map((c) => ({ name: c })) }))

  test('certificate, protocols and ciphers; subdomains and addresses; URLs; services', () => {
    const before = row(1, {
      certificates: [cert('aa', 'CN=Old CA', '2027-01-01T00:00:00Z')],
      protocols: tls([
        ['TLSv1.2', ['AES128-SHA', 'ECDHE-RSA-AES128-GCM-SHA256']],
        ['TLSv1.0', ['AES128-SHA']],
      ]),
      subdomains: [
        { hostname: 'a.example', ip_address: '192.0.2.1' },
        { hostname: 'b.example', ip_address: '192.0.2.2' },
      ],
      urls: [{ url: 'http://h/admin' }],
      services: [{ port: 22, protocol: 'tcp', service: 'ssh', product: 'OpenSSH', version: '8.9' }],
    })
    const after = row(2, {
      certificates: [cert('bb', 'CN=New CA', '2028-01-01T00:00:00Z')],
      protocols: tls([
        ['TLSv1.2', ['ECDHE-RSA-AES128-GCM-SHA256']],
        ['TLSv1.3', ['TLS_AES_128_GCM_SHA256']],
      ]),
      subdomains: [
        { hostname: 'a.example', ip_address: '192.0.2.9' },
        { hostname: 'c.example', ip_address: null },
      ],
      pages: [{ url: 'http://h/login', status: 200 }],
      services: [{ port: 22, protocol: 'tcp', service: 'ssh', product: 'OpenSSH', version: '9.6' }],
    })
    const c = diffScans(after, [], before, [])
    assert.deepEqual(c.surface.tls.certificate, {
      before: { subject: 'CN=site', issuer: 'CN=Old CA', valid_to: '2027-01-01T00:00:00Z', fingerprint_sha256: 'aa' },
      after: { subject: 'CN=site', issuer: 'CN=New CA', valid_to: '2028-01-01T00:00:00Z', fingerprint_sha256: 'bb' },
    })
    assert.deepEqual(c.surface.tls.protocols_added, ['TLSv1.3'])
    assert.deepEqual(c.surface.tls.protocols_removed, ['TLSv1.0'])
    assert.deepEqual(c.surface.tls.ciphers_added, ['TLSv1.3 TLS_AES_128_GCM_SHA256'])
    assert.deepEqual(c.surface.tls.ciphers_removed, ['TLSv1.0 AES128-SHA', 'TLSv1.2 AES128-SHA'])
    assert.deepEqual(c.surface.subdomains.added, [{ hostname: 'c.example', ip_address: null }])
    assert.deepEqual(c.surface.subdomains.removed, [{ hostname: 'b.example', ip_address: '192.0.2.2' }])
    assert.deepEqual(c.surface.subdomains.address_changed, [{ hostname: 'a.example', before: '192.0.2.1', after: '192.0.2.9' }])
    assert.deepEqual(c.surface.urls, { found: ['http://h/login'], gone: ['http://h/admin'] })
    assert.equal(c.surface.ports.changed.length, 1)
    assert.equal(c.surface.ports.changed[0]!.after.version, '9.6')
    assert.equal(c.changed, true)

    // The same scan, cut short: additions still show, nothing is gone.
    const partial = diffScans(row(3, JSON.parse(after.output_data!), 'finished', 'Reached max_scan_time of 1 min; ...'), [], before, [])
    assert.equal(partial.complete, false)
    assert.deepEqual(partial.surface.tls.protocols_removed, [])
    assert.deepEqual(partial.surface.subdomains.removed, [])
    assert.deepEqual(partial.surface.urls.gone, [])
    assert.deepEqual(partial.surface.urls.found, ['http://h/login'])
    // The PDF section lists each change once, scanner text included as given.
    const rows = changeRows(c)
    assert.ok(rows.some(([a, k, d]) => a === 'Certificate' && k === 'changed' && d.includes('CN=Old CA') && d.includes('CN=New CA')))
    assert.ok(rows.some(([a, k, d]) => a === 'Subdomain' && k === 'removed' && d.startsWith('b.example')))
    assert.ok(rows.some(([a, k, d]) => a === 'Service' && k === 'changed' && d.includes('8.9') && d.includes('9.6')))
    assert.deepEqual(
      rows.filter(([a]) => a === 'URL'),
      [
        ['URL', 'found', 'http://h/login'],
        ['URL', 'gone', 'http://h/admin'],
      ],
    )
    // Identical scans: nothing changed.
    assert.equal(diffScans(row(4, JSON.parse(after.output_data!)), [], after, []).changed, false)
  })
})
