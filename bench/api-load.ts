// `npm run bench -- api-load [--db sqlite:./.tmp/bench.db[,postgres://...]] [--duration 10] [--connections 50] [--runs 3] [--only POST,page]`
// WARD_BENCH_LOG_LEVEL=info: Ward with its default request log (the benchmark's default is warn: no per-request lines).
// WARD_FINDINGS_CACHE_MB=0: Ward without its findings page cache (what a list costs when its workspace has just changed).
// Load of Ward's API on a seeded database (run `npm run bench -- seed --findings 1000000` first).
// Ward runs as `node bin/ward.js serve` in a child process, a bare Fastify server returning a
// constant JSON body runs in another child, and autocannon drives both from this process, so
// each route is also given as a ratio of the bare ceiling measured in the same run. With --runs N
// every route is measured N times (the routes in turn) and the median of each figure is printed.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { openDatabase } from '../src/store/db.js'
import { createApiKey } from '../src/store/accounts.js'
import { BENCH_USER } from './seed.js'
import { DEFAULT_BENCH_DB, dbConfigOf, fmt, machine, parseArgs, startChild, stopChild } from './_shared.js'

const ROOT = path.resolve(import.meta.dirname, '..')

const BARE_SERVER = `
import Fastify from 'fastify'
const app = Fastify({ logger: false })
const body = { data: { id: 1, name: 'example.com', type: 'hostname', description: '', workspace_id: 1 } }
app.get('/bare', async () => body)
// The same 100-finding list body Ward returned, as a constant: the ceiling for a list of that size.
const fs = await import('node:fs')
const list = process.env.BARE_LIST_FILE ? JSON.parse(fs.readFileSync(process.env.BARE_LIST_FILE, 'utf8')) : body
app.get('/bare-list', async () => list)
const groups = process.env.BARE_GROUP_FILE ? JSON.parse(fs.readFileSync(process.env.BARE_GROUP_FILE, 'utf8')) : body
app.get('/bare-groups', async () => groups)
await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write('bare listening ' + app.server.address().port + '\\n')
process.on('SIGTERM', () => app.close().then(() => process.exit(0)))
`

interface Ids {
  key: string
  workspaceId: number
  targetId: number
  scanId: number
  findingId: number
  /** The last id of page 499 of the workspace's 100-finding listing: after_id of page 500. */
  page500AfterId: number | null
}

/** A fresh API key for the seeded user and ids to read (the seeded user's busiest target, latest scan and finding). */
async function benchIds(url: string): Promise<Ids> {
  // No migrations here: the Ward under test (possibly an older build, WARD_BENCH_ENTRY) runs its own.
  const h = await openDatabase(dbConfigOf(url), { migrate: false })
  try {
    const user = await h.db
      .selectFrom('users')
      .select(['id', 'active_workspace_id'])
      .where('name', '=', BENCH_USER)
      .orderBy('id')
      .executeTakeFirst()
    if (!user) throw new Error(`no user "${BENCH_USER}" in ${url}: run \`npm run bench -- seed --findings 1000000 --db ${url}\` first`)
    const key = (await createApiKey(h.db, user.id))!
    const workspaceId = user.active_workspace_id!
    const scan = await h.db
      .selectFrom('scans')
      .select(['id', 'target_id'])
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'finished')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow()
    const finding = await h.db
      .selectFrom('findings')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow()
    const n = await h.db
      .selectFrom('findings')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow()
    const nTargets = await h.db
      .selectFrom('targets')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    console.log(`  workspace ${workspaceId} holds ${fmt(Number(n.n))} findings; ${fmt(Number(nTargets.n))} targets in the database`)
    const deep = await h.db
      .selectFrom('findings')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(499 * 100 - 1)
      .executeTakeFirst()
    return { key, workspaceId, targetId: scan.target_id, scanId: scan.id, findingId: finding.id, page500AfterId: deep?.id ?? null }
  } finally {
    await h.close()
  }
}

interface Row {
  route: string
  rps: number
  p50: number
  p99: number
  errors: number
  /** Median over runs of rps / the ceiling named by `against` in the same run. */
  ratio: number | null
  against?: 'ceiling' | 'list' | 'groups' | null
}

async function load(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)))
    void inst
  })
}

const bad = (r: autocannon.Result) => r.errors + r.timeouts + r.non2xx

