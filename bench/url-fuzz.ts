// URL fuzzing benchmark: the 5,000-word `medium` list against the fuzz test bed (planted paths are in
// the list), run by Ward's fuzzer and, when installed, by ffuf and gobuster with the same list, the same
// "found" statuses and the same parallelism. Prints requests/s of each and whether the discovered sets
// are equal. The server runs in its own process so no client shares its event loop.
// Ward is measured cold (its first scan in this process: JIT not warmed up, first connections) and
// warm (after --warmup more scans, as in a long-running service); the tools run --runs times
// interleaved, the median run is shown, with the client's CPU time per request (Ward: this process;
// ffuf: its own, from bash's `times`), a load-independent figure on a shared machine.
// Usage: npm run bench -- url-fuzz [--concurrency 40] [--runs 5] [--warmup 2] [--variant normal]
import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import os from 'node:os'
import { runTool } from '../test/helpers/tool-harness.js'
import { urlFuzzer } from '../src/tools/url-fuzzer/run.js'
import type { UrlEntry } from '../src/tools/url-fuzzer/output.js'
import { PLANTED } from '../test/testbed/fuzz-site.js'
import { DEFAULT_STATUS_CODES } from '../src/tools/url-fuzzer/params.js'

const HOST = '127.0.27.10'
const root = fileURLToPath(new URL('..', import.meta.url))
const LIST = fileURLToPath(new URL('../src/tools/url-fuzzer/wordlists/medium.txt', import.meta.url))
const run$ = promisify(execFile)

interface Result {
  tool: string
  requests: number
  seconds: number
  /** CPU time (user + system) of the client while it ran, ms. */
  cpuMs?: number
  found: string[]
  note?: string
}

export async function startServer(
  variant: string,
  host = HOST,
): Promise<{ port: number; child: ChildProcess; stats(): Promise<{ requests: number }> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/testbed/fuzz-site.ts', '--host', host, '--variant', variant], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`test bed exited with ${code}`)))
  })
  const { port } = JSON.parse(line) as { port: number }
  const stats = () =>
    new Promise<{ requests: number }>((resolve) => {
      child.once('message', (m) => resolve(m as { requests: number }))
      child.send('stats')
    })
  return { port, child, stats }
}

export async function which(cmd: string): Promise<string | null> {
  try {
    const { stdout } = await run$('which', [cmd])
    return stdout.trim() || null
  } catch {
    return null
  }
}

async function timed(
  server: { stats(): Promise<{ requests: number }> },
  tool: string,
  body: () => Promise<{ found: string[]; note?: string; cpuMs?: number }>,
): Promise<Result> {
  const before = (await server.stats()).requests
  const t0 = performance.now()
  const r = await body()
  const seconds = (performance.now() - t0) / 1000
  const requests = (await server.stats()).requests - before
  return { tool, requests, seconds, ...r }
}

/** Runs a command through bash and reads its CPU time from `times` (children's user and system time). */
export async function runCounted(bin: string, args: string[]): Promise<{ stdout: string; cpuMs: number }> {
  const { stdout } = await run$(
    'bash',
    ['-c', '"$@" > >(cat); code=$?; wait; echo; echo "@@cpu"; times; exit $code', 'bash', bin, ...args],
    { maxBuffer: 64 << 20 },
  )
  const [out, cpu = ''] = stdout.split('\n@@cpu\n')
  const secs = (t: string) => {
    const m = /(\d+)m([\d.]+)s/.exec(t)
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0
  }
  const children = cpu.trim().split('\n')[1] ?? ''
  const [user = '', sys = ''] = children.split(/\s+/)
  return { stdout: out!, cpuMs: (secs(user) + secs(sys)) * 1000 }
}

