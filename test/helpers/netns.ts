// Network namespaces for tests and benchmarks that need a private network: a full 1-65535 port scan,
// a server on a well-known port, traffic that must not reach the host's own listeners.
//
//   const r = await withNetns('scan', (ns) => callInNetns(ns, 'bench/port-scan.ts', 'scanTestBed', [{ address: '127.0.1.10' }]))
//
// withNetns creates a uniquely named namespace with `lo` up (so all of 127.0.0.0/8 and ::1 work inside)
// and always deletes it. runInNetns runs `node --import tsx <script> <args>` inside with `ip netns exec`
// and parses the JSON its stdout ends with; callInNetns calls an exported async function of any module
// inside the namespace (this file is the child's entry point) and returns its JSON-able result.
// Needs root (CAP_SYS_ADMIN) and iproute2; netnsUnavailable() says why not.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const HERE = fileURLToPath(import.meta.url)
/** The repository root: where `--import tsx` resolves and relative module paths start. */
export const REPO_ROOT = resolve(dirname(HERE), '..', '..')

/** Why namespaces cannot be used here, or null when they can. */
export function netnsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux'
  if (process.getuid?.() !== 0) return 'network namespaces need root'
  const r = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' })
  if (r.error || r.status !== 0) return `ip netns does not work: ${r.error?.message ?? r.stderr.trim()}`
  return null
}

function ip(args: string[]) {
  const r = spawnSync('ip', args, { encoding: 'utf8' })
  if (r.error || r.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${r.error?.message ?? r.stderr.trim()}`)
}

/** Creates `ward-<prefix>-<random>` with lo up, runs `fn(name)`, then deletes the namespace whatever happens. */
export async function withNetns<T>(prefix: string, fn: (name: string) => Promise<T>): Promise<T> {
  const name = `ward-${prefix.replace(/[^a-z0-9-]/gi, '').slice(0, 20)}-${randomBytes(4).toString('hex')}`
  ip(['netns', 'add', name])
  try {
    ip(['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up'])
    return await fn(name)
  } finally {
    spawnSync('ip', ['netns', 'delete', name])
  }
}

export interface RunOptions {
  /** Kill the child (SIGKILL) after this long. Default 50 s. */
  timeoutMs?: number
  env?: NodeJS.ProcessEnv
  /** Capabilities taken out of the child's bounding set (setpriv), e.g. ['net_raw'] to run it as an unprivileged scanner would. */
  dropCaps?: string[]
}

export interface RunResult<T> {
  /** The last stdout line that parses as JSON. */
  json: T
  stdout: string
  stderr: string
  elapsedMs: number
}

/** Runs `node --import tsx <script> ...args` inside namespace `ns` (script relative to the repo root). */
export function runInNetns<T = unknown>(ns: string, script: string, args: string[] = [], opts: RunOptions = {}): Promise<RunResult<T>> {
  const started = performance.now()
  return new Promise((resolvePromise, reject) => {
    const drop = opts.dropCaps?.length ? ['setpriv', `--bounding-set=${opts.dropCaps.map((c) => `-${c}`).join(',')}`] : []
    const child = spawn('ip', ['netns', 'exec', ns, ...drop, process.execPath, '--import', 'tsx', resolve(REPO_ROOT, script), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 50_000)
    child.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const elapsedMs = performance.now() - started
      const line = stdout
        .trim()
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{') || l.startsWith('['))
      if (code !== 0 || !line) {
        return reject(
          new Error(`child in ${ns} ended with ${signal ?? `code ${code}`}${line ? '' : ', no JSON on stdout'}\n${stderr.slice(-2000)}`),
        )
      }
      try {
        resolvePromise({ json: JSON.parse(line) as T, stdout, stderr, elapsedMs })
      } catch (e) {
        reject(new Error(`child in ${ns} printed invalid JSON: ${(e as Error).message}`))
      }
    })
  })
}

/** Calls `fn(...args)` exported by `module` (path relative to the repo root) inside namespace `ns`. */
export async function callInNetns<T = unknown>(
  ns: string,
  module: string,
  fn: string,
  args: unknown[] = [],
  opts: RunOptions = {},
): Promise<T> {
  const r = await runInNetns<{ result: T }>(ns, 'test/helpers/netns.ts', ['call', module, fn, JSON.stringify(args)], opts)
  return r.json.result
}

// Child entry point: `node --import tsx test/helpers/netns.ts call <module> <fn> <argsJSON>`. Not a top-level
// await: the called module may import this file, and a cycle through a pending top-level await never settles.
if (process.argv[1] && resolve(process.argv[1]) === HERE && process.argv[2] === 'call') {
  void (async () => {
    const [, , , module, fn, argsJson] = process.argv
    const mod = (await import(pathToFileURL(resolve(REPO_ROOT, module)).href)) as Record<string, unknown>
    const f = mod[fn]
    if (typeof f !== 'function') throw new Error(`${module} exports no function ${fn}`)
    const result = await (f as (...a: unknown[]) => Promise<unknown>)(...(JSON.parse(argsJson ?? '[]') as unknown[]))
    process.stdout.write(`\n${JSON.stringify({ result })}\n`)
    process.exit(0)
  })().catch((e: unknown) => {
    console.error(e)
    process.exit(1)
  })
}