interface Route {
  route: string
  /** What the ratio is taken against: the small-JSON ceiling, or the bare server sending the same list body. */
  against: 'ceiling' | 'list' | 'groups' | null
  opts: () => autocannon.Options
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function runBackend(url: string, duration: number, connections: number, runs: number, only: string[] | null): Promise<Row[]> {
  console.log(`\n== ${url.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL'}: ${url.replace(/\/\/[^@/]*@/, '//***@')}`)
  const ids = await benchIds(url)
  // WARD_BENCH_ENTRY: another build's entry script (a before/after comparison on the same seed).
  const ward = await startChild(
    process.execPath,
    [process.env.WARD_BENCH_ENTRY ?? path.join(ROOT, 'bin/ward.js'), 'serve'],
    {
      WARD_DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      WARD_RATE_LIMIT: 'off',
      LOG_LEVEL: process.env.WARD_BENCH_LOG_LEVEL ?? 'warn',
      WARD_DB_POOL_MAX: '20',
      ...(process.env.WARD_BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.WARD_BENCH_NODE_OPTIONS } : {}),
    },
    /^Ward is listening on/,
  )
  const base = /(http:\/\/\S+\/api\/v2)/.exec(ward.line)![1]!
  const headers = { authorization: `Bearer ${ids.key}` }
  const listPath = `/findings?target_id=${ids.targetId}&limit=100`
  const groupPath = `/findings?workspace_id=${ids.workspaceId}&group_duplicates=true&limit=100`
  const listFile = path.join(ROOT, '.tmp', `api-load-list-${process.pid}.json`)
  const groupFile = path.join(ROOT, '.tmp', `api-load-groups-${process.pid}.json`)
  fs.mkdirSync(path.dirname(listFile), { recursive: true })
  const listBody = await (await fetch(base + listPath, { headers })).text()
  fs.writeFileSync(listFile, listBody)
  fs.writeFileSync(groupFile, await (await fetch(base + groupPath, { headers })).text())
  console.log(`  a 100-finding list body is ${fmt(listBody.length / 1024)} KiB`)
  const bare = await startChild(
    process.execPath,
    ['--input-type=module', '-e', BARE_SERVER],
    { BARE_LIST_FILE: listFile, BARE_GROUP_FILE: groupFile },
    /^bare listening \d+/,
  )
  const barePort = Number(/(\d+)$/.exec(bare.line.trim())![1])
  const bareUrl = `http://127.0.0.1:${barePort}`
  let wardErr = ''
  ward.child.stderr!.on('data', (d: Buffer) => (wardErr = (wardErr + d.toString()).slice(-4000)))
  ward.child.once('exit', (code) => console.error(`Ward exited (${code}) during the run: ${wardErr}`))
  const get = (p: string) => () => ({ url: base + p, headers, connections, duration })
  const run = `${Date.now().toString(36)}`
  let n = 0
  const post = (p: string, body: () => object) => () => ({
    url: base + p,
    connections,
    duration,
    requests: [
      {
        method: 'POST' as const,
        headers: { ...headers, 'content-type': 'application/json' },
        setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(body()) }),
      },
    ],
  })
  const routes: Route[] = [
    { route: 'bare Fastify (ceiling)', against: 'ceiling', opts: () => ({ url: `${bareUrl}/bare`, connections, duration }) },
    {
      route: 'bare Fastify, constant 100-finding list',
      against: null,
      opts: () => ({ url: `${bareUrl}/bare-list`, connections, duration }),
    },
    {
      route: 'bare Fastify, constant group_duplicates list',
      against: null,
      opts: () => ({ url: `${bareUrl}/bare-groups`, connections, duration }),
    },
    { route: 'GET /targets/{id}', against: 'ceiling', opts: get(`/targets/${ids.targetId}`) },
    { route: 'GET /scans/{id}', against: 'ceiling', opts: get(`/scans/${ids.scanId}`) },
    { route: 'GET /findings/{id}', against: 'ceiling', opts: get(`/findings/${ids.findingId}`) },
    { route: 'GET /findings?target_id&limit=100', against: 'list', opts: get(listPath) },
    { route: 'GET /findings?workspace_id&group_duplicates&limit=100', against: 'groups', opts: get(groupPath) },
    {
      route: 'GET /findings?workspace_id&limit=100 (page 1)',
      against: 'ceiling',
      opts: get(`/findings?workspace_id=${ids.workspaceId}&limit=100`),
    },
    {
      route: 'GET /findings?workspace_id&limit=100&page=500',
      against: 'ceiling',
      opts: get(`/findings?workspace_id=${ids.workspaceId}&limit=100&page=500`),
    },
    ...(ids.page500AfterId
      ? [
          {
            route: 'GET /findings?workspace_id&limit=100&after_id (page 500)',
            against: 'ceiling' as const,
            opts: get(`/findings?workspace_id=${ids.workspaceId}&limit=100&after_id=${ids.page500AfterId}`),
          },
        ]
      : []),
    {
      route: 'POST /targets',
      against: null,
      opts: post('/targets', () => ({ name: `load-${run}-${n++}.example.com`, workspace_id: ids.workspaceId })),
    },
    {
      route: 'POST /scans (target_id, tool 70)',
      against: null,
      opts: post('/scans', () => ({ tool_id: 70, target_id: ids.targetId, tool_params: { ports: '80' } })),
    },
  ]
  const chosen = routes.filter((r) => r.route.startsWith('bare Fastify') || !only || only.some((o) => r.route.includes(o)))
  const results = new Map<string, autocannon.Result[]>(chosen.map((r) => [r.route, []]))
  try {
    // Warm-up: JIT, SQLite page cache, prepared statements.
    await load({ url: base + groupPath, headers, connections: 10, duration: 2 })
    await load({ url: base + listPath, headers, connections: 10, duration: 1 })
    await load({ url: `${bareUrl}/bare`, connections: 10, duration: 1 })
    for (let i = 0; i < runs; i++) for (const r of chosen) results.get(r.route)!.push(await load(r.opts()))
  } finally {
    ward.child.removeAllListeners('exit')
    if (wardErr) console.log(`Ward's log (warn and above):\n${wardErr.slice(-1500)}`)
    await stopChild(ward.child)
    await stopChild(bare.child)
    fs.rmSync(listFile, { force: true })
    fs.rmSync(groupFile, { force: true })
  }
  // Ratios per run (route / its ceiling in the same run), then the median over runs.
  const ceilingOf = (against: Route['against'], i: number) => {
    const name =
      against === 'list'
        ? 'bare Fastify, constant 100-finding list'
        : against === 'groups'
          ? 'bare Fastify, constant group_duplicates list'
          : 'bare Fastify (ceiling)'
    return results.get(name)?.[i]?.requests.average ?? NaN
  }
  return chosen.map((r) => {
    const rs = results.get(r.route)!
    return {
      route: r.route,
      rps: median(rs.map((x) => x.requests.average)),
      p50: median(rs.map((x) => x.latency.p50)),
      p99: median(rs.map((x) => x.latency.p99)),
      errors: rs.reduce((a, x) => a + bad(x), 0),
      ratio: r.against ? median(rs.map((x, i) => x.requests.average / ceilingOf(r.against, i))) : null,
      against: r.against,
    }
  })
}

