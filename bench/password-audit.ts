// Password Auditor (tool 400) beside hydra: the same user name and password list on every protocol
// both speak, against the weak login beds on 127.0.124.x (IP literals only: hydra is never given a
// name or an address outside that range). Per protocol: credentials found by each, login attempts,
// wall time and the ratio. Then the lockout beds (HTTP Basic and SMTP AUTH, each locking an account
// after 5 failures): how many accounts each locks, Ward with its default, lockout-safe caps.
// Ward runs through the tool harness, one scan per protocol (port discovery and service detection
// included), each login's attempts one after another; hydra runs with --tasks parallel tasks. In the
// comparison Ward's caps are raised to the whole list (and delay_ms to --delay, default 0) so both
// try the same credentials. The beds run in this process: a new set for each tool, so that neither
// tool sees the other's traces.
// Usage: npm run bench -- password-audit [--tasks 4] [--delay 0]
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runTool } from '../test/helpers/tool-harness.js'
import { startLoginBed, startLockoutBed, PORTS } from '../test/testbed/login-services.js'
import { startSmtpBed, WEAK_SMTP, SMTP_PORTS } from '../test/testbed/smtp-service.js'
import { startMongoBed, MONGO_PORT } from '../test/testbed/mongo-service.js'
import { passwordAuditor } from '../src/tools/password-auditor/run.js'
import type { AuditedLogin, FoundCredential } from '../src/tools/password-auditor/output.js'
import type { ServiceKind } from '../src/tools/password-auditor/params.js'
import { machine, parseArgs } from './_shared.js'
import { which } from './url-fuzz.js'

const ADDR = { login: '127.0.124.10', smtp: '127.0.124.11', mongo: '127.0.124.12', lockout: '127.0.124.13', smtpLock: '127.0.124.14' }
const run$ = promisify(execFile)

/** Every planted user name and password of the weak beds, plus two common ones: one list for both tools. */
const USERS = ['admin', 'default', 'ftpuser', 'jenkins', 'mongoadmin', 'pi', 'postgres', 'root', 'test', 'tomcat']
const PASSWORDS = [
  'admin',
  'example',
  'foobared',
  'ftppass',
  'jenkins',
  'password',
  'postgres123',
  'r00t',
  'raspberry',
  's3cret',
  'secret',
  'test123',
  'xc3511',
]

interface Case {
  name: string
  host: string
  port: number
  ward: ServiceKind
  /** hydra's service and its module argument. */
  hydra: [string, ...string[]]
  /** hydra's redis module takes passwords only. */
  passwordOnly?: boolean
}

const CASES: Case[] = [
  { name: 'ftp', host: ADDR.login, port: PORTS.ftp, ward: 'ftp', hydra: ['ftp'] },
  { name: 'ssh', host: ADDR.login, port: PORTS.ssh, ward: 'ssh', hydra: ['ssh'] },
  { name: 'telnet', host: ADDR.login, port: PORTS.telnet, ward: 'telnet', hydra: ['telnet'] },
  { name: 'mysql', host: ADDR.login, port: PORTS.mysql, ward: 'mysql', hydra: ['mysql'] },
  { name: 'postgres', host: ADDR.login, port: PORTS.postgresql, ward: 'postgresql', hydra: ['postgres'] },
  { name: 'redis', host: ADDR.login, port: PORTS.redis, ward: 'redis', hydra: ['redis'], passwordOnly: true },
  { name: 'mongodb', host: ADDR.mongo, port: MONGO_PORT, ward: 'mongodb', hydra: ['mongodb'] },
  { name: 'smtp', host: ADDR.smtp, port: SMTP_PORTS.plain, ward: 'smtp', hydra: ['smtp'] },
  { name: 'http-get basic', host: ADDR.login, port: PORTS.tomcat, ward: 'http', hydra: ['http-get', '/manager/html'] },
  {
    name: 'http-post-form',
    host: ADDR.login,
    port: PORTS.jenkins,
    ward: 'http',
    hydra: ['http-post-form', '/j_spring_security_check:j_username=^USER^&j_password=^PASS^&from=%2F:F=loginError'],
  },
]

interface Outcome {
  found: string[]
  attempts: number
  seconds: number
  note?: string
}

/** The beds of one tool's run: the weak login bed, SMTP (no lockout: the comparison is of the search) and MongoDB. */
async function withBeds<T>(body: () => Promise<T>): Promise<T> {
  const beds = [
    await startLoginBed(ADDR.login),
    await startSmtpBed(ADDR.smtp, WEAK_SMTP, Number.MAX_SAFE_INTEGER),
    await startMongoBed('weak', undefined, ADDR.mongo),
  ]
  try {
    return await body()
  } finally {
    for (const b of beds) await b.close()
  }
}

