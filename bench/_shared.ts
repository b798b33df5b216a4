// Helpers shared by the performance benchmarks (seed, api-load, scan-concurrency, memory).
import os from 'node:os'
import { spawn, type ChildProcess } from 'node:child_process'
import { parseDatabaseUrl, type DbConfig } from '../src/config/config.js'

export const DEFAULT_BENCH_DB = 'sqlite:./.tmp/bench.db'

/** `--name value` / `--flag` arguments into a map. */
export function parseArgs(args: string[]): Map<string, string> {
  const out = new Map<string, string>()
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith('--')) continue
    const next = args[i + 1]
    if (next !== undefined && !next.startsWith('--')) {
      out.set(a.slice(2), next)
      i++
    } else out.set(a.slice(2), 'true')
  }
  return out
}

export const dbConfigOf = (url: string): DbConfig => parseDatabaseUrl(url, 20)

export function machine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** Resident set size of a process in bytes, from /proc (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises')
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const m = /VmRSS:\s+(\d+) kB/.exec(status)
    return m ? Number(m[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** Samples the RSS of `pid` every `ms` until stopped; returns the peak. */
export function sampleRss(pid: number, ms = 100): { stop(): Promise<number>; peak(): number } {
  let peak = 0
  let running = true
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await rssOf(pid))
      await new Promise((r) => setTimeout(r, ms))
    }
  })()
  return {
    peak: () => peak,
    async stop() {
      running = false
      await loop
      return peak
    },
  }
}

/** Starts a child process and resolves once a stdout line matches `ready` (or rejects on exit). */
export function startChild(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60000,
): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let buf = ''
    let err = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${cmd} ${args.join(' ')} did not become ready in ${timeoutMs} ms: ${err.slice(-2000)}`))
    }, timeoutMs)
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const m = buf.split('\n').find((l) => ready.test(l))
      if (m) {
        clearTimeout(timer)
        // Ready: the rest (request logs at LOG_LEVEL=info) is drained unread, not kept in memory.
        child.stdout!.removeAllListeners('data')
        child.stdout!.resume()
        resolve({ child, line: m })
      }
    })
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString()
      if (err.length > 20000) err = err.slice(-10000)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${cmd} exited with ${code} before ready: ${err.slice(-2000)}`))
    })
  })
}

export async function stopChild(child: ChildProcess, ms = 10000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const done = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill('SIGTERM')
  const t = setTimeout(() => child.kill('SIGKILL'), ms)
  await done
  clearTimeout(t)
}
