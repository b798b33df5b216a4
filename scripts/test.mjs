// `npm test`: lint, type check, build dist/ when stale (for the tests that start `ward` processes), then every test/**/*.test.ts with node's test runner (tsx loads TypeScript)
// on SQLite, then the database-touching files again on PostgreSQL (WARD_TEST_BACKEND=postgres) when
// WARD_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) answers.
// Arguments narrow the run to files whose path contains any of them: `npm test -- targets scans`.
// WARD_TEST_BACKENDS=sqlite (or postgres) runs one backend only.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { ensureBuilt } from './build.mjs'
import { ensureChromium } from './ensure-chromium.mjs'

const filters = process.argv.slice(2)
const walk = (dir) => readdirSync(dir).flatMap((n) => {
  const p = join(dir, n)
  return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : []
})
const files = walk('test').filter((f) => !filters.length || filters.some((x) => f.includes(x))).sort()
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

const pgUrl = process.env.WARD_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
const only = process.env.WARD_TEST_BACKENDS
const redact = (u) => u.replace(/\/\/[^@/]*@/, '//***@')

// Files that boot a Ward through test/helpers/ward.ts touch the database and run on both backends;
// a file saying "ward-test: single-run" picks its own backend and runs once.
const dbFiles = files.filter((f) => {
  const src = readFileSync(f, 'utf8')
  return src.includes('startWard(') && !src.includes('ward-test: single-run')
})

function runNode(label, list, env) {
  console.log(`\n=== ${label}: ${list.length} test file(s) ===\n`)
  const concurrency = process.env.WARD_TEST_CONCURRENCY ?? '3'
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=180000', '--test-reporter=spec', ...list], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ...env },
  })
  return r.status ?? 1
}

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

const ran = []
let failed = false
if (only !== 'postgres') {
  const status = runNode('SQLite', files, { WARD_TEST_BACKEND: 'sqlite' })
  ran.push(`sqlite: ${status === 0 ? 'passed' : 'FAILED'} (${files.length} files)`)
  failed ||= status !== 0
}
if (only !== 'sqlite') {
  if (!dbFiles.length) ran.push('postgres: skipped — none of the selected test files touches the database')
  else {
    const why = await pgReachable(pgUrl)
    if (why) ran.push(`postgres: SKIPPED — ${redact(pgUrl)} is not reachable (${why}); set WARD_TEST_DATABASE_URL or start the server`)
    else {
      const status = runNode(`PostgreSQL (${redact(pgUrl)})`, dbFiles, { WARD_TEST_BACKEND: 'postgres', WARD_TEST_DATABASE_URL: pgUrl })
      ran.push(`postgres: ${status === 0 ? 'passed' : 'FAILED'} (${dbFiles.length} database files)`)
      failed ||= status !== 0
    }
  }
}
console.log(`\n=== backends ===\n${ran.map((l) => `  ${l}`).join('\n')}\n`)
process.exit(failed ? 1 : 0)
