// Compiles src/ to dist/ with tsc (tsconfig.build.json, source maps) and copies the files under src/
// that are not TypeScript (KEV snapshot, PDF fonts, fuzzer wordlists) to the same places in dist/,
// where the code finds them beside itself (new URL('./x', import.meta.url)).
// `node scripts/build.mjs` builds (npm's prepare runs it on `npm install`); `--if-stale` builds only
// when dist/ is missing or older than a source file. bin/ward.js and the test runner call ensureBuilt().
// Concurrent callers (tests spawn many ward processes) take turns through a lock directory; the
// build is written to a fresh directory and renamed into place, so no one ever runs a half-built dist/.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureNative } from './build-native.mjs'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SRC = join(ROOT, 'src')
const DIST = join(ROOT, 'dist')
const STAMP = join(DIST, '.build-stamp')
export const LOCK = join(ROOT, '.build.lock')
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => join(ROOT, f))
const LOCK_STALE_MS = 5 * 60_000

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
}

/** Whether dist/ is missing or any source (or build setting) changed after the last build. */
export function isStale() {
  if (!existsSync(STAMP)) return true
  const built = statSync(STAMP).mtimeMs
  return [...files(SRC), ...INPUTS.filter((f) => existsSync(f))].some((f) => statSync(f).mtimeMs > built)
}

function compile() {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  if (!existsSync(tsc))
    throw new Error('dist/ is missing or stale and TypeScript is not installed: run `npm install` (with dev dependencies) to build Ward')
  // The stamp carries the time the compile began: a source saved while tsc runs is newer than it,
  // so the next check rebuilds instead of trusting a dist/ made from the older file.
  const began = new Date()
  const out = join(ROOT, `dist.new-${process.pid}`)
  rmSync(out, { recursive: true, force: true })
  const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out], { stdio: 'inherit' })
  if (r.status !== 0) {
    rmSync(out, { recursive: true, force: true })
    throw new Error(`tsc failed (exit ${r.status}); dist/ was left as it was`)
  }
  for (const f of files(SRC).filter((f) => !/\.[cm]?ts$/.test(f))) {
    const to = join(out, relative(SRC, f))
    mkdirSync(join(to, '..'), { recursive: true })
    cpSync(f, to)
  }
  writeFileSync(join(out, '.build-stamp'), `${began.toISOString()}\n`)
  utimesSync(join(out, '.build-stamp'), began, began)
  rmSync(DIST, { recursive: true, force: true })
  renameSync(out, DIST)
}

function tryLock() {
  try {
    mkdirSync(LOCK)
    writeFileSync(join(LOCK, 'pid'), String(process.pid))
    return true
  } catch (e) {
    if (e.code !== 'EEXIST') throw e
    if (lockHolderGone()) rmSync(LOCK, { recursive: true, force: true })
    return false
  }
}

/**
 * Whether the build lock was left by a builder that is gone: a `ward` stopped (Ctrl-C, kill) while it
 * compiled never reaches its `finally`, and the next start would wait LOCK_STALE_MS for nothing.
 * The holder writes its pid in the lock; a lock without one is being taken (or predates the pid).
 */
export function lockHolderGone() {
  try {
    if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) return true
    const pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'))
    if (!pid) return false
    process.kill(pid, 0)
    return false
  } catch (e) {
    return e.code === 'ESRCH'
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Builds dist/ unless it is up to date (or `force`); waits while another process builds. */
export async function ensureBuilt({ force = false, quiet = false } = {}) {
  ensureNative({ quiet })
  for (;;) {
    if (!force && !isStale()) return false
    if (tryLock()) {
      try {
        if (!force && !isStale()) return false
        if (!quiet) process.stderr.write('ward: compiling src/ to dist/ ...\n')
        compile()
        return true
      } finally {
        rmSync(LOCK, { recursive: true, force: true })
      }
    }
    await sleep(200)
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureBuilt({ force: !process.argv.includes('--if-stale') }).catch((e) => {
    process.stderr.write(`build: ${e.message}\n`)
    process.exit(1)
  })
}
