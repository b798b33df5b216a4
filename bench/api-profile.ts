// `npm run bench -- api-profile [--db sqlite:./.tmp/bench.db] [--duration 5] [--connections 20] [--only findings]`
// Where each api-load route's time goes: one `ward serve --cpu-prof` per route, loaded by autocannon,
// and the profile's self time summed by layer (auth, rate limit, validation, SQL, row mapping,
// serialisation, HTTP, GC, idle). WARD_BENCH_ENTRY profiles another build's entry script.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { openDatabase } from '../src/store/db.js'
import { createApiKey } from '../src/store/accounts.js'
import { BENCH_USER } from './seed.js'
import { DEFAULT_BENCH_DB, dbConfigOf, machine, parseArgs, startChild, stopChild } from './_shared.js'

const ROOT = path.resolve(import.meta.dirname, '..')

interface Node {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}

// First match wins: a frame's layer by its script and function name.
const LAYERS: Array<[string, (fn: string, url: string) => boolean]> = [
  ['idle', (fn) => fn === '(idle)'],
  ['GC', (fn) => fn === '(garbage collector)'],
  ['auth', (fn, url) => /plugins\/auth|caller-cache|accounts\.js/.test(url) || fn === 'hashKey'],
  ['rate limit', (_fn, url) => /rate-limit/.test(url)],
  ['validation', (_fn, url) => /ajv|plugins\/input|validation|strict|type-provider|negotiate/.test(url)],
  [
    'SQL (driver + Kysely)',
    (fn, url) =>
      /better-sqlite3|kysely|node_modules\/pg|store\/db\.js|store\/findings|store\/targets|store\/scans/.test(url) ||
      /^(all|get|run|prepare|raw)$/.test(fn),
  ],
  ['row mapping', (_fn, url) => /views\.js|finding-json|finding-rows|store\/time/.test(url)],
  [
    'serialisation + compiled schema code',
    (fn, url) => /fast-json-stringify|serializ/.test(url) || fn === 'stringify' || (fn === 'anonymous' && !url),
  ],
  [
    'HTTP + Fastify',
    (fn, url) =>
      /fastify|find-my-way|light-my-request|avvio|node:_http|node:net|node:stream|_http_|net\.js|stream/.test(url) ||
      /writev|writeGeneric|Buffer/.test(fn),
  ],
  ['other', () => true],
]

/** Self time per layer over the profile's last `windowMs` (the measured load; start-up and warm-up excluded). */
function layerTimes(p: Profile, windowMs: number, others: Map<string, number>): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const out = new Map<string, number>()
  const total = p.timeDeltas.reduce((s, d) => s + d, 0)
  let at = 0
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0
    if (at < total - windowMs * 1000) continue
    const n = byId.get(p.samples[i]!)!
    const layer = LAYERS.find(([, m]) => m(n.callFrame.functionName, n.callFrame.url))![0]
    out.set(layer, (out.get(layer) ?? 0) + (p.timeDeltas[i] ?? 0))
    if (layer === 'other') {
      const k = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/)?/, '')}`
      others.set(k, (others.get(k) ?? 0) + (p.timeDeltas[i] ?? 0))
    }
  }
  return out
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const url = a.get('db') ?? DEFAULT_BENCH_DB
  const duration = Number(a.get('duration') ?? 5)
  const connections = Number(a.get('connections') ?? 20)
  const only = a.get('only')?.split(',') ?? null
  const h = await openDatabase(dbConfigOf(url), { migrate: false })
  const user = await h.db
    .selectFrom('users')
    .select(['id', 'active_workspace_id'])
    .where('name', '=', BENCH_USER)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const key = (await createApiKey(h.db, user.id))!
  const ws = user.active_workspace_id!
  const scan = await h.db
    .selectFrom('scans')
    .select(['id', 'target_id'])
    .where('workspace_id', '=', ws)
    .where('status', '=', 'finished')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
  const finding = await h.db
    .selectFrom('findings')
    .select('id')
    .where('workspace_id', '=', ws)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
  await h.close()
  const routes: Array<[string, string]> = [
    ['GET /targets/{id}', `/targets/${scan.target_id}`],
    ['GET /scans/{id}', `/scans/${scan.id}`],
    ['GET /findings/{id}', `/findings/${finding.id}`],
    ['GET /findings?target_id&limit=100', `/findings?target_id=${scan.target_id}&limit=100`],
    ['GET /findings?group_duplicates&limit=100', `/findings?workspace_id=${ws}&group_duplicates=true&limit=100`],
  ]
  console.log(
    `api-profile: ${machine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  const layers = LAYERS.map(([l]) => l)
  console.log(['route', 'req/s', ...layers].join(' | '))
  for (const [route, p] of routes.filter(([r]) => !only || only.some((o) => r.includes(o)))) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-prof-'))
    const ward = await startChild(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, process.env.WARD_BENCH_ENTRY ?? path.join(ROOT, 'bin/ward.js'), 'serve'],
      { WARD_DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', WARD_RATE_LIMIT: 'off', LOG_LEVEL: 'warn' },
      /^Ward is listening on/,
    )
    const base = /(http:\/\/\S+\/api\/v2)/.exec(ward.line)![1]!
    const opts = { url: base + p, headers: { authorization: `Bearer ${key}` }, connections }
    await new Promise((r) => autocannon({ ...opts, duration: 1 }, r)) // warm-up (still in the profile: start-up is excluded below by share only)
    const res = await new Promise<autocannon.Result>((r, j) => autocannon({ ...opts, duration }, (e, x) => (e ? j(e) : r(x))))
    await stopChild(ward.child)
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
    if (!file) throw new Error(`no profile written in ${dir}`)
    const others = new Map<string, number>()
    const t = layerTimes(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile, duration * 1000, others)
    const busy = [...t.entries()].filter(([k]) => k !== 'idle').reduce((s, [, v]) => s + v, 0)
    console.log(
      [
        route,
        Math.round(res.requests.average),
        ...layers.map((l) =>
          l === 'idle'
            ? `${Math.round(((t.get(l) ?? 0) / (busy + (t.get('idle') ?? 0))) * 100)}% of wall`
            : `${Math.round(((t.get(l) ?? 0) / busy) * 100)}%`,
        ),
      ].join(' | '),
    )
    console.log(
      `  most of "other": ${[...others.entries()]
        .sort((x, y) => y[1] - x[1])
        .slice(0, 6)
        .map(([k, v]) => `${k} ${Math.round(v / 1000)} ms`)
        .join('; ')}`,
    )
    if (a.get('keep') !== 'true') fs.rmSync(dir, { recursive: true, force: true })
    else console.log(`  profile: ${path.join(dir, file)}`)
  }
}
