// Schema-driven fuzzing of every route of the served OpenAPI document (so a new route is fuzzed
// without anyone listing it): hostile ids, query strings, bodies, content types, Accept headers and
// keys, sent over real HTTP to a Ward on a real database, with invariants checked on every answer.
// `npm test` runs WARD_FUZZ_RUNS (default 1500) generated requests with a fixed seed (WARD_FUZZ_SEED)
// plus a fixed set of known-hostile ones; `npm run fuzz` runs many more. WARD_FUZZ_REPORT=<file>
// writes the figures (requests by status, violations by category) as JSON.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { sql } from 'kysely'
import SQLite from 'better-sqlite3'
import { startWard, waitForScan, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js'
import { pino } from 'pino'
import { createUser, revokeKeysByPrefix, keyPrefix } from '../../src/store/accounts.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import {
  MAX_ID,
  caseArb,
  isIdName,
  isIdRef,
  isUuidName,
  opsFrom,
  poolOf,
  rawBytes,
  spell,
  wellFormedId,
  wellFormedText,
  type BodySpec,
  type Case,
  type IdSpec,
  type Op,
  type Scalar,
  type Spelled,
} from './fuzz-model.js'

/** Routes only an instance admin may use (the fuzz's tenants are not admins). */
const ADMIN_ONLY = /^\/api\/v2\/(users|instance)(\/|$)/
const RUNS = Number(process.env.WARD_FUZZ_RUNS ?? 1500)
const SEED = Number(process.env.WARD_FUZZ_SEED ?? 20261123)
const TIMEOUT_MS = Math.max(170000, RUNS * 200)

let w: TestWard
let port = 0
let ops: Op[] = []
let tables: string[] = []
const T = { A: { key: '', userId: 0 }, B: { key: '', userId: 0 }, revokedKey: '' }
type Pools = Record<string, Array<number | string>>
const pools: { A: Pools; B: Pools } = { A: {}, B: {} }
const TOOL_IDS = [9001, 20, 70, 80, 90, 160, 170, 260, 270, 280, 310, 350, 400, 450]

// ---------------------------------------------------------------- seed: two tenants with targets, scans, findings

let seedRound = 0

async function seedTenant(key: string, tag: string) {
  const req = (method: string, url: string, o: any = {}) => w.req(method, url, { key, ...o })
  tag = `${tag}${seedRound}x${Date.now().toString(36)}`
  const targets: number[] = []
  for (let i = 1; i <= 10; i++) {
    const r = await req('POST', '/api/v2/targets', { form: { name: `t${i}.${tag}.example` } })
    assert.equal(r.statusCode, 201, r.body)
    targets.push(r.json().data.created_id)
  }
  assert.equal((await req('POST', '/api/v2/workspaces', { body: { name: `second ${tag}` } })).statusCode, 201)
  for (let i = 1; i <= 3; i++)
    assert.equal(
      (await req('POST', '/api/v2/vpn_profiles', { body: { name: `proxy ${i} ${tag}`, type: 'socks5', host: '127.0.0.1', port: 1080 } }))
        .statusCode,
      201,
    )
  // The fuzz may have given a workspace a default VPN profile: seed scans run without one (nothing
  // listens at the profile's address).
  for (const ws of (await req('GET', '/api/v2/workspaces')).json().data)
    await req('PUT', `/api/v2/workspaces/${ws.id}/vpn_profile`, { body: { vpn_profile_uuid: null } })
  const scans: number[] = []
  for (let i = 0; i < 6; i++) {
    const r = await req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: targets[i], tool_params: { steps: 3, step_ms: 1 } } })
    assert.equal(r.statusCode, 201, r.body)
    scans.push(r.json().data.created_id)
  }
  for (const id of scans) await waitForScan(w, id, (s) => s.status_name === 'finished', 30000, key)
}

/**
 * Two tenants with targets, workspaces, VPN profiles, and finished scans of the diagnostic tool (with
 * findings and tests). A worker runs only while seeding: every scan the fuzz starts is stopped before
 * one runs again, so no fuzz-made scan ever runs (its target could be any name).
 */
async function seed() {
  const active = await w.h.db
    .selectFrom('scans')
    .select(['id', 'user_id', 'status'])
    .where('status', 'in', ['waiting', 'running'])
    .execute()
  for (const s of active) {
    const key = s.user_id === T.A.userId ? T.A.key : T.B.key
    await w.req('POST', `/api/v2/scans/${s.id}/stop`, { key })
  }
  const left = await w.h.db.selectFrom('scans').select('id').where('status', 'in', ['waiting', 'running']).execute()
  assert.deepEqual(left, [], 'no fuzz-made scan may be left to run')
  const t0 = performance.now()
  // No scheduler: a schedule the fuzz made must not start scans of its (arbitrary) targets.
  const worker = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config: w.config, log: pino({ level: 'silent' }), scheduler: false })
  try {
    await seedTenant(T.A.key, 'a')
    await seedTenant(T.B.key, 'b')
  } finally {
    await worker.stop()
  }
  seedRound++
  timing.seed += performance.now() - t0
}

const depleted = (p: Pools) => p.targets!.length < 3 || p.scans!.length < 2 || p.findings!.length < 2

