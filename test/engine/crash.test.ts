// Killed mid-scan: `kill -9` of `ward all` during the TCP Port Scanner's service detection. The scan
// keeps exactly the open ports its log says it found (one finding each, written as found), and the
// next start-up queues it again instead of ending it `aborted`.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import SQLite from 'better-sqlite3'
import { startProc, stopProc, api, type WardProc } from '../helpers/processes.js'

const HOST = '127.0.21.1'
const OPEN_PORTS = 200
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Listeners that accept and never say a word: service detection waits its full timeout on each. */
async function silentPorts(n: number): Promise<{ ports: number[]; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const s = net
            .createServer((c) => {
              sockets.add(c)
              c.on('error', () => {}).on('close', () => sockets.delete(c))
            })
            .once('error', reject)
          s.listen(0, HOST, () => resolve(s))
        }),
    ),
  )
  return {
    ports: servers.map((s) => (s.address() as net.AddressInfo).port),
    async close() {
      for (const c of sockets) c.destroy()
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
    },
  }
}

test('kill -9 during service detection: the scan keeps every open port its log lists, then is queued again', {
  timeout: 90000,
}, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-crash-'))
  const file = path.join(dir, 'ward.db')
  const key = randomBytes(20).toString('hex')
  const env = {
    WARD_DATABASE_URL: `sqlite:${file}`,
    WARD_INITIAL_API_KEY: key,
    WARD_LEASE_MS: '2000',
    WARD_POLL_MS: '50',
    WARD_RATE_LIMIT: 'off',
  }
  const bed = await silentPorts(OPEN_PORTS)
  const procs: WardProc[] = []
  const read = <T>(q: string, ...args: unknown[]): T[] => {
    const d = new SQLite(file, { readonly: true })
    try {
      return d.prepare(q).all(...args) as T[]
    } finally {
      d.close()
    }
  }
  try {
    const p1 = await startProc('all', env)
    procs.push(p1)
    const r = await api(p1.base!, key, 'POST', '/api/v2/scans', {
      tool_id: 70,
      target_name: HOST,
      tool_params: { ports: bed.ports.join(','), timeout_ms: 3000 },
    })
    assert.equal(r.status, 201, r.text)
    const id = r.json.data.created_id as number
    const logLines = () => read<{ line: string }>('select line from scan_logs where scan_id = ? order by id', id).map((l) => l.line)
    // Service detection has started (its test exists) and every discovered port is logged.
    const until = Date.now() + 20000
    while (
      Date.now() < until &&
      !(
        read('select id from tests where scan_id = ? and name = ?', id, 'Service detection').length &&
        logLines().filter((l) => l.startsWith('Discovered open port')).length === OPEN_PORTS
      )
    )
      await sleep(100)
    await sleep(500)
    p1.proc.kill('SIGKILL')
    await p1.exited

    const logged = logLines()
      .filter((l) => l.startsWith('Discovered open port'))
      .map((l) => Number(/port (\d+)\//.exec(l)![1]))
    assert.equal(logged.length, OPEN_PORTS, 'the log lists every open port')
    assert.ok(
      !logLines().some((l) => l.startsWith('Scan of ')),
      'killed before the scan ended:\n' +
        logLines()
          .filter((l) => !l.startsWith('Discovered'))
          .join('\n'),
    )
    const findings = read<{ id: number; port: number }>(
      `select id, port from findings where scan_id = ? and vuln_id = 'open_port' order by port`,
      id,
    )
    assert.deepEqual(
      findings.map((f) => f.port),
      [...logged].sort((a, b) => a - b),
      'one open_port finding per port the log lists',
    )
    const ports =
      JSON.parse(read<{ output_data: string }>('select output_data from scans where id = ?', id)[0]!.output_data ?? '{}').ports ?? []
    assert.equal(ports.length, OPEN_PORTS, 'output_data.ports holds them too')

    // The next start-up queues it again (tool 70 is restartable); it runs again, repeating no finding.
    await sleep(2100) // the lease expires
    const p2 = await startProc('all', env)
    procs.push(p2)
    const until2 = Date.now() + 10000
    let row: any
    while (Date.now() < until2) {
      row = read<any>('select status, attempts, status_message from scans where id = ?', id)[0]
      if (row.attempts === 2 && logLines().filter((l) => l.startsWith('Discovered open port')).length >= 2 * OPEN_PORTS) break
      await sleep(100)
    }
    assert.equal(row.status, 'running', JSON.stringify(row))
    assert.equal(row.attempts, 2)
    assert.equal((await api(p2.base!, key, 'POST', `/api/v2/scans/${id}/stop`)).status, 204)
    const until3 = Date.now() + 5000
    while (Date.now() < until3 && (row = read<any>('select status, status_message from scans where id = ?', id)[0]).status === 'running')
      await sleep(100)
    assert.equal(row.status, 'stopped')
    assert.match(row.status_message, new RegExp(`^Stopped by request; ${OPEN_PORTS} findings found until then are kept$`))
    const after = read<{ id: number }>(`select id from findings where scan_id = ? and vuln_id = 'open_port' order by port`, id)
    assert.deepEqual(
      after.map((f) => f.id),
      findings.map((f) => f.id),
      'the same findings, none repeated',
    )
    await stopProc(p2)
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
    await bed.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