async function ward(c: Pick<Case, 'host' | 'port' | 'ward'>, params: Record<string, unknown>): Promise<Outcome> {
  const t0 = performance.now()
  const r = await runTool(passwordAuditor, {
    target: c.host,
    params: { ports: String(c.port), services: [c.ward], usernames: USERS, passwords: PASSWORDS, default_lists: false, ...params },
  })
  const seconds = (performance.now() - t0) / 1000
  if (r.error) throw r.error
  const creds = (r.output.credentials as FoundCredential[]) ?? []
  const logins = ((r.output.logins as AuditedLogin[]) ?? []).filter((l) => l.port === c.port)
  // The harness keeps the passwords found as secrets ("<service> <host>:<port>[ <url>] <user>").
  const found = r.secrets.map((s) => `${s.label.split(' ').at(-1)}:${s.secret}`)
  const stopped = logins.map((l) => l.stopped).filter(Boolean)
  return {
    found: [...new Set(found)].sort(),
    attempts: logins.reduce((n, l) => n + l.attempts, 0),
    seconds,
    note: [creds.length !== found.length ? `${creds.length} reported` : '', ...stopped].filter(Boolean).join('; ') || undefined,
  }
}

/** hydra against one bed address; refuses anything but an IP literal of this benchmark's range. */
async function hydra(bin: string, dir: string, host: string, port: number, service: string[], passwordOnly: boolean, tasks: number) {
  if (net.isIP(host) !== 4 || !host.startsWith('127.0.124.')) throw new Error(`hydra target ${host} is outside 127.0.124.0/24`)
  const users = join(dir, 'users.txt')
  const passwords = join(dir, 'passwords.txt')
  const creds = passwordOnly ? ['-P', passwords] : ['-L', users, '-P', passwords, '-u']
  const args = ['-I', '-V', '-t', String(tasks), ...creds, '-s', String(port), host, ...service]
  const t0 = performance.now()
  const { out, note } = await runGroup(bin, args, dir, HYDRA_TIMEOUT_MS)
  const seconds = (performance.now() - t0) / 1000
  const found = [...out.matchAll(/host: \S+\s+(?:login: (\S*)\s+)?password: (.*)$/gm)].map((m) => `${m[1] ?? 'default'}:${m[2]!.trim()}`)
  return {
    found: [...new Set(found)].sort(),
    attempts: (out.match(/^\[(RE-)?ATTEMPT\]/gm) ?? []).length,
    seconds,
    note,
    args,
  }
}

const progress = (tool: string, name: string, o: Outcome) =>
  console.error(`  ${tool} ${name}: ${o.found.length} found, ${o.attempts} attempts, ${o.seconds.toFixed(2)} s`)
const HYDRA_TIMEOUT_MS = 60_000

/** Runs a command in its own process group (hydra forks its tasks), all of it killed after `ms`. */
function runGroup(bin: string, args: string[], cwd: string, ms: number): Promise<{ out: string; note?: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d))
    child.stderr.on('data', (d: Buffer) => (err += d))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      process.kill(-child.pid!, 'SIGKILL')
    }, ms)
    child.once('close', (code) => {
      clearTimeout(timer)
      const why = timedOut ? `timed out after ${ms / 1000} s` : code ? `exit ${code}: ${err.replace(/\s+/g, ' ').slice(0, 100)}` : ''
      resolve({ out, note: why || undefined })
    })
  })
}

const pad = (s: string | number, n: number) => String(s).padEnd(n)