async function refreshPools() {
  for (const [t, userId] of [
    ['A', T.A.userId],
    ['B', T.B.userId],
  ] as const) {
    const ids = async (table: 'targets' | 'scans' | 'workspaces') =>
      (await w.h.db.selectFrom(table).select('id').where('user_id', '=', userId).orderBy('id').execute()).map((r) => r.id)
    pools[t] = {
      targets: await ids('targets'),
      scans: await ids('scans'),
      workspaces: await ids('workspaces'),
      findings: (
        await w.h.db
          .selectFrom('findings')
          .innerJoin('workspaces', 'workspaces.id', 'findings.workspace_id')
          .select('findings.id')
          .where('workspaces.user_id', '=', userId)
          .orderBy('findings.id')
          .execute()
      ).map((r) => r.id),
      vpn_profiles: (await w.h.db.selectFrom('vpn_profiles').select('uuid').where('user_id', '=', userId).orderBy('uuid').execute()).map(
        (r) => r.uuid,
      ),
      tools: TOOL_IDS,
      schedules: (await w.h.db.selectFrom('schedules').select('id').where('user_id', '=', userId).orderBy('id').execute()).map((r) => r.id),
      // `/workspaces/{id}/members/{user_id}`: the members of the tenant's workspaces are the tenant alone.
      members: [userId],
      integrations: (await w.h.db.selectFrom('integrations').select('id').where('user_id', '=', userId).orderBy('id').execute()).map(
        (r) => r.id,
      ),
    }
  }
}

// ---------------------------------------------------------------- the database, read directly

