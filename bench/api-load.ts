// `npm run bench -- api-load [--db sqlite:./.tmp/bench.db[,postgres://...]] [--duration 10] [--connections 50]`
// Load of Ward's API on a seeded database (run `npm run bench -- seed --findings 1000000` first).
// Ward runs as `node bin/ward.js serve` in a child process, a bare Fastify server returning a
// constant JSON body runs in another child, and autocannon drives both from this process, so
// each route is also given as a ratio of the bare ceiling measured in the same run.
import fs from 'node:fs'
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
const list = process.env.BARE_LIST_FILE ? JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(process.env.BARE_LIST_FILE, 'utf8'))) : body
app.get('/bare-list', async () => list)
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
}

/** A fresh API key for the seeded user and ids to read (the seeded user's busiest target, latest scan and finding). */
async function benchIds(url: string): Promise<Ids> {
  const h = await openDatabase(dbConfigOf(url))
  try {
    const user = await h.db.selectFrom('users').select(['id', 'active_workspace_id']).where('name', '=', BENCH_USER).orderBy('id').executeTakeFirst()
    if (!user) throw new Error(`no user "${BENCH_USER}" in ${url}: run \`npm run bench -- seed --findings 1000000 --db ${url}\` first`)
    const key = (await createApiKey(h.db, user.id))!
    const workspaceId = user.active_workspace_id!
    const scan = await h.db.selectFrom('scans').select(['id', 'target_id']).where('workspace_id', '=', workspaceId).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
    const finding = await h.db.selectFrom('findings').select('id').where('workspace_id', '=', workspaceId).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
    const n = await h.db.selectFrom('findings').select((e) => e.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()
    console.log(`  workspace ${workspaceId} holds ${fmt(Number(n.n))} findings`)
    return { key, workspaceId, targetId: scan.target_id, scanId: scan.id, findingId: finding.id }
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
  ratio: number | null
}

async function load(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)))
    void inst
  })
}

const bad = (r: autocannon.Result) => r.errors + r.timeouts + r.non2xx

async function runBackend(url: string, duration: number, connections: number): Promise<Row[]> {
  console.log(`\n== ${url.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL'}: ${url.replace(/\/\/[^@/]*@/, '//***@')}`)
  const ids = await benchIds(url)
  const ward = await startChild(process.execPath, [path.join(ROOT, 'bin/ward.js'), 'serve'], { WARD_DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', WARD_RATE_LIMIT: 'off', LOG_LEVEL: 'warn', WARD_DB_POOL_MAX: '20' }, /^Ward is listening on/)
  const base = /(http:\/\/\S+\/api\/v2)/.exec(ward.line)![1]!
  const headers = { authorization: `Bearer ${ids.key}` }
  const listBody = await (await fetch(`${base}/findings?target_id=${ids.targetId}&limit=100`, { headers })).text()
  const listFile = path.join(ROOT, '.tmp', `api-load-list-${process.pid}.json`)
  fs.mkdirSync(path.dirname(listFile), { recursive: true })
  fs.writeFileSync(listFile, listBody)
  console.log(`  a 100-finding list body is ${fmt(listBody.length / 1024)} KiB`)
  const bare = await startChild(process.execPath, ['--input-type=module', '-e', BARE_SERVER], { BARE_LIST_FILE: listFile }, /^bare listening \d+/)
  const barePort = Number(/(\d+)$/.exec(bare.line.trim())![1])
  const rows: Row[] = []
  let wardErr = ''
  ward.child.stderr!.on('data', (d: Buffer) => (wardErr = (wardErr + d.toString()).slice(-4000)))
  ward.child.once('exit', (code) => console.error(`Ward exited (${code}) during the run: ${wardErr}`))
  try {
    // Warm-up: JIT, SQLite page cache, prepared statements.
    await load({ url: `${base}/findings?workspace_id=${ids.workspaceId}&group_duplicates=true&limit=100`, headers, connections: 10, duration: 2 })
    await load({ url: `http://127.0.0.1:${barePort}/bare`, connections: 10, duration: 1 })
    const ceiling = await load({ url: `http://127.0.0.1:${barePort}/bare`, connections, duration })
    rows.push({ route: 'bare Fastify (ceiling)', rps: ceiling.requests.average, p50: ceiling.latency.p50, p99: ceiling.latency.p99, errors: bad(ceiling), ratio: 1 })
    const listCeiling = await load({ url: `http://127.0.0.1:${barePort}/bare-list`, connections, duration })
    rows.push({ route: 'bare Fastify, constant 100-finding list', rps: listCeiling.requests.average, p50: listCeiling.latency.p50, p99: listCeiling.latency.p99, errors: bad(listCeiling), ratio: listCeiling.requests.average / ceiling.requests.average })
    const reads: Array<[string, string]> = [
      ['GET /targets/{id}', `/targets/${ids.targetId}`],
      ['GET /scans/{id}', `/scans/${ids.scanId}`],
      ['GET /findings?target_id&limit=100', `/findings?target_id=${ids.targetId}&limit=100`],
      ['GET /findings?workspace_id&group_duplicates&limit=100', `/findings?workspace_id=${ids.workspaceId}&group_duplicates=true&limit=100`],
      ['GET /findings/{id}', `/findings/${ids.findingId}`],
    ]
    for (const [route, p] of reads) {
      const r = await load({ url: base + p, headers, connections, duration })
      rows.push({ route, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: bad(r), ratio: r.requests.average / ceiling.requests.average })
    }
    let n = 0
    const run = `${Date.now().toString(36)}`
    const post = await load({
      url: `${base}/targets`,
      connections,
      duration,
      requests: [{ method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `load-${run}-${n++}.example.com`, workspace_id: ids.workspaceId }) }) }],
    })
    rows.push({ route: 'POST /targets', rps: post.requests.average, p50: post.latency.p50, p99: post.latency.p99, errors: bad(post), ratio: null })
  } finally {
    ward.child.removeAllListeners('exit')
    if (wardErr) console.log(`Ward's log (warn and above):\n${wardErr.slice(-1500)}`)
    await stopChild(ward.child)
    await stopChild(bare.child)
    fs.rmSync(listFile, { force: true })
  }
  return rows
}

function print(rows: Row[]) {
  console.log(`${'route'.padEnd(52)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'ratio'.padStart(6)}  goal`)
  for (const r of rows) {
    const list = r.route.startsWith('GET /findings?')
    const goals: string[] = []
    if (r.ratio !== null && r.route.startsWith('GET /findings?')) goals.push(`${Math.round((r.rps / (rows[1]?.rps || 1)) * 100)}% of the list ceiling`)
    if (r.ratio !== null && r.route.startsWith('GET')) goals.push(r.ratio >= 0.5 ? 'ratio ok' : 'RATIO < 50%')
    if (list) goals.push(r.p99 < 50 ? 'p99 ok' : 'P99 >= 50 ms')
    if (r.errors) goals.push('ERRORS')
    console.log(`${r.route.padEnd(52)} ${fmt(r.rps).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.errors).padStart(7)} ${(r.ratio === null ? '-' : `${Math.round(r.ratio * 100)}%`).padStart(6)}  ${goals.join(', ')}`)
  }
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const urls = (a.get('db') ?? DEFAULT_BENCH_DB).split(',')
  const duration = Number(a.get('duration') ?? 10)
  const connections = Number(a.get('connections') ?? 50)
  console.log(`api-load: ${connections} connections, ${duration} s per route; ${machine()}`)
  for (const url of urls) print(await runBackend(url, duration, connections))
}
