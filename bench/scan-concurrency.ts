// `npm run bench -- scan-concurrency [--scans 500] [--ports 20] [--hosts 100]`
// 500 concurrent TCP port scans (tool 70, 20 ports each: half open, half closed) of loopback
// test-bed listeners on 127.0.10.0/24, run by ONE Ward process (`node bin/ward.js all`,
// WARD_WORKER_CONCURRENCY=500, WARD_USER_MAX_RUNNING=500, fresh SQLite database in .tmp/).
// This process owns the listeners, creates the scans through the API, samples Ward's RSS, and
// measures GET /scans/{id} latency with autocannon while the scans run. Every finished scan must
// report exactly its host's open ports.
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import autocannon from 'autocannon'
import SQLite from 'better-sqlite3'
import { createToolCatalogue } from '../src/tools/registry.js'
import { fmt, machine, parseArgs, sampleRss, startChild, stopChild } from './_shared.js'

const ROOT = path.resolve(import.meta.dirname, '..')
const KEY = 'ward_bench_scan_concurrency_key_0123456789'

async function listen(host: string, port: number): Promise<net.Server> {
  // A silent service: it accepts and says nothing, so service detection waits for its probes'
  // time-outs and every scan lasts a few seconds (the 500 scans really run at the same time).
  const s = net.createServer((sock) => {
    sock.on('error', () => {})
    // Reading (and dropping) what arrives lets the socket see the scanner hang up, so the bed closes.
    sock.resume()
    setTimeout(() => sock.destroy(), 10_000).unref()
  })
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject)
    s.listen({ host, port }, () => resolve())
  })
  return s
}

/** Ports of host `h`: the open ones listen, the closed ones are bound then released (nothing answers). */
async function testBed(hosts: number, ports: number) {
  const servers: net.Server[] = []
  const plan: Array<{ host: string; open: number[]; closed: number[] }> = []
  for (let h = 1; h <= hosts; h++) {
    const host = `127.0.10.${h}`
    const open: number[] = []
    const closed: number[] = []
    for (let i = 0; i < ports; i++) {
      const s = await listen(host, 0)
      const port = (s.address() as net.AddressInfo).port
      if (i % 2 === 0) {
        servers.push(s)
        open.push(port)
      } else {
        s.close()
        closed.push(port)
      }
    }
    plan.push({ host, open, closed })
  }
  return { plan, close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))) }
}