export async function run(argv: string[]): Promise<void> {
  const a = parseArgs(argv)
  const tasks = Number(a.get('tasks') ?? 4)
  const delay = Number(a.get('delay') ?? 0)
  const bin = await which('hydra')
  const version = bin
    ? ((await run$(bin, ['-h']).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }))).stdout.split(' (c)')[0] ?? '')
    : ''
  console.log(`password-audit: ${USERS.length} user names × ${PASSWORDS.length} passwords, beds on ${Object.values(ADDR).join(', ')}`)
  console.log(`machine: ${machine()}; ${new Date().toISOString()}`)
  console.log(bin ? `hydra: ${version.trim()}, -t ${tasks}` : 'hydra not installed: skipped')
  console.log(`ward: tool harness, max_attempts ${PASSWORDS.length} per account (the whole list), delay_ms ${delay}`)
  const dir = mkdtempSync(join(tmpdir(), 'ward-hydra-'))
  writeFileSync(join(dir, 'users.txt'), `${USERS.join('\n')}\n`)
  writeFileSync(join(dir, 'passwords.txt'), `${PASSWORDS.join('\n')}\n`)
  const all = USERS.length * PASSWORDS.length
  const full = { max_attempts: PASSWORDS.length, max_attempts_per_service: all, delay_ms: delay }
  try {
    const w = await withBeds(async () => {
      const out: Outcome[] = []
      for (const c of CASES) {
        out.push(await ward(c, full))
        progress('ward', c.name, out.at(-1)!)
      }
      return out
    })
    const h = bin
      ? await withBeds(async () => {
          const out: Outcome[] = []
          for (const c of CASES) {
            out.push(await hydra(bin, dir, c.host, c.port, c.hydra, !!c.passwordOnly, tasks))
            progress('hydra', c.name, out.at(-1)!)
          }
          return out
        })
      : null
    console.log('')
    console.log(
      `${pad('protocol', 16)}${pad('ward found', 34)}${pad('hydra found', 34)}${pad('same', 6)}${pad('attempts w/h', 14)}${pad('seconds w/h', 14)}ward/hydra time`,
    )
    CASES.forEach((c, i) => {
      const x = w[i]!
      const y = h?.[i]
      const same = y ? (x.found.join() === y.found.join() ? 'yes' : 'NO') : '-'
      console.log(
        `${pad(c.name, 16)}${pad(x.found.join(' ') || '-', 34)}${pad(y ? y.found.join(' ') || '-' : 'skipped', 34)}${pad(same, 6)}` +
          `${pad(`${x.attempts}/${y?.attempts ?? '-'}`, 14)}${pad(`${x.seconds.toFixed(2)}/${y ? y.seconds.toFixed(2) : '-'}`, 14)}` +
          `${y ? (x.seconds / y.seconds).toFixed(2) : '-'}`,
      )
    })
    for (const [i, c] of CASES.entries()) {
      if (w[i]!.note) console.log(`ward ${c.name}: ${w[i]!.note}`)
      if (h?.[i]?.note) console.log(`hydra ${c.name}: ${h[i]!.note}`)
    }
    const sum = (o: Outcome[], f: (x: Outcome) => number) => o.reduce((n, x) => n + f(x), 0)
    console.log(
      `total: ward ${sum(w, (x) => x.found.length)} found, ${sum(w, (x) => x.attempts)} attempts, ${sum(w, (x) => x.seconds).toFixed(1)} s` +
        (h
          ? `; hydra ${sum(h, (x) => x.found.length)} found, ${sum(h, (x) => x.attempts)} attempts, ${sum(h, (x) => x.seconds).toFixed(1)} s; time ratio ${(sum(w, (x) => x.seconds) / sum(h, (x) => x.seconds)).toFixed(2)}`
          : ''),
    )
    await lockout(bin, dir, tasks)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The lockout beds (5 failures lock an account): Ward with its default caps and pacing, hydra with the list. */
async function lockout(bin: string | null, dir: string, tasks: number): Promise<void> {
  console.log('')
  console.log(`lockout beds (lock after 5 failures), ${USERS.length} accounts tried:`)
  const beds = [
    { name: 'http basic', start: () => startLockoutBed(ADDR.lockout), port: 80, ward: 'http' as const, hydra: ['http-get', '/'] },
    {
      name: 'smtp',
      start: () => startSmtpBed(ADDR.smtpLock, WEAK_SMTP, 5),
      port: SMTP_PORTS.plain,
      ward: 'smtp' as const,
      hydra: ['smtp'],
    },
  ]
  for (const b of beds) {
    const line: string[] = []
    for (const tool of bin ? ['ward', 'hydra'] : ['ward']) {
      const bed = await b.start()
      try {
        const o =
          tool === 'ward'
            ? await ward({ host: bed.host, port: b.port, ward: b.ward }, {})
            : await hydra(bin!, dir, bed.host, b.port, b.hydra, false, tasks)
        line.push(
          `${tool}: ${bed.locked().length} locked [${bed.locked().join(' ')}], ${o.attempts} attempts, ${bed.afterLock.count} after lock, ${o.found.length} found, ${o.seconds.toFixed(1)} s${o.note ? ` (${o.note})` : ''}`,
        )
      } finally {
        await bed.close()
      }
    }
    console.log(`${pad(b.name, 12)}${line.join('; ')}`)
  }
  if (!bin) console.log('hydra not installed: skipped')
}

if (process.argv[1] && /password-audit\.ts$/.test(process.argv[1])) await run(process.argv.slice(2))
