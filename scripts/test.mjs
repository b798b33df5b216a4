// `npm test`: lint, type check, build dist/ when stale (for the tests that start `ward` processes), then every test/**/*.test.ts with node's test runner (tsx loads TypeScript)
// on SQLite, and the database-touching files (not web/, tools/) again on PostgreSQL (WARD_TEST_BACKEND=postgres) when
// WARD_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) answers; both backends'
// files share one pool of WARD_TEST_CONCURRENCY lanes, longest first (scripts/test-pool.mjs).
// Arguments narrow the run to files whose path contains any of them: `npm test -- targets scans`.
// WARD_TEST_BACKENDS=sqlite (or postgres) runs one backend only.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { availableParallelism } from 'node:os'
import pg from 'pg'
import { ensureBuilt } from './build.mjs'
import { ensureChromium, ensurePdftotext } from './ensure-chromium.mjs'
import { reportDurations, runPool } from './test-pool.mjs'

const filters = process.argv.slice(2)
const walk = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : []
  })
const files = walk('test')
  .filter((f) => !filters.length || filters.some((x) => f.includes(x)))
  .sort()
if (!files.length) {
  console.error('no test files match', filters)
  process.exit(1)
}

// The whole suite (CI) lints first, then type checks: both fail fast, before any test starts.
if (!filters.length || process.env.WARD_LINT === '1') {
  const lint = spawnSync('npm', ['run', '--silent', 'lint'], { stdio: 'inherit' })
  if (lint.status !== 0) {
    console.error('lint failed (npm run lint): fix the diagnostics above; `npx biome lint --write` applies the safe fixes')
    process.exit(lint.status ?? 1)
  }
}

if (!filters.length || process.env.WARD_TYPECHECK === '1') {
  const tsc = spawnSync('node_modules/.bin/tsc', ['--noEmit', '-p', '.'], { stdio: 'inherit' })
  if (tsc.status !== 0) {
    console.error('type check failed')
    process.exit(tsc.status ?? 1)
  }
}

// Files that start `ward` processes run bin/ward.js, i.e. the compiled dist/: build it once here when
// stale, rather than in the first of many processes the tests spawn at once.
if (files.some((f) => /bin\/ward\.js|helpers\/processes/.test(readFileSync(f, 'utf8')))) await ensureBuilt()

// Browser tests need Debian's chromium: installed here when missing (as root), else they say why they skip.
if (files.some((f) => f.startsWith('test/web/') && readFileSync(f, 'utf8').includes('playwright-core'))) {
  const why = ensureChromium()
  if (why) console.log(`browser tests: ${why}`)
}
// Tests that read a PDF's text need poppler-utils' pdftotext: installed the same way.
if (files.some((f) => readFileSync(f, 'utf8').includes("'pdftotext'"))) {
  const why = ensurePdftotext()
  if (why) console.log(`PDF text checks: ${why}`)
}

const pgUrl = process.env.WARD_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
const only = process.env.WARD_TEST_BACKENDS
const redact = (u) => u.replace(/\/\/[^@/]*@/, '//***@')

// Files that boot a Ward through test/helpers/ward.ts touch the database and run on both backends;
// a file saying "ward-test: single-run" picks its own backend and runs once. The web pages' and the
// tools' files run on SQLite only (WARD_TEST_PG_ALL=1 runs them on PostgreSQL too): what they do in
// the database goes through the store functions the api, store, engine, reports and cli files run on
// PostgreSQL, and on two cores their second pass cost CI ~2 of its 20 minutes.
const SQLITE_ONLY_DIRS = /^test\/(web|tools)\//
const dbTouching = files.filter((f) => {
  const src = readFileSync(f, 'utf8')
  return src.includes('startWard(') && !src.includes('ward-test: single-run')
})
const dbFiles = process.env.WARD_TEST_PG_ALL === '1' ? dbTouching : dbTouching.filter((f) => !SQLITE_ONLY_DIRS.test(f))

