// Runs test files in one pool of `concurrency` lanes, each file in its own `node --test` process with
// its own environment, so the SQLite and the PostgreSQL runs share the lanes: the second backend's
// files start while the first's last ones finish, instead of after. Files start longest first (times
// from scripts/test-durations.json, measured), so the long ones do not begin at the end and leave
// the other lanes idle. A file's output is printed in one block when it ends, never interleaved.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

export const DURATIONS_FILE = new URL('./test-durations.json', import.meta.url)
const UNKNOWN_SECONDS = 10

/** Seconds each file took on the last measured run (relative figures: only the order matters). */
export function knownDurations() {
  return existsSync(DURATIONS_FILE) ? JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) : {}
}

function runFile(job) {
  const started = performance.now()
  const args = ['--import', 'tsx', '--test', '--test-timeout=180000', '--test-reporter=spec', job.file]
  const child = spawn(process.execPath, args, { env: { ...process.env, ...job.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const chunks = []
  child.stdout.on('data', (d) => chunks.push(d))
  child.stderr.on('data', (d) => chunks.push(d))
  return new Promise((resolve) => {
    child.on('error', (e) => chunks.push(Buffer.from(`could not start node: ${e.message}\n`)))
    child.on('close', (code, signal) => {
      resolve({
        ...job,
        ok: code === 0,
        exit: code ?? signal,
        seconds: (performance.now() - started) / 1000,
        output: Buffer.concat(chunks).toString(),
      })
    })
  })
}

/**
 * Runs `jobs` ({ label, file, env }) `concurrency` at a time, longest expected first; resolves with
 * each job's result ({ ...job, ok, exit, seconds }) in the order they ended.
 */
export async function runPool(jobs, concurrency) {
  const known = knownDurations()
  const expected = (j) => known[j.file] ?? UNKNOWN_SECONDS
  const queue = [...jobs].sort((a, b) => expected(b) - expected(a) || a.file.localeCompare(b.file))
  const results = []
  // A file never runs on two backends at once: its test beds bind fixed loopback addresses and ports.
  const busy = new Set()
  let wake = () => {}
  const take = () => {
    const i = queue.findIndex((j) => !busy.has(j.file))
    return i < 0 ? undefined : queue.splice(i, 1)[0]
  }
  const lane = async () => {
    while (queue.length) {
      const job = take()
      if (!job) {
        await new Promise((r) => {
          const prev = wake
          wake = () => {
            prev()
            r()
          }
        })
        continue
      }
      busy.add(job.file)
      const r = await runFile(job)
      busy.delete(job.file)
      const w = wake
      wake = () => {}
      w()
      process.stdout.write(
        `\n── ${r.label} · ${r.file} · ${r.seconds.toFixed(1)} s · ${r.ok ? 'passed' : `FAILED (exit ${r.exit})`} ──\n${r.output}`,
      )
      results.push(r)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane))
  return results
}

/** The slowest files of a run, for the summary; with WARD_TEST_DURATIONS_UPDATE=1 they replace the measured times. */
export function reportDurations(results) {
  const byFile = {}
  for (const r of results) byFile[r.file] = Math.max(byFile[r.file] ?? 0, r.seconds)
  const slowest = Object.entries(byFile)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
  console.log(`\n=== slowest files ===\n${slowest.map(([f, s]) => `  ${s.toFixed(1).padStart(6)} s  ${f}`).join('\n')}`)
  if (process.env.WARD_TEST_DURATIONS_UPDATE === '1') {
    const merged = { ...knownDurations(), ...Object.fromEntries(Object.entries(byFile).map(([f, s]) => [f, Math.round(s * 10) / 10])) }
    const sorted = Object.fromEntries(Object.entries(merged).sort((a, b) => a[0].localeCompare(b[0])))
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`)
    console.log(`  (written to scripts/test-durations.json)`)
  }
}
