// Website Scanner benchmark: light and deep scans of the weak test app, and wapiti / nikto (when
// installed) against the same loopback server; which planted weaknesses each found, and how fast.
// Loopback only (127.0.2.200); wapiti runs without the modules that call external services.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { tmpdir, cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { runTool, vulnIds } from '../test/helpers/tool-harness.js'
import { websiteScanner } from '../src/tools/website-scanner/run.js'
import { startWeakWeb, WEAK_TRUTH } from '../test/testbed/weak-web.js'

const HOST = '127.0.2.200'
// No ssrf/xxe (external endpoint), no wapp/nikto (download databases), no brute forcing.
const WAPITI_MODULES = 'backup,blindsql,cookieflags,crlf,csp,exec,file,htaccess,http_headers,methods,permanentxss,redirect,sql,xss'

/** Which planted weakness a peer's finding corresponds to (by its category / text). */
const PEER_MAP: [RegExp, string[]][] = [
  [/cross site scripting|\bxss\b/i, ['website.injection.xss-reflected']],
  [/^sql injection/i, ['website.injection.sqli-error']],
  [/blind sql/i, ['website.injection.sqli-boolean']],
  [/path traversal|file handling|directory traversal/i, ['website.injection.path-traversal']],
  [/open redirect/i, ['website.injection.open-redirect']],
  [/command execution|commands? injection/i, ['website.injection.os-command']],
  [/template injection/i, ['website.injection.ssti']],
  [/backup file/i, ['website.files.backup-exposed']],
  [/content security policy/i, ['website.headers.csp-missing']],
  [/clickjacking|x-frame-options/i, ['website.headers.clickjacking']],
  [/mime type confusion|x-content-type-options/i, ['website.headers.xcto-missing']],
  [/httponly/i, ['website.cookies.httponly-missing']],
  [/secure flag/i, ['website.cookies.secure-missing']],
  [/strict.transport|hsts/i, ['website.headers.hsts-missing']],
  [/\btrace\b/i, ['website.methods.trace']],
  [/\b(put|delete) method|uncommon http method|method .* allowed/i, ['website.methods.unsafe-allowed']],
  [/directory listing|index of/i, ['website.content.directory-listing']],
  [/\.git\b/i, ['website.files.git-exposed']],
  [/\.env\b/i, ['website.files.env-exposed']],
  [/server-status/i, ['website.files.server-status']],
  [/cors|cross-origin/i, ['website.cors.origin-reflected']],
]

interface PeerResult {
  name: string
  /** Column label in the table. */
  label?: string
  status: string
  seconds?: number
  found: Set<string>
  other: string[]
}

function mapPeer(entries: string[]): { found: Set<string>; other: string[] } {
  const found = new Set<string>()
  const other: string[] = []
  for (const e of entries) {
    const hit = PEER_MAP.find(([r]) => r.test(e))
    if (hit) hit[1].forEach((id) => found.add(id))
    else other.push(e)
  }
  return { found, other }
}

function runProcess(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; seconds: number; stderr: string }> {
  return new Promise((resolve) => {
    const started = performance.now()
    const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    p.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)))
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs)
    p.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, seconds: (performance.now() - started) / 1000, stderr })
    })
  })
}

