// `npm run bench -- seed --findings 1000000 [--idle-targets 100000] [--db sqlite:./.tmp/bench.db | postgres://...] [--fresh]`
// Fills a database with realistic users, workspaces, targets, terminal scans, tests and findings.
// Findings are built by buildFinding from real catalogue checks; every target has a stable "profile"
// of issues that its repeated scans find again, so most findings are duplicates (same dedup_key)
// of earlier ones, as in a workspace that holds years of scans. Bulk multi-row inserts (sized by store/bulk-insert.ts), one
// transaction per batch of scans; explicit ids so tests and findings can point at each other.
import fs from 'node:fs'
import { sql } from 'kysely'
import { openDatabase, type Db } from '../src/store/db.js'
import { createUser, createWorkspace } from '../src/store/accounts.js'
import { buildFinding } from '../src/domain/findings.js'
import { encodeFinding } from '../src/store/finding-rows.js'
import { insertRows } from '../src/store/bulk-insert.js'
import { loadKevSnapshot } from '../src/domain/kev.js'
import { textEvidence } from '../src/toolkit/evidence.js'
import type { Check } from '../src/toolkit/check.js'
import { portScannerChecks } from '../src/tools/port-scanner/checks.js'
import { websiteScannerChecks } from '../src/tools/website-scanner/checks.js'
import { urlFuzzerChecks } from '../src/tools/url-fuzzer/checks.js'
import type { FindingInput } from '../src/toolkit/tool.js'
import type { Insertable } from 'kysely'
import type { NewFinding, NewScan, TargetsTable, TestsTable } from '../src/store/schema.js'
import { DEFAULT_BENCH_DB, dbConfigOf, fmt, parseArgs } from './_shared.js'

export const BENCH_USER = 'bench'

/** Deterministic PRNG (mulberry32): the same arguments seed the same database. */
function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface SeedTarget {
  id: number
  workspaceId: number
  userId: number
  name: string
  type: 'hostname' | 'ip_address' | 'url'
  toolId: number
  profile: FindingInput[]
}

const PORTS: Array<[number, string]> = [
  [21, 'ftp'],
  [22, 'ssh'],
  [23, 'telnet'],
  [80, 'http'],
  [443, 'https'],
  [3306, 'mysql'],
  [5432, 'postgresql'],
  [6379, 'redis'],
  [3389, 'ms-wbt-server'],
  [5900, 'vnc'],
  [445, 'microsoft-ds'],
  [2375, 'docker'],
  [8080, 'http-proxy'],
  [8443, 'https-alt'],
  [25, 'smtp'],
]
const PATHS = [
  '/',
  '/login',
  '/admin',
  '/api/v1/users',
  '/search',
  '/account/settings',
  '/cart',
  '/static/app.js',
  '/.git/HEAD',
  '/backup.zip',
  '/config.php.bak',
  '/debug',
  '/wp-admin/',
  '/reports',
  '/upload',
]

/** The issues a target has: what each of its scans finds again (most of them, each time). */
function profileFor(t: Pick<SeedTarget, 'name' | 'type'>, size: number, rand: () => number): FindingInput[] {
  const out: FindingInput[] = []
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!
  for (let i = 0; i < size; i++) {
    if (t.type === 'url') {
      const check: Check = rand() < 0.7 ? pick(websiteScannerChecks) : pick(urlFuzzerChecks)
      const p = pick(PATHS) + (rand() < 0.5 ? `?page=${i}` : '')
      out.push({
        check,
        url: `${t.name.replace(/\/$/, '')}${p}`,
        location: rand() < 0.3 ? `parameter q${i}` : undefined,
        port: 443,
        protocol: 'tcp',
        service: 'https',
        detail: `Seen on ${p}.`,
        evidence: textEvidence(`GET ${p} HTTP/1.1\nHost: ${t.name}`),
      })
    } else {
      const [port, service] = PORTS[i % PORTS.length]!
      const check: Check = i < PORTS.length ? portScannerChecks[0] : pick(portScannerChecks)
      out.push({
        check,
        port: port + Math.floor(i / PORTS.length) * 10000,
        protocol: 'tcp',
        service,
        detail: `${service} answered on port ${port}.`,
      })
    }
  }
  return out
}

const isoAt = (ms: number) => new Date(ms).toISOString()

