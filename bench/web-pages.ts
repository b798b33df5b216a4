// `npm run bench -- web-pages [--db sqlite:./.tmp/web.db] [--iterations 30]`
// The time each web page takes to answer its HTML, in process (Fastify inject, no network), signed
// in as the seeded tenant over its workspace (seed first: `npm run bench -- seed --findings 100000
// --db sqlite:./.tmp/web.db`). Median and p95 per page; the goal is under 50 ms. Pages answer
// gzip-compressed, as browsers ask; assets are checked to go compressed too. Beside the time, the
// process's CPU time per request (median): on a machine shared with other work the wall time
// grows with the load, the CPU time much less, so it tells a slow page from a busy machine.
import os from 'node:os'
import { loadConfig } from '../src/config/config.js'
import { buildApp } from '../src/api/app.js'
import { openDatabase } from '../src/store/db.js'
import { scopesOf } from '../src/toolkit/scope.js'
import { resolveVpnProfile } from '../src/domain/vpn.js'
import { createToolCatalogue } from '../src/tools/registry.js'
import { createSession } from '../src/store/web-sessions.js'
import { BENCH_USER } from './seed.js'
import { DEFAULT_BENCH_DB, fmt, machine, parseArgs } from './_shared.js'

const GOAL_MS = 50

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const url = a.get('db') ?? DEFAULT_BENCH_DB.replace('bench.db', 'web.db')
  const iterations = Number(a.get('iterations') ?? 30)
  const config = loadConfig({ WARD_DATABASE_URL: url, LOG_LEVEL: 'silent', WARD_RATE_LIMIT: 'off' })
  const h = await openDatabase(config.db, { secrets: config })
  const db = h.db
  const app = await buildApp(
    {
      db,
      dbKind: h.kind,
      config,
      blocklist: scopesOf(config).target,
      tools: createToolCatalogue({ diagnostic: false }),
      resolveVpnProfile,
    },
    { logger: false, metricsRegistries: [] },
  )
  await app.ready()
  const user = await db
    .selectFrom('users')
    .select(['id', 'active_workspace_id'])
    .where('name', '=', BENCH_USER)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const ws = user.active_workspace_id!
  const session = await createSession(db, user.id, 3600_000)
  const cookie = `ward_session=${session.id}`
  const scan = await db
    .selectFrom('scans')
    .select(['id', 'target_id'])
    .where('workspace_id', '=', ws)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
  const finding = await db
    .selectFrom('findings')
    .select('id')
    .where('scan_id', '=', scan.id)
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow()
  const findings = await db
    .selectFrom('findings')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws)
    .executeTakeFirstOrThrow()

  const pages = [
    '/',
    '/dashboard/live',
    '/targets',
    `/targets/${scan.target_id}`,
    '/scans',
    '/scans/new',
    `/scans/${scan.id}`,
    `/scans/${scan.id}/live`,
    `/scans/${scan.id}/changes`,
    '/schedules',
    '/scan-settings',
    '/findings',
    '/findings?risk=4&status=open',
    `/findings?scan_id=${scan.id}`,
    `/findings/${finding.id}`,
    '/workspaces',
    `/workspaces/${ws}/members`,
    '/vpn-profiles',
    '/integrations',
    '/audit',
    '/profile',
  ]
  console.log(
    `web-pages: ${url}; ${fmt(Number(findings.n))} findings in the workspace; ${iterations} runs per page; ${machine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  console.log('| page | median ms | p95 ms | CPU ms | KB (gzip) | under 50 ms |\n|---|---:|---:|---:|---:|---|')
  let missed = 0
  for (const path of pages) {
    const times: number[] = []
    const cpu: number[] = []
    let bytes = 0
    for (let i = 0; i < iterations + 2; i++) {
      const t0 = performance.now()
      const c0 = process.cpuUsage()
      const r = await app.inject({ method: 'GET', url: path, headers: { cookie, 'accept-encoding': 'gzip' } })
      const c = process.cpuUsage(c0)
      const ms = performance.now() - t0
      if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${r.body.slice(0, 200)}`)
      bytes = r.rawPayload.length
      if (i >= 2) {
        // two warm-up runs
        times.push(ms)
        cpu.push((c.user + c.system) / 1000)
      }
    }
    times.sort((x, y) => x - y)
    cpu.sort((x, y) => x - y)
    const median = times[Math.floor(times.length / 2)]!
    const p95 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]!
    if (p95 >= GOAL_MS) missed++
    console.log(
      `| ${path} | ${fmt(median, 1)} | ${fmt(p95, 1)} | ${fmt(cpu[Math.floor(cpu.length / 2)]!, 1)} | ${fmt(bytes / 1024, 1)} | ${p95 < GOAL_MS ? 'yes' : 'NO'} |`,
    )
  }
  for (const name of ['htmx.min.js', 'ward.css']) {
    const page = await app.inject({ method: 'GET', url: '/', headers: { cookie } })
    const href = new RegExp(`/assets/${name.replace('.', '\\.')}[^"]*`).exec(page.body)?.[0] ?? `/assets/${name}`
    const r = await app.inject({ method: 'GET', url: href, headers: { 'accept-encoding': 'br, gzip' } })
    console.log(`asset ${name}: content-encoding ${r.headers['content-encoding'] ?? 'none'}, ${fmt(r.rawPayload.length / 1024, 1)} KB sent`)
  }
  console.log(missed ? `${missed} page(s) miss the ${GOAL_MS} ms goal at p95` : `every page under ${GOAL_MS} ms at p95`)
  await app.close()
  await h.close()
}