function print(rows: Row[]) {
  console.log(
    `${'route'.padEnd(60)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'ratio'.padStart(6)}  goal`,
  )
  for (const r of rows) {
    const goals: string[] = []
    const single = /^GET \/(targets|scans|findings)\/\{id\}/.test(r.route)
    if (single && r.ratio !== null) goals.push(`${Math.round(r.ratio * 100)}% of the small-JSON ceiling`)
    if (r.against === 'list' || r.against === 'groups')
      goals.push(`${Math.round(r.ratio! * 100)}% of the same-body server (goal ≥ 80%)`, r.p99 < 50 ? 'p99 < 50 ms' : 'P99 >= 50 ms')
    if (r.errors) goals.push('ERRORS')
    const ratio = r.ratio === null ? '-' : `${Math.round(r.ratio * 100)}%`
    console.log(
      `${r.route.padEnd(60)} ${fmt(r.rps).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.errors).padStart(7)} ${ratio.padStart(6)}  ${goals.join(', ')}`,
    )
  }
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const urls = (a.get('db') ?? DEFAULT_BENCH_DB).split(',')
  const duration = Number(a.get('duration') ?? 10)
  const connections = Number(a.get('connections') ?? 50)
  const runs = Number(a.get('runs') ?? 1)
  const only = a.get('only')?.split(',') ?? null
  console.log(
    `api-load: ${connections} connections, ${duration} s per route, ${runs} run(s), median; ${machine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  for (const url of urls) print(await runBackend(url, duration, connections, runs, only))
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
}