async function nextId(db: Db, table: 'scans' | 'tests' | 'findings') {
  const r = await db
    .selectFrom(table)
    .select((e) => e.fn.max('id').as('m'))
    .executeTakeFirstOrThrow()
  return Number(r.m ?? 0) + 1
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const totalFindings = Number(a.get('findings') ?? 1_000_000)
  const url = a.get('db') ?? DEFAULT_BENCH_DB
  const cfg = dbConfigOf(url)
  if (cfg.kind === 'sqlite' && fs.existsSync(cfg.file)) {
    if (a.get('fresh') === 'false') console.log(`adding to ${cfg.file}`)
    else for (const f of [cfg.file, `${cfg.file}-wal`, `${cfg.file}-shm`]) fs.rmSync(f, { force: true })
  }
  const h = await openDatabase(cfg)
  const db = h.db
  if (cfg.kind === 'sqlite') {
    // Bulk load: a large page cache keeps the index B-trees (dedup_key is a random hash) in memory;
    // a crash mid-seed only loses a throw-away benchmark database.
    await sql`PRAGMA cache_size = -524288`.execute(db)
    await sql`PRAGMA synchronous = OFF`.execute(db)
  }
  if (cfg.kind === 'postgres' && a.get('fresh') !== 'false') {
    await sql`TRUNCATE users, api_keys, workspaces, targets, scans, tests, findings, scan_logs RESTART IDENTITY CASCADE`.execute(db)
  }
  const rand = rng(Number(a.get('seed') ?? 42))
  const kev = loadKevSnapshot()
  const started = performance.now()

  // Users: one big tenant (the benchmark's caller) and a few small ones, so tenancy filters matter.
  const main = await createUser(db, { name: BENCH_USER, maxTargets: 1_000_000 })
  const archiveWs = await createWorkspace(db, main.userId, 'Archive')
  const others = []
  for (let i = 1; i <= 9; i++) others.push(await createUser(db, { name: `tenant-${i}`, maxTargets: 1000 }))

  // Targets: ~1 per 5,000 findings for the big tenant (≥ 20), 5 for each small tenant.
  const mainTargets = Math.max(20, Math.round(totalFindings / 5000))
  const targets: SeedTarget[] = []
  const types = ['hostname', 'ip_address', 'url'] as const
  const now = new Date().toISOString()
  const targetRows: Insertable<TargetsTable>[] = []
  let tid =
    1 +
    Number(
      (
        await db
          .selectFrom('targets')
          .select((e) => e.fn.max('id').as('m'))
          .executeTakeFirstOrThrow()
      ).m ?? 0,
    )
  const addTarget = (userId: number, workspaceId: number, i: number, weight: number) => {
    const type = types[i % 3]!
    const name =
      type === 'hostname'
        ? `host-${userId}-${i}.example.com`
        : type === 'ip_address'
          ? `10.${userId % 256}.${(i >> 8) & 255}.${i & 255}`
          : `https://app-${userId}-${i}.example.com/`
    const t: SeedTarget = { id: tid++, workspaceId, userId, name, type, toolId: type === 'url' ? (i % 2 ? 170 : 90) : 70, profile: [] }
    t.profile = profileFor(t, 15 + Math.floor(rand() * 40), rand)
    for (let w = 0; w < weight; w++) targets.push(t)
    targetRows.push({
      id: t.id,
      workspace_id: workspaceId,
      user_id: userId,
      name,
      name_key: name.toLowerCase(),
      type,
      description: `Seeded ${type} ${i}`,
      created_at: now,
    })
  }
  for (let i = 0; i < mainTargets; i++) addTarget(main.userId, i % 10 === 9 ? archiveWs : main.workspaceId, i, 10)
  for (const o of others) for (let i = 0; i < 5; i++) addTarget(o.userId, o.workspaceId, i, 1)
  // Targets never scanned (--idle-targets): a big targets table for the write-path benchmarks,
  // without changing how the findings spread over the scanned targets.
  const idle = Number(a.get('idle-targets') ?? 0)
  for (let i = 0; i < idle; i++) {
    const name = `idle-${i}.example.net`
    targetRows.push({
      id: tid++,
      workspace_id: main.workspaceId,
      user_id: main.userId,
      name,
      name_key: name,
      type: 'hostname',
      description: '',
      created_at: now,
    })
  }
  await db.transaction().execute(async (trx) => {
    await insertRows(trx, 'targets', targetRows)
    // Rows written directly: the users' target counters (migration 015) follow them here.
    await sql`UPDATE users SET target_count = (SELECT COUNT(*) FROM targets WHERE targets.user_id = users.id)`.execute(trx)
  })

  let scanId = await nextId(db, 'scans')
  let testId = await nextId(db, 'tests')
  let findingId = await nextId(db, 'findings')
  const firstFindingId = findingId
  // Scans are spread over three years, oldest first (ids grow with time, as in real use).
  const spanMs = 3 * 365 * 86400_000
  const t0 = Date.now() - spanMs
  const estScans = Math.ceil(totalFindings / 30)
  let made = 0
  let scans = 0
  let tests = 0
  let lastReport = performance.now()
  const statuses = [
    'finished',
    'finished',
    'finished',
    'finished',
    'finished',
    'finished',
    'finished',
    'stopped',
    'timed out',
    'connection error',
  ] as const

  while (made < totalFindings) {
    const scanRows: NewScan[] = []
    const testRows: Insertable<TestsTable>[] = []
    const findingRows: NewFinding[] = []
    while (findingRows.length < 20000 && made + findingRows.length < totalFindings) {
      const t = targets[Math.floor(rand() * targets.length)]!
      const status = statuses[Math.floor(rand() * statuses.length)]!
      const start = t0 + Math.floor((scans / estScans) * spanMs)
      const sid = scanId++
      scans++
      // Tests: one per phase; findings are spread over the first ones.
      const nTests = 3 + Math.floor(rand() * 5)
      const tIds: number[] = []
      for (let k = 0; k < nTests; k++) {
        const id = testId++
        tIds.push(id)
        testRows.push({
          id,
          scan_id: sid,
          name: `Phase ${k + 1}`,
          description: `Checks of phase ${k + 1} for ${t.name}`,
          status: 'finished',
          result: 'passed',
          message: null,
          start_time: isoAt(start + k * 1000),
          end_time: isoAt(start + k * 1000 + 900),
        })
      }
      tests += nTests
      const counts = [0, 0, 0, 0, 0]
      const remaining = totalFindings - made - findingRows.length
      // Each scan finds 80-100% of the target's known issues again, plus sometimes a new one.
      const found = t.profile.filter(() => rand() < 0.9)
      if (rand() < 0.2) found.push({ ...t.profile[0]!, location: `new issue ${sid}` })
      for (const f of found.slice(0, remaining)) {
        const k = Math.floor(rand() * nTests)
        const row = buildFinding(
          f,
          {
            scanId: sid,
            targetId: t.id,
            workspaceId: t.workspaceId,
            testId: tIds[k]!,
            testDescription: testRows[testRows.length - nTests + k].description,
            now: isoAt(start + 500),
          },
          kev,
        )
        row.test_finished = true
        if (rand() < 0.05) row.status = 'fixed'
        counts[row.risk_level]!++
        testRows[testRows.length - nTests + k].result = 'failed'
        findingRows.push({ id: findingId++, ...encodeFinding(row) } as NewFinding)
      }
      scanRows.push({
        id: sid,
        workspace_id: t.workspaceId,
        target_id: t.id,
        user_id: t.userId,
        tool_id: t.toolId,
        status,
        status_message: status === 'finished' ? null : `Seeded ${status}`,
        vpn_profile_uuid: null,
        vpn_scan: 0,
        progress: status === 'finished' ? 100 : 40,
        num_tests: nTests,
        num_finished_tests: nTests,
        max_scan_time: 60,
        scan_original_url: 0,
        redirect_level: 'same_domain',
        report_callback: null,
        tool_params: '{}',
        output_data: JSON.stringify({ seeded: true, findings: found.length }),
        count_info: counts[0]!,
        count_low: counts[1]!,
        count_medium: counts[2]!,
        count_high: counts[3]!,
        count_critical: counts[4]!,
        created_at: isoAt(start - 2000),
        start_time: isoAt(start),
        end_time: isoAt(start + nTests * 1000),
        lease_owner: null,
        lease_expires_at: null,
        stop_requested: 0,
        attempts: 1,
      } as NewScan)
    }
    await db.transaction().execute(async (trx) => {
      // Statements sized from each table's column count (findings: 33 columns, ~990 rows on SQLite).
      await insertRows(trx, 'scans', scanRows)
      await insertRows(trx, 'tests', testRows)
      await insertRows(trx, 'findings', findingRows)
    })
    made += findingRows.length
    if (performance.now() - lastReport > 5000) {
      lastReport = performance.now()
      console.log(`  ${fmt(made)} findings, ${fmt(made / ((performance.now() - started) / 1000))} findings/s`)
    }
  }
  if (cfg.kind === 'postgres') {
    // Explicit ids leave the identity sequences behind: move them past the seeded rows.
    for (const t of ['targets', 'scans', 'tests', 'findings'])
      await sql`SELECT setval(pg_get_serial_sequence(${t}, 'id'), (SELECT COALESCE(MAX(id), 1) FROM ${sql.table(t)}))`.execute(db)
    await sql`ANALYZE`.execute(db)
  } else await sql`ANALYZE`.execute(db)
  const secs = (performance.now() - started) / 1000
  const rows = targetRows.length + scans + tests + made
  const groups = await db
    .selectFrom('findings')
    .select((e) => e.fn.count<number>('dedup_key').distinct().as('n'))
    .where('id', '>=', firstFindingId)
    .executeTakeFirstOrThrow()
  await h.close()
  console.log(
    `seeded ${url}: ${fmt(targetRows.length)} targets, ${fmt(scans)} scans, ${fmt(tests)} tests, ${fmt(made)} findings (${fmt(Number(groups.n))} distinct dedup keys) in ${fmt(secs, 1)} s`,
  )
  console.log(`${fmt(rows / secs)} rows/s (${fmt(made / secs)} findings/s)`)
  console.log(`API key of user "${BENCH_USER}" (user ${main.userId}, workspace ${main.workspaceId}): ${main.apiKey}`)
}