async function wapiti(url: string): Promise<PeerResult> {
  if (spawnSync('which', ['wapiti']).status !== 0) return { name: 'wapiti', status: 'not installed', found: new Set(), other: [] }
  const dir = mkdtempSync(join(tmpdir(), 'ward-bench-wapiti-'))
  try {
    const out = join(dir, 'report.json')
    const r = await runProcess(
      'wapiti',
      [
        '-u',
        url,
        '--scope',
        'folder',
        '-m',
        WAPITI_MODULES,
        '--flush-session',
        '--store-session',
        join(dir, 'session'),
        '--no-bugreport',
        '-f',
        'json',
        '-o',
        out,
        '--max-scan-time',
        '300',
        '-d',
        '4',
        '-v',
        '0',
      ],
      420_000,
    )
    if (!existsSync(out))
      return {
        name: 'wapiti',
        status: `no report (exit ${r.code}): ${r.stderr.trim().split('\n').pop()}`,
        seconds: r.seconds,
        found: new Set(),
        other: [],
      }
    const rep = JSON.parse(readFileSync(out, 'utf8'))
    const entries: string[] = []
    for (const section of ['vulnerabilities', 'anomalies', 'additionals']) {
      for (const [cat, list] of Object.entries(rep[section] ?? {}))
        for (const v of list as { info?: string; path?: string }[]) entries.push(`${cat}: ${v.info ?? ''} ${v.path ?? ''}`)
    }
    const m = mapPeer(entries)
    return {
      name: `${spawnSync('wapiti', ['--version']).stdout?.toString().trim().split('\n').pop() || 'wapiti'}`,
      label: 'wapiti',
      status: `exit ${r.code}`,
      seconds: r.seconds,
      ...m,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function nikto(url: string): Promise<PeerResult> {
  if (spawnSync('which', ['nikto']).status !== 0)
    return { name: 'nikto', status: 'not installed (Debian non-free; not available here)', found: new Set(), other: [] }
  const dir = mkdtempSync(join(tmpdir(), 'ward-bench-nikto-'))
  try {
    const out = join(dir, 'nikto.txt')
    const r = await runProcess(
      'nikto',
      ['-h', url, '-nointeractive', '-nolookup', '-Format', 'txt', '-o', out, '-maxtime', '300s'],
      420_000,
    )
    const lines = existsSync(out)
      ? readFileSync(out, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('+ '))
      : []
    return { name: 'nikto', status: `exit ${r.code}`, seconds: r.seconds, ...mapPeer(lines) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function run(_args: string[]): Promise<void> {
  const bed = await startWeakWeb(HOST)
  const url = bed.httpUrl
  try {
    console.log(
      `website bench: ${new Date().toISOString()}, ${cpus().length} CPU(s), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, target ${url}`,
    )
    const ward = async (scan_type: 'light' | 'deep'): Promise<PeerResult> => {
      const before = bed.requests()
      const r = await runTool(websiteScanner, { target: url, params: { scan_type } })
      return {
        name: `Ward ${scan_type}`,
        label: `Ward ${scan_type}`,
        status: r.error ? `error: ${r.error.message}` : `${r.tests.length} tests, ${bed.requests() - before} requests`,
        seconds: r.elapsedMs / 1000,
        found: new Set(vulnIds(r)),
        other: [],
      }
    }
    const results: PeerResult[] = [await ward('light'), await ward('deep')]
    const before = bed.requests()
    const w = await wapiti(url)
    if (w.seconds) w.status += `, ${bed.requests() - before} requests`
    results.push(w, await nikto(url))

    const planted = [...WEAK_TRUTH.lightHttp, ...WEAK_TRUTH.deepActive]
    const col = (s: string, n: number) => s.padEnd(n)
    console.log('\n' + col('tool', 22) + col('time (s)', 10) + col('found', 8) + 'status')
    for (const r of results)
      console.log(
        col(r.name, 22) +
          col(r.seconds !== undefined ? r.seconds.toFixed(2) : '-', 10) +
          col(r.seconds !== undefined ? `${planted.filter((p) => r.found.has(p)).length}/${planted.length}` : '-', 8) +
          r.status,
      )
    console.log('\n' + col('planted weakness', 44) + results.map((r) => col(r.label ?? r.name, 13)).join(''))
    for (const p of planted)
      console.log(col(p, 44) + results.map((r) => col(r.seconds === undefined ? '-' : r.found.has(p) ? 'yes' : 'no', 13)).join(''))
    const missed = planted.filter((p) => results.slice(2).some((r) => r.found.has(p)) && !results[1]!.found.has(p))
    console.log(`\nplanted weaknesses found by a peer but not by Ward deep: ${missed.length ? missed.join(', ') : 'none'}`)
    for (const r of results.slice(2))
      if (r.other.length)
        console.log(
          `${r.name} also reported (not mapped to a planted weakness):\n  ${[...new Set(r.other.map((o) => o.replace(/\s+/g, ' ').slice(0, 110)))].slice(0, 15).join('\n  ')}`,
        )
  } finally {
    await bed.close()
  }
}