async function api(base: string, method: string, p: string, body?: unknown): Promise<{ created_id: number }> {
  const r = await fetch(base + p, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const json = (await r.json()) as { data?: unknown }
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(json)}`)
  return json.data as { created_id: number }
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const scans = Number(a.get('scans') ?? 500)
  const ports = Number(a.get('ports') ?? 20)
  const hosts = Math.min(250, Number(a.get('hosts') ?? 100))
  const usePortScanner = !!createToolCatalogue({ diagnostic: false }).get(70)
  const toolId = usePortScanner ? 70 : 9001
  console.log(
    `scan-concurrency: ${scans} scans × ${ports} ports of ${hosts} loopback hosts, tool ${toolId}${usePortScanner ? ' (TCP port scanner)' : ' (diagnostic: tool 70 is not registered yet)'}; ${machine()}`,
  )

  const dir = path.join(ROOT, '.tmp', `scan-concurrency-${process.pid}`)
  fs.mkdirSync(dir, { recursive: true })
  const dbFile = path.join(dir, 'ward.db')
  const bed = await testBed(hosts, ports)
  const env = {
    WARD_DATABASE_URL: `sqlite:${dbFile}`,
    PORT: '0',
    HOST: '127.0.0.1',
    WARD_RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
    WARD_INITIAL_API_KEY: KEY,
    WARD_WORKER_CONCURRENCY: String(scans),
    WARD_USER_MAX_RUNNING: String(scans),
    WARD_POLL_MS: '100',
    WARD_ENABLE_DIAGNOSTIC_TOOL: usePortScanner ? '0' : '1',
  }
  // The scans are queued by an API-only Ward first, so the worker starts with all 500 waiting
  // (creating them one by one would let the first ones end before the last are queued).
  const queuer = await startChild(process.execPath, [path.join(ROOT, 'bin/ward.js'), 'serve'], env, /^Ward is listening on/)
  let base = /(http:\/\/\S+\/api\/v2)/.exec(queuer.line)![1]!
  const expected = new Map<number, number[]>()
  const scanIds: number[] = []
  try {
    const targetIds: number[] = []
    for (const h of bed.plan) targetIds.push((await api(base, 'POST', '/targets', { name: h.host })).created_id)
    for (let i = 0; i < scans; i++) {
      const h = bed.plan[i % hosts]!
      const params = usePortScanner
        ? { ports: [...h.open, ...h.closed].join(','), service_detection: true, timeout_ms: 1000 }
        : { steps: ports, step_ms: 250 }
      const id = (await api(base, 'POST', '/scans', { tool_id: toolId, target_id: targetIds[i % hosts], tool_params: params })).created_id
      scanIds.push(id)
      expected.set(id, h.open)
    }
  } finally {
    await stopChild(queuer.child)
  }
  const started = performance.now()
  const ward = await startChild(process.execPath, [path.join(ROOT, 'bin/ward.js'), 'all'], env, /^Ward is listening on/)
  base = /(http:\/\/\S+\/api\/v2)/.exec(ward.line)![1]!
  const rss = sampleRss(ward.child.pid!, 100)
  try {
    // API latency while the scans run: GET /scans/{id} from 10 connections until every scan ended.
    let inst: autocannon.Instance | undefined
    const latency = new Promise<autocannon.Result>((resolve, reject) => {
      inst = autocannon(
        { url: `${base}/scans/${scanIds[0]}`, headers: { authorization: `Bearer ${KEY}` }, connections: 10, duration: 600 },
        (err, res) => (err ? reject(err) : resolve(res)),
      )
    })
    const db = new SQLite(dbFile, { readonly: true })
    const terminal =
      "('finished','failed to start','stopped','timed out','aborted','VPN connection error','auth failed','connection error')"
    let done = 0
    let peakRunning = 0
    const deadline = Date.now() + 600_000
    while (Date.now() < deadline) {
      const r = db.prepare(`SELECT SUM(status IN ${terminal}) AS done, SUM(status = 'running') AS running FROM scans`).get() as {
        done: number
        running: number
      }
      done = r.done
      peakRunning = Math.max(peakRunning, r.running)
      if (done >= scans) break
      await new Promise((r) => setTimeout(r, 200))
    }
    const wall = (performance.now() - started) / 1000
    inst!.stop()
    const lat = await latency
    // Correctness: every scan finished, and found exactly its host's open ports.
    const byStatus = db.prepare('SELECT status, COUNT(*) AS n FROM scans GROUP BY status').all() as Array<{ status: string; n: number }>
    let wrong = 0
    if (usePortScanner) {
      const rows = db.prepare("SELECT scan_id, port FROM findings WHERE vuln_id = 'open_port'").all() as Array<{
        scan_id: number
        port: number
      }>
      const found = new Map<number, number[]>()
      for (const r of rows) found.set(r.scan_id, [...(found.get(r.scan_id) ?? []), r.port])
      for (const [id, open] of expected)
        if ([...(found.get(id) ?? [])].sort((x, y) => x - y).join() !== [...open].sort((x, y) => x - y).join()) wrong++
    }
    db.close()
    const peak = await rss.stop()
    console.log(`${scans} queued scans all ended ${fmt(wall, 1)} s after the worker started (peak ${peakRunning} running at once)`)
    console.log(`states: ${byStatus.map((s) => `${s.status} ${s.n}`).join(', ')}`)
    if (usePortScanner) console.log(`scans whose open_port findings differ from the test bed's open ports: ${wrong}`)
    console.log(`peak RSS of the Ward process: ${fmt(peak / 2 ** 20)} MB (goal < 400 MB: ${peak < 400 * 2 ** 20 ? 'met' : 'NOT met'})`)
    console.log(
      `GET /scans/{id} during the load: ${fmt(lat.requests.total)} requests, p50 ${lat.latency.p50} ms, p99 ${lat.latency.p99} ms, errors ${lat.errors + lat.non2xx + lat.timeouts} (goal p99 < 100 ms: ${lat.latency.p99 < 100 ? 'met' : 'NOT met'})`,
    )
  } finally {
    await rss.stop()
    await stopChild(ward.child)
    await bed.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
