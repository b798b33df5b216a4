// `npm run bench -- hostile-load [--duration 15] [--connections 10] [--ward path/to/bin/ward.js]`
// Scans never stall the service (issue 25): a real `ward all` on SQLite runs 4 website scans of a
// site answering every path with 512 KB of `<a ` (2 light, 2 deep) and 2 scans whose failure_marker
// is /(a+)+$/ against a page of 34 `a` and `!`, while autocannon measures GET /api/v2/scans.
// Goal: p99 < 100 ms. `--ward` points at another checkout's bin/ward.js to measure it before.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import { fmt, machine, parseArgs, startChild, stopChild } from './_shared.js'
import { REDOS_MARKER, startHostileSite } from '../test/testbed/hostile-site.js'

const ROOT = path.resolve(import.meta.dirname, '..')

export async function run(args: string[]) {
  const a = parseArgs(args)
  const duration = Number(a.get('duration') ?? 15)
  const connections = Number(a.get('connections') ?? 10)
  const bin = path.resolve(a.get('ward') ?? path.join(ROOT, 'bin/ward.js'))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-hostile-bench-'))
  const key = randomBytes(20).toString('hex')
  const pages = await startHostileSite('127.0.77.30', 'anchors')
  const redos = await startHostileSite('127.0.77.31', 'redos')
  console.log(`hostile-load: ${machine()}\n  ward: ${bin}`)
  const ward = await startChild(
    process.execPath,
    [bin, 'all'],
    {
      WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`,
      WARD_INITIAL_API_KEY: key,
      PORT: '0',
      HOST: '127.0.0.1',
      WARD_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      WARD_POLL_MS: '100',
    },
    /listening on/,
  )
  const base = /(http:\/\/[^/\s]+)/.exec(ward.line)![1]!
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  // A Ward whose event loop is held answers late or resets the connection: counted, not fatal.
  const post = async (body: unknown) => {
    try {
      const r = await fetch(`${base}/api/v2/scans`, { method: 'POST', headers, body: JSON.stringify(body) })
      if (r.status !== 201) throw new Error(`${r.status} ${await r.text()}`)
      return ((await r.json()) as { data: { created_id: number } }).data.created_id
    } catch (e) {
      console.log(`  POST /api/v2/scans failed: ${(e as Error).message}`)
      return -1
    }
  }
  const measure = () =>
    new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        { url: `${base}/api/v2/scans`, headers: { authorization: `Bearer ${key}` }, duration, connections, timeout: 10 },
        (err, r) => (err ? reject(err) : resolve(r)),
      )
    })
  const line = (what: string, r: autocannon.Result) =>
    console.log(
      `  ${what}: GET /api/v2/scans, ${connections} connections, ${duration} s: ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}`,
    )
  try {
    // The same load with no scan running: what this machine gives at best (it is shared).
    line('idle', await measure())
    const auth = { type: 'form', login_url: `${redos.url}login`, username: 'u', password: 'p', failure_marker: REDOS_MARKER }
    const ids = [
      ...(await Promise.all(
        ['light', 'light', 'deep', 'deep'].map((scan_type) =>
          post({ tool_id: 170, target_name: pages.url, tool_params: { scan_type }, max_scan_time: 60 }),
        ),
      )),
      ...(await Promise.all(
        [0, 1].map(() =>
          post({ tool_id: 170, target_name: redos.url, tool_params: { scan_type: 'light', authentication: auth }, max_scan_time: 60 }),
        ),
      )),
    ]
    await new Promise((r) => setTimeout(r, 1000)) // the worker claims them
    const res = await measure()
    const states = await fetch(`${base}/api/v2/scans`, { headers })
      .then((r) => r.json())
      .catch(() => null)
    const byId = new Map<number, string>(
      ((states as { data?: Array<{ id: number; status_name: string }> } | null)?.data ?? []).map((s) => [s.id, s.status_name]),
    )
    console.log(
      `  load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    )
    console.log(
      `  scans ${ids.join(', ')} during the load: ${ids.map((id) => byId.get(id) ?? '?').join(', ')}; bed requests: pages ${pages.requests()}, ReDoS ${redos.requests()}`,
    )
    line('6 hostile scans running', res)
    console.log(`  goal p99 < 100 ms: ${res.latency.p99 < 100 && res.timeouts === 0 ? 'met' : 'NOT met'}`)
  } finally {
    await stopChild(ward.child, 5000)
    await pages.close()
    await redos.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