export async function run(args: string[]): Promise<void> {
  const opt = (name: string, dflt: string) => {
    const i = args.indexOf(`--${name}`)
    return i >= 0 && args[i + 1] ? args[i + 1]! : dflt
  }
  const concurrency = Number(opt('concurrency', '40'))
  const runs = Number(opt('runs', '5'))
  const warmup = Number(opt('warmup', '2'))
  const variant = opt('variant', 'normal')
  const words = readFileSync(LIST, 'utf8').split('\n').filter(Boolean).length
  const codes = DEFAULT_STATUS_CODES.join(',')
  const server = await startServer(variant)
  const base = `http://${HOST}:${server.port}/`
  const results: Result[] = []
  try {
    console.log(
      `url-fuzz: ${words} words, ${concurrency} in parallel, test bed ${base} (${variant}), ${Object.keys(PLANTED).length} planted paths`,
    )
    console.log(
      `machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ${new Date().toISOString()}`,
    )

    const ward = (label: string) =>
      timed(server, label, async () => {
        const cpu0 = process.cpuUsage()
        const r = await runTool(urlFuzzer, { target: base, params: { wordlist: 'medium', concurrency, rate_limit: 100_000 } })
        const cpu = process.cpuUsage(cpu0)
        if (r.error) throw r.error
        const urls = (r.output.urls as UrlEntry[]) ?? []
        return {
          found: urls.map((u) => u.url.slice(base.length)).sort(),
          cpuMs: (cpu.user + cpu.system) / 1000,
          note: `rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
        }
      })
    const ffufBin = await which('ffuf')
    const ffuf = (bin: string) =>
      timed(server, 'ffuf', async () => {
        // On the soft-404 variants ffuf gets its own auto-calibration (-ac), the fair counterpart of Ward's.
        const ac = variant === 'normal' ? [] : ['-ac']
        const { stdout, cpuMs } = await runCounted(bin, [
          '-u',
          `${base}FUZZ`,
          '-w',
          LIST,
          '-mc',
          codes,
          '-t',
          String(concurrency),
          '-s',
          ...ac,
        ])
        return {
          found: stdout
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
            .sort(),
          cpuMs,
          note: ac.join(' '),
        }
      })
    const gobusterBin = await which('gobuster')
    const gobuster = (bin: string) =>
      timed(server, 'gobuster', async () => {
        let stdout: string
        try {
          ;({ stdout } = await run$(
            bin,
            ['dir', '-u', base, '-w', LIST, '-s', codes, '-b', '', '-t', String(concurrency), '-q', '-n', '--no-error'],
            {
              maxBuffer: 64 << 20,
            },
          ))
        } catch (e) {
          // gobuster refuses sites that answer nonexistent paths with a "found" status (wildcard).
          const msg = String((e as { stderr?: string }).stderr || (e as Error).message)
            .replace(/\s+/g, ' ')
            .slice(0, 90)
          return { found: [], note: `failed: ${msg}` }
        }
        const found = stdout
          .split('\n')
          .map((l) => /^\/?(\S+)/.exec(l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').trim())?.[1])
          .filter((x): x is string => !!x)
        return { found: [...new Set(found)].sort() }
      })
    if (!ffufBin) console.log('ffuf: not installed, skipped')
    if (!gobusterBin) console.log('gobuster: not installed, skipped')

    results.push(await ward('ward-cold'))
    // The JIT keeps improving over the first few scans; a long-running worker is past that point.
    for (let i = 0; i < warmup; i++) await ward('warm-up')
    // Interleaved, so that every tool sees the same background load on a shared machine.
    for (let i = 0; i < runs; i++) {
      results.push(await ward('ward'))
      if (ffufBin) results.push(await ffuf(ffufBin))
      if (gobusterBin) results.push(await gobuster(gobusterBin))
    }
  } finally {
    server.child.disconnect()
    server.child.kill()
  }

  const truth = Object.keys(PLANTED).sort()
  const ward = results.find((r) => r.tool === 'ward')!
  // Median run per tool (the machine is shared with other work).
  const rate = (r: Result) => r.requests / r.seconds
  const best = new Map<string, Result>()
  for (const tool of new Set(results.map((r) => r.tool))) {
    const mine = results.filter((r) => r.tool === tool).sort((a, b) => rate(a) - rate(b))
    best.set(tool, mine[Math.floor((mine.length - 1) / 2)]!)
  }
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i])
  console.log('')
  console.log(`tool       requests   seconds     req/s  cpu µs/req   found  same as ward  all planted  note (median of ${runs})`)
  const cpuPerReq = (r: Result) => (r.cpuMs === undefined ? '' : String(Math.round((r.cpuMs * 1000) / r.requests)))
  for (const r of best.values()) {
    console.log(
      `${r.tool.padEnd(9)} ${String(r.requests).padStart(9)} ${r.seconds.toFixed(2).padStart(9)} ${Math.round(r.requests / r.seconds)
        .toString()
        .padStart(9)} ${cpuPerReq(r).padStart(11)} ` +
        `${String(r.found.length).padStart(7)}  ${(same(r.found, ward.found) ? 'yes' : 'NO').padEnd(12)}  ${(same(r.found, truth) ? 'yes' : 'NO').padEnd(11)}  ${r.note ?? ''}`,
    )
  }
  const rates = (tool: string) => results.filter((r) => r.tool === tool).map((r) => Math.round(r.requests / r.seconds))
  for (const tool of best.keys())
    console.log(
      `${tool} req/s per run: ${rates(tool).join(', ')}; cpu µs/req per run: ${results
        .filter((r) => r.tool === tool)
        .map(cpuPerReq)
        .join(', ')}`,
    )
  const f = best.get('ffuf')
  const w = best.get('ward')!
  if (f) {
    console.log(
      `ratio ward/ffuf (median runs): request rate ${(rate(w) / rate(f)).toFixed(2)}x` +
        (w.cpuMs && f.cpuMs ? `, client CPU per request ${(w.cpuMs / w.requests / (f.cpuMs / f.requests)).toFixed(2)}x` : ''),
    )
  }
  const reported = new Set<string>()
  for (const r of results) {
    if (!same(r.found, ward.found) && !reported.has(r.tool)) {
      reported.add(r.tool)
      const a = new Set(ward.found)
      const b = new Set(r.found)
      console.log(
        `${r.tool} (run ${results.indexOf(r)}) vs ward: only ${r.tool}: [${r.found.filter((x) => !a.has(x)).join(', ')}], only ward: [${ward.found.filter((x) => !b.has(x)).join(', ')}]`,
      )
    }
  }
}

if (process.argv[1] && /url-fuzz\.ts$/.test(process.argv[1])) await run(process.argv.slice(2))
