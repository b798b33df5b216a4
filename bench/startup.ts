// `npm run bench -- startup [--runs 5] [--idle-ms 5000] [--mode dist|tsx|start|both|a,b]`
// Start-up cost of `ward all` on a fresh SQLite database: time from spawning the process to the
// first answer of GET /api/v2/openapi.json, and the resident set size once it has idled
// `--idle-ms`. `dist` runs bin/ward.js (compiled JavaScript; it builds first only when dist/ is
// missing or stale, so build beforehand); `tsx` runs the TypeScript sources through the tsx loader,
// as Ward did before it was compiled; `start` is `npm start`'s command (dist with Ward's V8 flags).
import fs from 'node:fs'
import os from 'node:os'
import net from 'node:net'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { fmt, machine, parseArgs, rssOf, stopChild } from './_shared.js'

const ROOT = path.resolve(import.meta.dirname, '..')
const START_FLAGS = ['--max-semi-space-size=2']
const COMMANDS = {
  dist: [path.join(ROOT, 'bin/ward.js'), 'all'],
  /** What `npm start` and the `ward` command run: V8's young generation capped at 2 MB per semi-space. */
  start: [...START_FLAGS, path.join(ROOT, 'bin/ward.js'), 'all'],
  tsx: ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'all'],
} as const
type Mode = keyof typeof COMMANDS

async function freePort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))
  const port = (s.address() as net.AddressInfo).port
  await new Promise((r) => s.close(r))
  return port
}

async function once(mode: Mode, idleMs: number): Promise<{ firstAnswerMs: number; rss: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-startup-'))
  const port = await freePort()
  const env = {
    ...process.env,
    WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    WARD_INITIAL_API_KEY: 'ward_startupbenchkey0000000000000000',
  }
  const t0 = performance.now()
  const child = spawn(process.execPath, [...COMMANDS[mode]], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
  try {
    let firstAnswerMs = -1
    while (firstAnswerMs < 0) {
      if (child.exitCode !== null) throw new Error(`ward (${mode}) exited with ${child.exitCode}`)
      if (performance.now() - t0 > 60000) throw new Error(`ward (${mode}) did not answer within 60 s`)
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/v2/openapi.json`)
        await r.arrayBuffer()
        if (r.status === 200) firstAnswerMs = performance.now() - t0
      } catch {
        await new Promise((r) => setTimeout(r, 10))
      }
    }
    await new Promise((r) => setTimeout(r, idleMs))
    return { firstAnswerMs, rss: await rssOf(child.pid!) }
  } finally {
    await stopChild(child)
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function run(args: string[]) {
  const a = parseArgs(args)
  const runs = Number(a.get('runs') ?? 5)
  const idleMs = Number(a.get('idle-ms') ?? 5000)
  const modeArg = a.get('mode') ?? 'both'
  const modes: Mode[] = modeArg === 'both' ? ['dist', 'start'] : (modeArg.split(',') as Mode[])
  console.log(`machine: ${machine()}`)
  const results: Record<string, { firstAnswerMs: number; rss: number }[]> = {}
  // Interleaved, so load from other processes on the machine falls on both modes alike.
  for (let i = 0; i < runs; i++) for (const m of modes) (results[m] ??= []).push(await once(m, idleMs))
  console.log(`| mode | first answer (median of ${runs}, ms) | idle RSS after ${idleMs / 1000} s (median, MB) | all runs (ms / MB) |`)
  console.log('|---|---|---|---|')
  for (const m of modes) {
    const r = results[m]!
    console.log(
      `| ${m} | ${fmt(median(r.map((x) => x.firstAnswerMs)))} | ${fmt(median(r.map((x) => x.rss)) / 2 ** 20)} | ${r.map((x) => `${fmt(x.firstAnswerMs)} / ${fmt(x.rss / 2 ** 20)}`).join(', ')} |`,
    )
  }
}