async function pgReachable(url) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await c.connect()
    await c.query('select 1')
    return null
  } catch (e) {
    return e.message || String(e)
  } finally {
    await c.end().catch(() => {})
  }
}

// Test schemas left by runs that were killed (each file drops its own when it ends). Only on CI,
// where no other run shares the database: a developer's parallel runs keep theirs.
async function dropLeftoverSchemas(url) {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const { rows } = await c.query(`select nspname from pg_namespace where nspname like 'ward\\_t\\_%'`)
    for (const { nspname } of rows) await c.query(`drop schema if exists "${nspname}" cascade`)
    if (rows.length) console.log(`postgres: dropped ${rows.length} test schema(s) left by earlier runs`)
  } finally {
    await c.end().catch(() => {})
  }
}

const backendLines = []
const jobs = []
const baseEnv = { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' }
if (only !== 'postgres') jobs.push(...files.map((file) => ({ label: 'sqlite', file, env: { ...baseEnv, WARD_TEST_BACKEND: 'sqlite' } })))
if (only !== 'sqlite') {
  const sqliteOnly = dbTouching.length - dbFiles.length
  if (sqliteOnly) backendLines.push(`postgres: ${sqliteOnly} web and tool files run on SQLite only (WARD_TEST_PG_ALL=1 runs them here too)`)
  if (!dbFiles.length) backendLines.push('postgres: skipped — none of the selected test files touches the database')
  else {
    const why = await pgReachable(pgUrl)
    if (!why && process.env.CI === 'true') await dropLeftoverSchemas(pgUrl)
    if (why)
      backendLines.push(`postgres: SKIPPED — ${redact(pgUrl)} is not reachable (${why}); set WARD_TEST_DATABASE_URL or start the server`)
    else
      jobs.push(
        ...dbFiles.map((file) => ({
          label: 'postgres',
          file,
          env: { ...baseEnv, WARD_TEST_BACKEND: 'postgres', WARD_TEST_DATABASE_URL: pgUrl },
        })),
      )
  }
}

// Most test time is spent waiting (sockets, timeouts, processes starting), not computing: two
// files per CPU keep the CPUs busy; at least 3 (as before), at most 6 (process-starting files
// running together would then slow one another past their deadlines).
const concurrency = Number(process.env.WARD_TEST_CONCURRENCY ?? Math.min(6, Math.max(3, 2 * availableParallelism())))
const counts = (label) => jobs.filter((j) => j.label === label).length
console.log(
  `\n=== ${jobs.length} test file run(s), ${concurrency} at a time: SQLite ${counts('sqlite')}, PostgreSQL (${redact(pgUrl)}) ${counts('postgres')} ===`,
)
const results = await runPool(jobs, concurrency)
const failed = results.filter((r) => !r.ok)
const passLines = []
for (const label of ['sqlite', 'postgres']) {
  const n = counts(label)
  if (!n) continue
  const bad = failed.filter((r) => r.label === label)
  passLines.push(
    `${label}: ${bad.length ? `FAILED (${bad.length} of ${n} files: ${bad.map((r) => r.file).join(', ')})` : `passed (${n} ${label === 'postgres' ? 'database ' : ''}files)`}`,
  )
}
reportDurations(results)
// The runner's summary over every file: each file's own `ℹ tests/pass/fail/skipped` lines, added up.
const total = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0 }
for (const r of results) for (const [, k, n] of r.output.matchAll(/^ℹ (tests|pass|fail|cancelled|skipped) (\d+)$/gm)) total[k] += Number(n)
console.log(
  `\n=== summary ===\n  ${Object.entries(total)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')} (${results.length} file runs)`,
)
console.log(`\n=== backends ===\n${[...passLines, ...backendLines].map((l) => `  ${l}`).join('\n')}\n`)
process.exit(failed.length ? 1 : 0)