async function listTables(): Promise<string[]> {
  const q =
    w.h.kind === 'postgres'
      ? sql<{
          name: string
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by 1`
  return (await q.execute(w.h.db)).rows.map((r) => r.name)
}

/**
 * Row counts and a checksum of every table's contents (rows sorted, so order does not matter), read
 * through a connection of our own. SQLite: `PRAGMA data_version` of that connection moves when any
 * other connection commits, so the checksum is recomputed only then. PostgreSQL: one query hashes
 * each table on the server, again only when a write statement touched it (watchWrites).
 */
let side: SQLite.Database | null = null
let sideVersion = -1
let sideSnap: { counts: Record<string, number>; sum: string } | null = null
const pgMarks = new Map<string, string>()
let pgAll = ''
const pgTables = new Map<string, { n: number; h: string }>()

/**
 * PostgreSQL: a statement-level trigger on every table of this test's own schema counts the write
 * statements per table in a sequence of its own (sequences take no locks and ignore rollbacks, so
 * the count may only overstate), so only the tables something wrote to are hashed again.
 */
async function watchWrites() {
  await sql`create sequence fuzz_w_all`.execute(w.h.db)
  await sql`create function fuzz_touch() returns trigger language plpgsql as $$ begin perform nextval('fuzz_w_all'); perform nextval(quote_ident('fuzz_w_' || TG_TABLE_NAME)); return null; end $$`.execute(
    w.h.db,
  )
  for (const t of tables) {
    await sql.raw(`create sequence "fuzz_w_${t}"`).execute(w.h.db)
    await sql
      .raw(
        `create trigger fuzz_touch after insert or update or delete or truncate on "${t}" for each statement execute function fuzz_touch()`,
      )
      .execute(w.h.db)
  }
}

async function snapshot(): Promise<{ counts: Record<string, number>; sum: string }> {
  const counts: Record<string, number> = {}
  const h = createHash('sha256')
  if (w.h.kind === 'sqlite') {
    side ??= new SQLite(w.dbFile, { readonly: true })
    const version = side.pragma('data_version', { simple: true }) as number
    if (sideSnap && version === sideVersion) return sideSnap
    sideVersion = version
    for (const t of tables) {
      const rows = side.prepare(`select * from "${t}"`).raw().all() as unknown[][]
      counts[t] = rows.length
      const lines = rows
        .map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : Buffer.isBuffer(v) ? v.toString('hex') : v)))
        .sort()
      h.update(`${t}\n${lines.join('\n')}\n`)
    }
    return (sideSnap = { counts, sum: h.digest('hex') })
  }
  // Only the tables a write statement touched since the last look (see watchWrites) are hashed again.
  const all = (await sql<{ n: string }>`select last_value::text || is_called::text as n from fuzz_w_all`.execute(w.h.db)).rows[0]!.n
  if (sideSnap && all === pgAll) return sideSnap
  pgAll = all
  const marks = (
    await sql
      .raw<{ t: string; n: string }>(
        tables.map((t) => `select '${t}' as t, last_value::text || is_called::text as n from "fuzz_w_${t}"`).join(' union all '),
      )
      .execute(w.h.db)
  ).rows
  const stale = sideSnap ? marks.filter((m) => pgMarks.get(m.t) !== m.n).map((m) => m.t) : tables
  for (const m of marks) pgMarks.set(m.t, m.n)
  timing.probes++
  if (sideSnap && !stale.length) return sideSnap
  timing.hashes++
  const th = performance.now()
  const parts = stale.map(
    (t) =>
      `select '${t}' as t, count(*)::int as n, md5(coalesce(string_agg(md5(x::text), ',' order by md5(x::text)), '')) as h from "${t}" x`,
  )
  for (const r of (await sql.raw<{ t: string; n: number; h: string }>(parts.join(' union all ')).execute(w.h.db)).rows)
    pgTables.set(r.t, { n: Number(r.n), h: r.h })
  timing.hashMs += performance.now() - th
  for (const t of tables) {
    const e = pgTables.get(t)!
    counts[t] = e.n
    h.update(`${t} ${e.n} ${e.h}\n`)
  }
  return (sideSnap = { counts, sum: h.digest('hex') })
}

// ---------------------------------------------------------------- building a request from a case

interface Defect {
  kind: string
  what: string
}
interface Built {
  method: string
  target: string
  headers: Array<[string, string]>
  body?: Buffer
  bodySummary: string
  defects: Defect[]
  /** The answer's exact status when the case determines it, with why. */
  exact: { status: number; why: string; messageRe?: RegExp } | null
  tenant: 'A' | 'B'
  /** Canonical path id the caller does not own (the API must answer 404, acting on nothing). */
  foreignPathId: boolean
  pathIds: Record<string, Spelled & { spec?: IdSpec; n: string }>
  /** Filters sent once, well formed: the answer's items must satisfy them. */
  filters: Record<string, string>
  bodiless: boolean
  queryCount: number
  /** The request reaches Ward's routing as the route it was built for. */
  sane: boolean
}

const MISSING_UUID = '00000000-0000-4000-8000-000000000000'

function resolveId(id: IdSpec, pool: string, tenant: 'A' | 'B'): string {
  const uuid = pool === 'vpn_profiles'
  const from = (t: 'A' | 'B') => {
    const list = pools[t][pool] ?? []
    return list.length ? String(list[id.pick % list.length]) : uuid ? MISSING_UUID : '1'
  }
  switch (id.who) {
    case 'self':
      return from(tenant)
    case 'other':
      return from(tenant === 'A' ? 'B' : 'A')
    case 'missing':
      return uuid ? MISSING_UUID : String(1999999000 + id.pick)
    case 'zero':
      return uuid ? '00000000-0000-0000-0000-000000000000' : '0'
    case 'max':
      return uuid ? 'ffffffff-ffff-4fff-bfff-ffffffffffff' : String(MAX_ID)
    case 'over':
      return uuid ? MISSING_UUID + '0' : String(MAX_ID + 1)
    case 'huge':
      return uuid ? 'g' + MISSING_UUID.slice(1) : '9'.repeat(25)
  }
}

function ownsId(tenant: 'A' | 'B', pool: string, v: string) {
  return (pools[tenant][pool] ?? []).map(String).includes(v)
}

function scalarText(s: Scalar, pool: string, tenant: 'A' | 'B'): Spelled & { n?: string } {
  if (s.id) {
    const n = resolveId(s.id, pool, tenant)
    return { ...spell(n, s.id.spelling), n }
  }
  const text = s.text ?? ''
  return { text, wire: s.raw ? text : encodeURIComponent(text) }
}

function jsonWithIds(v: unknown, tenant: 'A' | 'B', defects: Defect[], key = 'body'): unknown {
  if (isIdRef(v)) {
    const id = v.$fuzzId
    const n = resolveId(id, v.pool, tenant)
    const isNum = v.pool !== 'vpn_profiles'
    if (!wellFormedId(id)) defects.push({ kind: 'body id', what: `body member "${key}" is ${id.spelling} ${id.who}` })
    else if (id.who !== 'self' && v.pool !== 'tools')
      defects.push({ kind: 'body id', what: `body member "${key}" names a row the caller does not own (${id.who})` })
    if (id.spelling === 'canonical') return isNum && /^\d+$/.test(n) && n.length < 16 ? Number(n) : n
    if (isNum && id.spelling === 'minus') return -Number(n)
    if (isNum && id.spelling === 'frac') return Number(n) + 0.5
    return spell(n, id.spelling).text
  }
  if (Array.isArray(v)) return v.map((x) => jsonWithIds(x, tenant, defects, key))
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonWithIds(x, tenant, defects, k)]))
  return v
}

const summarize = (b: Buffer | undefined) =>
  b === undefined
    ? 'none'
    : b.length > 300
      ? `${b.length} bytes: ${JSON.stringify(b.subarray(0, 160).toString('utf8'))}…`
      : JSON.stringify(b.toString('utf8'))

function build(c: Case): Built {
  const op = ops[c.op]!
  const tenant: 'A' | 'B' = c.auth === 'B' ? 'B' : 'A'
  const defects: Defect[] = []
  const pathIds: Built['pathIds'] = {}
  let foreignPathId = false
  let sane = true // the request reaches Ward's routing: no raw bytes, no over-long line

  // Path.
  let path = op.path
  for (const p of op.params.filter((x) => x.in === 'path')) {
    const s = c.path[p.name] ?? { text: '1' }
    const pool = poolOf(p.name, op.path)
    const v = scalarText(s, pool, tenant)
    pathIds[p.name] = { ...v, spec: s.id, n: v.n ?? v.text }
    if (s.id) {
      if (!wellFormedId(s.id)) defects.push({ kind: 'path id', what: `path ${p.name} "${v.text}" (${s.id.spelling}, ${s.id.who})` })
      else if (!ownsId(tenant, pool, v.text)) foreignPathId = true
      if (s.id.spelling.startsWith('raw') || s.id.spelling === 'long') sane = false
    } else {
      // An empty segment is no id: the path is then another route's (`/findings/` is the list).
      const ok =
        v.text === '' ||
        (isIdName(p.name, p.schema)
          ? /^(0|[1-9]\d*)$/.test(v.text) && Number(v.text) <= MAX_ID
          : wellFormedText(p.name, p.schema, v.text) !== false)
      if (!ok) defects.push({ kind: 'path id', what: `path ${p.name} "${v.text}"` })
      else if (v.text !== '' && !ownsId(tenant, pool, v.text)) foreignPathId = true
      if (s.raw || v.text === '' || v.text.length > 100) sane = false
    }
    path = path.replace(`{${p.name}}`, v.wire)
  }
  let method = op.method
  let routeStatus: number | null = null
  switch (c.route) {
    case 'as-is':
      break
    case 'trailing-slash':
      path += '/'
      break
    case 'double-slash':
      path = path.replace('/api/v2/', '/api/v2//')
      break
    case 'extra-segment':
      path += '/fuzz/extra'
      routeStatus = 404
      break
    case 'unknown-prefix':
      path = path.replace('/api/v2/', '/api/v2/zz-')
      routeStatus = 404
      break
    case 'wrong-method': {
      const served = new Set(ops.filter((o) => o.path === op.path).map((o) => o.method))
      const m = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((x) => !served.has(x))
      if (m) {
        method = m
        routeStatus = 405
      }
      break
    }
  }
  if (routeStatus) defects.push({ kind: 'route', what: `${method} ${path} is not a route` })

  // Query.
  const documented = new Map(op.params.filter((p) => p.in === 'query').map((p) => [p.name, p]))
  const parts: string[] = []
  const seen = new Map<string, number>()
  const filters: Record<string, string> = {}
  // Every query item plain, named by the route and well formed: nothing in the query may end the request.
  let queryClean = true
  for (const q of c.query) {
    const p = documented.get(q.name)
    const pool = poolOf(q.name)
    const v = scalarText(q.v, pool, tenant)
    const base = q.name.replace(/\[.*$/, '')
    let name = q.name
    if (q.form === 'bracket' || q.form === 'encoded-brackets') name = `${q.name}[]`
    if (q.form === 'bracket-key') name = `${q.name}[x]`
    if (q.form === 'bracket-index') name = `${q.name}[0]`
    const wireName = q.form === 'encoded-brackets' ? encodeURIComponent(name) : name.replace(/[^\w[\]\-.]/g, (ch) => encodeURIComponent(ch))
    const add = (wv: string) => {
      parts.push(q.form === 'no-eq' ? wireName : `${wireName}=${wv}`)
      seen.set(name, (seen.get(name) ?? 0) + 1)
    }
    add(v.wire)
    if (q.form === 'repeat') add(scalarText(q.v2 ?? q.v, pool, tenant).wire)
    if (q.v.raw || q.v.id?.spelling.startsWith('raw') || v.wire.length > 3000) sane = false
    if (!p || q.form === 'repeat') queryClean = false
    const knownBase = documented.has(base) || [...documented.keys()].some((k) => k.startsWith(base + '['))
    if (name !== q.name && !documented.has(name) && knownBase) defects.push({ kind: 'query bracket', what: `query parameter "${name}"` })
    else if (p && q.form !== 'repeat') {
      const text = q.form === 'no-eq' ? '' : v.text
      const ok = q.v.id && q.form !== 'no-eq' ? wellFormedId(q.v.id) : wellFormedText(p.name, p.schema, text)
      if (ok !== true || q.form !== 'plain') queryClean = false
      if (ok === false) defects.push({ kind: 'query value', what: `query ${p.name}=${JSON.stringify(text.slice(0, 60))}` })
      else if (ok === true && q.form === 'plain') filters[p.name] = text
    }
  }
  for (const [name, n] of seen)
    if (n > 1 && documented.has(name)) defects.push({ kind: 'query repeated', what: `query parameter "${name}" given ${n} times` })
  for (const name of Object.keys(filters)) if ((seen.get(name) ?? 0) > 1) delete filters[name]
  const target = path + (parts.length ? `?${parts.join('&')}` : '')
  if (target.length > 8000) sane = false

  // Headers.
  const headers: Array<[string, string]> = []
  const keyOf = { A: T.A.key, B: T.B.key }
  switch (c.auth) {
    case 'A':
    case 'B':
      headers.push(['authorization', `Bearer ${keyOf[c.auth]}`])
      break
    case 'none':
      break
    case 'wrong-key':
      headers.push(['authorization', 'Bearer ward_notAKeyThatExists0000000000000000'])
      break
    case 'revoked':
      headers.push(['authorization', `Bearer ${T.revokedKey}`])
      break
    case 'basic':
      headers.push(['authorization', `Basic ${T.A.key}`])
      break
    case 'empty-bearer':
      headers.push(['authorization', 'Bearer '])
      break
    case 'two-tokens':
      headers.push(['authorization', `Bearer ${T.A.key} ${T.B.key}`])
      break
    case 'long-key':
      headers.push(['authorization', `Bearer ${'k'.repeat(8000)}`])
      break
    case 'raw-unicode':
      headers.push(['authorization', rawBytes(`Bearer ${T.A.key}ü`)])
      break
  }
  if (c.auth !== 'A' && c.auth !== 'B') defects.push({ kind: 'auth', what: `key: ${c.auth}` })
  if (c.accept !== null) headers.push(['accept', c.accept])

  // Body.
  let body: Buffer | undefined
  let bodyStatus: number | null = null
  // A body whose parsing may rightly end the request first (an odd content type, junk on a bodiless
  // route): no opinion on the status after the key check.
  let bodyUnsure = false
  const b: BodySpec = c.body
  const bodiless = !op.body
  switch (b.t) {
    case 'none':
      break
    case 'json': {
      const bodyDefects: Defect[] = []
      const v = jsonWithIds(b.value, tenant, bodyDefects)
      if (!bodiless) defects.push(...bodyDefects)
      headers.push(['content-type', b.ct])
      body = Buffer.from(JSON.stringify(v) ?? 'null')
      if (b.defect && !bodiless) defects.push({ kind: 'body', what: b.defect })
      break
    }
    case 'text':
      if (b.ct !== null) headers.push(['content-type', b.ct])
      body = Buffer.from(b.text)
      if (!b.defect && !(/^application\/(json|x-www-form-urlencoded)(;|$)/.test(b.ct ?? '') && (b.text === '' || !bodiless)))
        bodyUnsure = true
      if (bodiless && b.text !== '' && b.label !== 'empty body') bodyUnsure = true
      if (b.defect && !bodiless) {
        defects.push({ kind: b.defect.startsWith('content type') ? 'content type' : 'body', what: b.defect })
        if (b.defect.startsWith('content type')) bodyStatus = 415
      }
      break
    case 'form': {
      headers.push(['content-type', b.ct])
      const props = op.body?.schema?.properties ?? {}
      const f: string[] = []
      const names = new Map<string, number>()
      for (const [k, x] of b.fields) {
        let text: string
        if (isIdRef(x)) {
          const n = resolveId(x.$fuzzId, x.pool === 'targets' ? poolOf(k) : x.pool, tenant)
          text = spell(n, x.$fuzzId.spelling).text
        } else text = x === null ? '' : String(x)
        names.set(k, (names.get(k) ?? 0) + 1)
        f.push(`${encodeURIComponent(k)}=${encodeURIComponent(text)}`)
        const s = props[k]
        if (s && (isIdName(k, s) || s.type === 'integer')) {
          // Ids are strict as in paths; other numbers only need to be integers in range ("08" is a fine port).
          const ok = isIdName(k, s)
            ? /^[1-9]\d*$/.test(text) && Number(text) <= MAX_ID && ownsId(tenant, poolOf(k), text)
            : /^-?\d+$/.test(text)
              ? wellFormedText(k, s, String(Number(text)))
              : false
          if (ok === false) defects.push({ kind: 'body', what: `form field ${k}=${JSON.stringify(text)}` })
        }
      }
      for (const [k, n] of names) if (n > 1 && props[k]) defects.push({ kind: 'body', what: `form field "${k}" given ${n} times` })
      for (const r of op.body?.schema?.required ?? [])
        if (!names.has(r)) defects.push({ kind: 'body', what: `required form field "${r}" is missing` })
      body = Buffer.from(f.join('&'))
      break
    }
    case 'huge':
      headers.push(['content-type', b.ct])
      body = Buffer.concat([Buffer.from('{"name":"'), Buffer.alloc(b.mb * 1024 * 1024, 'x'), Buffer.from('"}')])
      if (!bodiless) {
        defects.push({ kind: 'body', what: `a ${b.mb} MB body` })
        bodyStatus = 413
      }
      break
  }

  // What the status must be, in the order Ward decides: routing, key, body parsing, validation, lookup.
  let exact: Built['exact'] = null
  if (sane) {
    const kinds = new Set(defects.map((d) => d.kind))
    // A request to no route still has its body parsed first: only a bodiless one must get exactly 404/405.
    if (routeStatus) exact = c.body.t === 'none' ? { status: routeStatus, why: 'no such route' } : null
    else if (kinds.has('auth')) exact = { status: 401, why: 'invalid or missing key' }
    else if (bodyUnsure) exact = null
    else if (bodyStatus) exact = { status: bodyStatus, why: bodyStatus === 413 ? 'body over the limit' : 'unsupported content type' }
    else if (kinds.has('path id') || kinds.has('query value') || kinds.has('query repeated') || kinds.has('query bracket'))
      exact = { status: 400, why: 'malformed id or query' }
    // Instance administration: neither tenant is an instance admin, whatever the id.
    else if (ADMIN_ONLY.test(op.path) && !defects.length && queryClean) exact = { status: 403, why: 'instance admins only' }
    else if (foreignPathId && bodiless && !defects.length && queryClean)
      exact = { status: 404, why: 'well-formed id the caller does not own', messageRe: /does not exist/ }
  }
  return {
    method,
    target,
    headers,
    body,
    bodySummary: summarize(body),
    defects,
    exact,
    tenant,
    foreignPathId,
    pathIds,
    filters,
    bodiless,
    queryCount: c.query.length,
    sane,
  }
}

// ---------------------------------------------------------------- invariants

interface Violation {
  category: string
  detail: string
  /** Kinds within a category, counted apart in the report. */
  sig?: string
}

const FILTER_FIELD: Record<string, string[]> = { task_id: ['scan_id'], status: ['status', 'status_name'] }

function check(bt: Built, a: RawAnswer, changed: boolean): Violation[] {
  const v: Violation[] = []
  const add = (category: string, detail: string) => v.push({ category, detail })
  const ct = a.headers['content-type']
  let json: any
  let parsed = false
  try {
    json = a.body.length ? JSON.parse(a.body.toString('utf8')) : undefined
    parsed = a.body.length > 0
  } catch {}

  if (a.status >= 500) add('5xx answer', `status ${a.status}`)
  if (a.status >= 400) {
    if (ct !== 'application/json') add('error content-type is not exactly application/json', `content-type ${JSON.stringify(ct)}`)
    const okBody =
      parsed &&
      json &&
      typeof json === 'object' &&
      !Array.isArray(json) &&
      json.status === a.status &&
      typeof json.message === 'string' &&
      json.message.trim() !== '' &&
      Object.keys(json).every((k) => ['status', 'message', 'details'].includes(k))
    if (!okBody)
      v.push({
        category: 'error body is not {status, message, details?}',
        detail: a.body.toString('utf8').slice(0, 200),
        sig: `${a.status} ${json?.code ?? json?.message ?? ''}`.slice(0, 60),
      })
  }
  if (a.status < 400 && changed === false) {
    /* nothing */
  }
  if (a.status >= 400 && changed) add('a rejected request changed rows', `status ${a.status}`)
  if (bt.defects.length && a.status < 400) {
    const kinds = [...new Set(bt.defects.map((d) => d.kind))]
    add(`malformed request accepted (${kinds.join(', ')})`, bt.defects.map((d) => d.what).join('; '))
    if (changed) add('a malformed request changed rows', bt.defects.map((d) => d.what).join('; '))
  }
  if (bt.foreignPathId && !bt.defects.length && a.status < 400)
    add("a well-formed id the caller does not own was answered 2xx (another tenant's or no row)", JSON.stringify(bt.pathIds))
  if (bt.exact && a.status < 500 && a.status !== bt.exact.status && !(bt.defects.length && a.status < 400))
    v.push({
      category: `expected ${bt.exact.status} (${bt.exact.why}), got another status`,
      detail: `got ${a.status}: ${a.body.toString('utf8').slice(0, 160)}`,
      sig: `got ${a.status}`,
    })
  if (bt.exact?.messageRe && a.status === bt.exact.status && parsed && !bt.exact.messageRe.test(String(json?.message)))
    add(`${bt.exact.status} message lacks ${bt.exact.messageRe}`, String(json?.message))
  // Content type and body ignored on routes without a body (the public client sends application/json on every request).
  if (bt.bodiless && bt.sane && !bt.defects.length && !bt.exact && !bt.queryCount && bt.body && (a.status === 400 || a.status === 415)) {
    const ctype = bt.headers.find(([k]) => k === 'content-type')?.[1] ?? ''
    if (/json|form-urlencoded/.test(ctype) && (bt.body.length === 0 || bt.bodySummary === '"{}"'))
      add(
        'a route without a body refused an empty or {} body with a JSON/form content type',
        `${a.status}: ${a.body.toString('utf8').slice(0, 160)}`,
      )
  }
  if (a.status >= 200 && a.status < 300 && a.status !== 204) {
    if (ct === 'application/json') {
      if (!parsed || !json || typeof json !== 'object' || !('data' in json))
        add('success body is not {data: ...}', a.body.toString('utf8').slice(0, 160))
    } else if (!ct || ct.startsWith('application/json')) add('success content-type missing or not exactly application/json', String(ct))
  }
  if (a.status === 200 && bt.method === 'GET' && parsed && json && typeof json === 'object') {
    const data = json.data
    const path = bt.target.split('?')[0]!.replace(/\/+/g, '/').replace(/\/$/, '')
    const segs = path.split('/')
    const coll = segs[segs.length - 1]!
    if (Array.isArray(data) && pools[bt.tenant][coll]) {
      const own = new Set((pools[bt.tenant][coll] ?? []).map(String))
      for (const item of data) {
        const id = String(item?.id ?? item?.uuid ?? item?.user_id)
        if (!own.has(id)) {
          add('a list holds a row the caller does not own', `${coll} ${id}`)
          break
        }
      }
      for (const [name, want] of Object.entries(bt.filters)) {
        const fields = FILTER_FIELD[name] ?? [name]
        for (const item of data) {
          const f = fields.find((x) => item && x in item)
          if (f && String(item[f]) !== want) {
            add('a list holds an item its filter excludes', `${name}=${want} but item ${item.id} has ${f}=${item[f]}`)
            break
          }
        }
      }
    } else if (data && typeof data === 'object' && !Array.isArray(data) && 'id' in data) {
      const idParam = Object.values(bt.pathIds)[0]
      if (idParam && String(data.id) !== idParam.text)
        add('a resource answered under another id', `asked ${JSON.stringify(idParam.text)}, got id ${data.id}`)
    }
  }
  if (({} as any).polluted !== undefined || Object.keys(Object.prototype).length)
    add('Object.prototype polluted', String(({} as any).polluted))
  return v
}

// ---------------------------------------------------------------- running

interface Outcome {
  built: Built
  answer: RawAnswer | null
  error?: string
  violations: Violation[]
}

function describeCase(bt: Built, a: RawAnswer | null, error?: string): string {
  const hdrs = bt.headers
    .map(([k, v]) => `${k}: ${v.replaceAll(T.A.key, '<key of tenant A>').replaceAll(T.B.key, '<key of tenant B>').slice(0, 120)}`)
    .join(' | ')
  const ans = a
    ? `${a.status} content-type=${JSON.stringify(a.headers['content-type'])} ${a.body.toString('utf8').slice(0, 300)}`
    : `no answer (${error})`
  return `request: ${bt.method} ${JSON.stringify(bt.target.length > 400 ? bt.target.slice(0, 400) + `… (${bt.target.length} chars)` : bt.target)}\n  headers: ${hdrs || '(none)'}\n  body: ${bt.bodySummary}\n  defects: ${bt.defects.map((d) => d.what).join('; ') || 'none'}\n  answer: ${ans}`
}

let current: { sum: string } = { sum: '' }
const timing = { request: 0, db: 0, seed: 0, probes: 0, hashes: 0, hashMs: 0 }

async function execute(c: Case): Promise<Outcome> {
  const bt = build(c)
  let answer: RawAnswer | null = null
  let error: string | undefined
  const t0 = performance.now()
  try {
    answer = await rawRequest(port, { method: bt.method, target: bt.target, headers: bt.headers, body: bt.body })
  } catch (e) {
    error = (e as Error).message
  }
  timing.request += performance.now() - t0
  const t1 = performance.now()
  const after = await snapshot()
  const changed = after.sum !== current.sum
  current = after
  if (changed) await refreshPools()
  timing.db += performance.now() - t1
  if (changed && (depleted(pools.A) || depleted(pools.B))) {
    await seed()
    await refreshPools()
    assert.ok(!depleted(pools.A) && !depleted(pools.B), 'a seed round gives each tenant targets, scans and findings')
    current = await snapshot()
  }
  const violations = answer ? check(bt, answer, changed) : [{ category: 'no answer', detail: String(error) }]
  if (({} as any).polluted !== undefined) delete (Object.prototype as any).polluted
  return { built: bt, answer, error, violations }
}

class Census {
  statuses: Record<string, number> = {}
  generated: Record<string, number> = {}
  /** Error messages with the quoted parts blanked: what the refusals were about. */
  messages: Record<string, number> = {}
  byOp: Record<string, number> = {}
  violations = new Map<string, { count: number; example: string; kinds: Record<string, number>; kindExamples: Record<string, string> }>()
  requests = 0
  add(o: Outcome, generated = false) {
    this.requests++
    const s = o.answer ? String(o.answer.status) : 'none'
    this.statuses[s] = (this.statuses[s] ?? 0) + 1
    if (generated) this.generated[s] = (this.generated[s] ?? 0) + 1
    if (o.answer && o.answer.status >= 400) {
      let m = ''
      try {
        m = String(JSON.parse(o.answer.body.toString('utf8')).message)
      } catch {}
      m = `${o.answer.status} ${m
        .replace(/"[^"]*"/g, '"…"')
        .replace(/\(got .*\)/, '(got …)')
        .replace(/\d+/g, 'N')
        .slice(0, 90)}`
      this.messages[m] = (this.messages[m] ?? 0) + 1
    }
    for (const v of o.violations) {
      let e = this.violations.get(v.category)
      if (e) e.count++
      else
        this.violations.set(
          v.category,
          (e = { count: 1, example: `${v.detail}\n  ${describeCase(o.built, o.answer, o.error)}`, kinds: {}, kindExamples: {} }),
        )
      if (v.sig) {
        e.kinds[v.sig] = (e.kinds[v.sig] ?? 0) + 1
        e.kindExamples[v.sig] ??= `${v.detail}\n  ${describeCase(o.built, o.answer, o.error)}`
      }
    }
  }
  get failing() {
    return [...this.violations.values()].reduce((n, v) => n + v.count, 0)
  }
  text() {
    const fmt = (o: Record<string, number>) =>
      Object.entries(o)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')
    const st = `${fmt(this.statuses)} (generated ones alone: ${fmt(this.generated)})`
    const vs = [...this.violations.entries()]
      .sort((a, b) => b[1].count - a[1].count)
      .map(
        ([k, v]) =>
          `- ${k}: ${v.count}${
            Object.keys(v.kinds).length
              ? ` (${Object.entries(v.kinds)
                  .map(([s, n]) => `${s}: ${n}`)
                  .join('; ')})`
              : ''
          }\n  e.g. ${v.example}`,
      )
      .join('\n')
    return `${this.requests} requests (${TEST_BACKEND}, seed ${SEED}); by status: ${st}\n${vs ? `violations by category:\n${vs}` : 'no violations'}`
  }
}

const FIXED_SPELLINGS = [
  'canonical',
  'plus',
  'minus',
  'hex',
  'exp',
  'lead0',
  'dot0',
  'space',
  'nul',
  'fullwidth',
  'raw-unicode',
  'long',
] as const

/** Known-hostile requests run on every test run, whatever the seed: each id spelling on each id route, bracket and repeated filters, big bodies. */
function fixedCases(): Case[] {
  const out: Case[] = []
  const base = (op: number): Case => ({ op, auth: 'A', route: 'as-is', path: {}, query: [], body: { t: 'none' }, accept: null })
  ops.forEach((op, i) => {
    const pathParams = op.params.filter((p) => p.in === 'path')
    const validBody = (): BodySpec => (op.body ? { t: 'json', ct: 'application/json', value: {}, defect: null } : { t: 'none' })
    for (const p of pathParams) {
      if (!isIdName(p.name, p.schema) && !isUuidName(p.name, p.schema)) continue
      for (const spelling of FIXED_SPELLINGS)
        out.push({ ...base(i), path: { [p.name]: { id: { who: 'self', pick: 0, spelling } } }, body: validBody() })
      for (const who of ['zero', 'other', 'over'] as const)
        out.push({ ...base(i), path: { [p.name]: { id: { who, pick: 0, spelling: 'canonical' } } } })
      // The public client: content type JSON and no body on every request.
      if (!op.body)
        out.push({
          ...base(i),
          path: { [p.name]: { id: { who: 'zero', pick: 0, spelling: 'canonical' } } },
          body: { t: 'text', ct: 'application/json', text: '', defect: null, label: 'empty body' },
        })
    }
    for (const q of op.params.filter((p) => p.in === 'query')) {
      const v: Scalar = isIdName(q.name, q.schema)
        ? { id: { who: 'self', pick: 0, spelling: 'canonical' } }
        : { text: q.schema?.type === 'integer' ? '-1' : 'x' }
      for (const form of ['repeat', 'bracket', 'bracket-key', 'encoded-brackets'] as const)
        out.push({
          ...base(i),
          path: Object.fromEntries(pathParams.map((p) => [p.name, { id: { who: 'self', pick: 0, spelling: 'canonical' } }])),
          query: [{ name: q.name, v, form }],
        })
      out.push({
        ...base(i),
        path: Object.fromEntries(pathParams.map((p) => [p.name, { id: { who: 'self', pick: 0, spelling: 'canonical' } }])),
        query: [{ name: q.name, v: { text: '-1' }, form: 'plain' }],
      })
    }
    if (op.body)
      out.push({
        ...base(i),
        path: Object.fromEntries(pathParams.map((p) => [p.name, { id: { who: 'self', pick: 0, spelling: 'canonical' } }])),
        body: { t: 'huge', ct: 'application/json', mb: 10 },
      })
  })
  // Put destructive routes last, so the ids the others probe still exist when they run.
  return out.sort((a, b) => Number(ops[a.op]!.method === 'DELETE') - Number(ops[b.op]!.method === 'DELETE'))
}

before(async () => {
  w = await startWard()
  T.A = { key: w.key, userId: w.userId }
  const bob = await w.user('bob')
  T.B = { key: bob.key, userId: bob.userId }
  const carol = await createUser(w.h.db, { name: 'carol', maxTargets: 10 })
  await revokeKeysByPrefix(w.h.db, keyPrefix(carol.apiKey))
  T.revokedKey = carol.apiKey
  // The first user is the instance admin; here nobody is, so both tenants are plain members of Ward.
  await w.h.db.updateTable('users').set({ is_admin: 0 }).execute()
  // No scan runs while fuzzing: a scan the fuzz starts stays waiting, and rows change only by requests.
  await w.worker?.stop()
  await seed()
  await w.app.listen({ port: 0, host: '127.0.0.1' })
  port = (w.app.server.address() as { port: number }).port
  ops = opsFrom((await w.req('GET', '/api/v2/openapi.json', { key: null })).json())
  tables = await listTables()
  if (w.h.kind === 'postgres') await watchWrites()
  await refreshPools()
  assert.ok(!depleted(pools.A) && !depleted(pools.B), 'the seed gives each tenant targets, scans and findings')
  current = await snapshot()
})
after(async () => {
  side?.close()
  await w.close()
})

test(`fuzz every route of the OpenAPI document (${RUNS} generated requests, seed ${SEED})`, { timeout: TIMEOUT_MS }, async (t) => {
  assert.ok(ops.length >= 20, `the OpenAPI document lists ${ops.length} operations`)
  const started = Date.now()
  const census = new Census()
  for (const c of fixedCases()) census.add(await execute(c))
  const fixedCount = census.requests
  const arb = caseArb(ops)
  let index = 0
  let firstFailing = -1
  const run = await fc.check(
    fc.asyncProperty(arb, async (c) => {
      const o = await execute(c)
      census.add(o, true)
      if (o.violations.length && firstFailing < 0) firstFailing = index
      index++
      return true
    }),
    { seed: SEED, numRuns: RUNS },
  )
  // The property never fails on a violation (they are counted): a failure here is the harness's own.
  if (run.failed) throw run.errorInstance
  const seconds = (Date.now() - started) / 1000
  const summary = `${census.text()}\n(${fixedCount} fixed + ${RUNS} generated requests in ${seconds.toFixed(1)} s over ${ops.length} operations; ${(timing.request / 1000).toFixed(1)} s waiting for answers, ${(timing.db / 1000).toFixed(1)} s reading the database, ${(timing.seed / 1000).toFixed(1)} s seeding in ${seedRound} rounds)`
  t.diagnostic(summary)
  if (process.env.WARD_FUZZ_REPORT)
    fs.writeFileSync(
      process.env.WARD_FUZZ_REPORT,
      JSON.stringify(
        {
          backend: TEST_BACKEND,
          seed: SEED,
          runs: RUNS,
          fixed: fixedCount,
          seconds,
          timing,
          generated: census.generated,
          messages: Object.fromEntries(Object.entries(census.messages).sort((a, b) => b[1] - a[1])),
          statuses: census.statuses,
          violations: Object.fromEntries([...census.violations].map(([k, v]) => [k, v])),
        },
        null,
        2,
      ),
    )
  if (!census.failing) return
  // Replay the first failing generated request and shrink it to a minimal counterexample.
  let minimal = 'the generated requests found nothing; the violations come from the fixed cases above'
  if (firstFailing >= 0) {
    const d = await fc.check(
      fc.asyncProperty(arb, async (c) => {
        const o = await execute(c)
        if (o.violations.length)
          throw new Error(`${o.violations.map((v) => v.category).join('; ')}\n  ${describeCase(o.built, o.answer, o.error)}`)
      }),
      { seed: SEED, path: String(firstFailing), numRuns: RUNS, interruptAfterTimeLimit: 60000 },
    )
    minimal = d.failed
      ? `minimal counterexample (seed ${SEED}, path ${d.counterexamplePath}):\n  ${String((d.errorInstance as Error)?.message ?? d.errorInstance)}`
      : `run ${firstFailing} did not fail again on replay`
  }
  assert.fail(`${summary}\n\n${minimal}`)
})

test('names inherited from Object.prototype are no parameters of a route', async () => {
  for (const name of ['__proto__', 'constructor', 'toString']) {
    const r = await w.req('GET', `/api/v2/targets?${name}[]=1`)
    assert.equal(r.statusCode, 400)
    assert.match(r.json().message, /is not accepted here; this route takes/, name)
  }
})
