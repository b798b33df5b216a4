// Typed configuration from environment variables, validated at start: a wrong value stops start-up
// with one line naming the variable and why (ConfigError).
import path from 'node:path'
import { ConfigError } from './config-error.js'
import { oidcOf, passwordSignInOf, type OidcSettings } from './oidc.js'

export { ConfigError }

export type DbConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolMax: number }

export interface Config {
  host: string
  port: number
  databaseUrl: string
  db: DbConfig
  initialApiKey: string | null
  /** Scope rules (toolkit/scope.ts): comma-separated CIDRs, domain suffixes and `metadata`. */
  targetBlocklist: string
  targetAllowlist: string
  logLevel: string
  rateLimit: { get: number; write: number; output: number; windowMs: number; enabled: boolean }
  maxTargetsDefault: number
  /** How long an authenticated key is trusted without asking the database again (0 = always ask). */
  authCacheMs: number
  /** Memory for finished findings pages served again while unchanged (WARD_FINDINGS_CACHE_MB; 0: none). */
  findingsCacheMb: number
  scanHardLimitMin: number
  workerConcurrency: number
  userMaxRunning: number
  /**
   * Free slots of each worker kept for users with few running scans: a user's n-th running scan
   * may not take one of the worker's last n free slots (n up to this number), so a light user's scan
   * starts at once while heavy users' scans fill the rest. 0 = no reserve.
   */
  workerReservedSlots: number
  leaseMs: number
  heartbeatMs: number
  pollMs: number
  /** How often a worker looks for due schedules (ms). */
  schedulerMs: number
  toolAbortGraceMs: number
  /** Claims of one scan at most: a restartable scan whose worker died is queued again until then. */
  scanMaxAttempts: number
  /** SIGTERM drain: how long running scans may go on to their end before they are handed back to the queue. */
  shutdownGraceMs: number
  /** `ward all`: a scan thread silent this long is stuck in synchronous code and is replaced. */
  workerStallMs: number
  callbackBlocklist: string
  callbackAllowlist: string
  vpnHostBlocklist: string
  vpnHostAllowlist: string
  callbackTimeoutMs: number
  /** First retry delay of report callbacks before jitter (doubles per attempt); shortened by tests. */
  callbackBackoffBaseMs: number
  /** How long a report callback is retried, from its creation. */
  callbackRetryWindowMs: number
  /** Where people reach the web interface (WARD_PUBLIC_URL, no trailing slash): links in integration messages and tickets. */
  publicUrl: string | null
  dnsResolver: string | null
  /** Findings of one check (vuln_id) a scan stores one by one; the rest are counted into one summarising finding. */
  findingsPerCheck: number
  /** PDF reports one process builds at once, and requests that may wait for one (more: 503). */
  pdfBuilds: { concurrency: number; queue: number }
  /** Offer the diagnostic tool (9001), which exercises the engine in tests and demos; off by default. */
  enableDiagnosticTool: boolean
  /** Length of a "minute" for max_scan_time and the hard limit: 60000, shortened only by tests. */
  minuteMs: number
  /** Port of `ward worker`'s own /metrics and /healthz listener on HOST; null = no listener. */
  metricsPort: number | null
  /** The key that seals stored secrets (WARD_SECRET_KEY), when given in the environment. */
  secretKey: Buffer | null
  /** Otherwise the key file (created 0600 at first start); null for an in-memory database (a key per process). */
  secretKeyFile: string | null
  /** The web interface: sign-in attempts per user name per window (per client address: 3×), session length, Secure cookies. */
  web: { signInLimit: number; signInWindowMs: number; sessionMs: number; cookieSecure: 'auto' | 'on' | 'off' }
  /** Single sign-on with OpenID Connect (WARD_OIDC_*); null when not configured. */
  oidc: OidcSettings | null
  /** Whether the web interface offers password sign-in (WARD_PASSWORD_SIGNIN); `ward admin` works either way. */
  passwordSignIn: boolean
}

/** Where the secret key file lives unless WARD_SECRET_KEY_FILE says: beside the SQLite file, or ./data. */
export function defaultSecretKeyFile(db: DbConfig): string | null {
  if (db.kind === 'postgres') return path.join('data', SECRET_KEY_FILE_NAME)
  return db.file === ':memory:' ? null : path.join(path.dirname(db.file), SECRET_KEY_FILE_NAME)
}

export const SECRET_KEY_FILE_NAME = 'ward-secret.key'

/** A key as written in WARD_SECRET_KEY or a key file: 32 bytes in base64 (or base64url). */
export function parseSecretKey(text: string): Buffer | null {
  const t = text.trim()
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) return null
  const key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return key.length === 32 ? key : null
}

export const SECRET_KEY_FORMAT = '32 random bytes in base64, e.g. from `openssl rand -base64 32`'

function secretKeyOf(env: Env, db: DbConfig): { secretKey: Buffer | null; secretKeyFile: string | null } {
  const raw = env.WARD_SECRET_KEY?.trim() || null
  const file = env.WARD_SECRET_KEY_FILE?.trim() || null
  if (raw && file) throw new ConfigError('WARD_SECRET_KEY and WARD_SECRET_KEY_FILE: set one of them, not both')
  if (raw) {
    const key = parseSecretKey(raw)
    // Never echo the value: it is (or is meant to be) the key.
    if (!key) throw new ConfigError(`WARD_SECRET_KEY: must be ${SECRET_KEY_FORMAT} (44 characters)`)
    return { secretKey: key, secretKeyFile: null }
  }
  return { secretKey: null, secretKeyFile: file ?? defaultSecretKeyFile(db) }
}

type Env = Record<string, string | undefined>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return def
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name}: must be a whole number from ${min} to ${max}, got "${raw}"`)
  const n = Number(raw.trim())
  if (n < min || n > max) throw new ConfigError(`${name}: must be from ${min} to ${max}, got ${n}`)
  return n
}

export function parseDatabaseUrl(url: string, poolMax = 10): DbConfig {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
    if (!file) throw new ConfigError(`WARD_DATABASE_URL: a sqlite URL needs a file path, e.g. sqlite:./data/ward.db`)
    return { kind: 'sqlite', file }
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url)
    } catch {
      throw new ConfigError(`WARD_DATABASE_URL: not a valid postgres URL`)
    }
    return { kind: 'postgres', url, poolMax }
  }
  throw new ConfigError(`WARD_DATABASE_URL: must start with sqlite: or postgres://, got "${url.replace(/\/\/[^@/]*@/, '//***@')}"`)
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST?.trim() || '127.0.0.1'
  const port = int(env, 'PORT', 8080, 0, 65535)
  const databaseUrl = env.WARD_DATABASE_URL?.trim() || 'sqlite:./data/ward.db'
  const poolMax = int(env, 'WARD_DB_POOL_MAX', 10, 1, 1000)
  const db = parseDatabaseUrl(databaseUrl, poolMax)
  const initialApiKey = env.WARD_INITIAL_API_KEY?.trim() || null
  if (initialApiKey !== null && !/^[A-Za-z0-9._~+/=-]{20,200}$/.test(initialApiKey))
    throw new ConfigError('WARD_INITIAL_API_KEY: must be 20 to 200 characters of letters, digits or ._~+/=-')
  const logLevel = env.LOG_LEVEL?.trim() || 'info'
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  const targetBlocklist = env.WARD_TARGET_BLOCKLIST ?? ''
  const leaseMs = int(env, 'WARD_LEASE_MS', 30000, 1000, 3600000)
  const workerConcurrency = int(env, 'WARD_WORKER_CONCURRENCY', 16, 1, 10000)
  const publicUrl = env.WARD_PUBLIC_URL?.trim().replace(/\/+$/, '') || null
  const oidc = oidcOf(env, publicUrl)
  const cfg: Config = {
    host,
    port,
    databaseUrl,
    db,
    initialApiKey,
    targetBlocklist,
    targetAllowlist: env.WARD_TARGET_ALLOWLIST ?? '',
    logLevel,
    rateLimit: {
      get: int(env, 'WARD_RATE_LIMIT_GET', 250, 1, 1e9),
      write: int(env, 'WARD_RATE_LIMIT_WRITE', 125, 1, 1e9),
      output: int(env, 'WARD_RATE_LIMIT_OUTPUT', 60, 1, 1e9),
      windowMs: int(env, 'WARD_RATE_LIMIT_WINDOW_MS', 60000, 1000, 86400000),
      enabled: (env.WARD_RATE_LIMIT ?? 'on') !== 'off',
    },
    authCacheMs: int(env, 'WARD_AUTH_CACHE_MS', 1000, 0, 60000),
    findingsCacheMb: int(env, 'WARD_FINDINGS_CACHE_MB', 32, 0, 65536),
    maxTargetsDefault: int(env, 'WARD_MAX_TARGETS', 10000, 1, 1e9),
    scanHardLimitMin: int(env, 'WARD_SCAN_HARD_LIMIT_MIN', 1440, 1, 100000),
    workerConcurrency,
    userMaxRunning: int(env, 'WARD_USER_MAX_RUNNING', 10, 1, 100000),
    // Default: 2 slots from 8 slots up; none on smaller workers, where one user may use them all.
    workerReservedSlots: int(env, 'WARD_WORKER_RESERVED_SLOTS', workerConcurrency >= 8 ? 2 : 0, 0, workerConcurrency - 1),
    leaseMs,
    heartbeatMs: int(env, 'WARD_HEARTBEAT_MS', Math.max(250, Math.floor(leaseMs / 3)), 100, 3600000),
    pollMs: int(env, 'WARD_POLL_MS', 500, 10, 60000),
    schedulerMs: int(env, 'WARD_SCHEDULER_MS', 2000, 10, 600000),
    toolAbortGraceMs: int(env, 'WARD_TOOL_ABORT_GRACE_MS', 30000, 10, 600000),
    scanMaxAttempts: int(env, 'WARD_SCAN_MAX_ATTEMPTS', 3, 1, 1000),
    shutdownGraceMs: int(env, 'WARD_SHUTDOWN_GRACE_MS', 20000, 0, 3600000),
    workerStallMs: int(env, 'WARD_WORKER_STALL_MS', 10000, 1000, 3600000),
    callbackBlocklist: env.WARD_CALLBACK_BLOCKLIST ?? '',
    callbackAllowlist: env.WARD_CALLBACK_ALLOWLIST ?? '',
    vpnHostBlocklist: env.WARD_VPN_HOST_BLOCKLIST ?? '',
    vpnHostAllowlist: env.WARD_VPN_HOST_ALLOWLIST ?? '',
    callbackTimeoutMs: int(env, 'WARD_CALLBACK_TIMEOUT_MS', 10000, 100, 600000),
    callbackBackoffBaseMs: int(env, 'WARD_CALLBACK_BACKOFF_BASE_MS', 5000, 1, 3600000),
    callbackRetryWindowMs: int(env, 'WARD_CALLBACK_RETRY_WINDOW_MS', 86400000, 1000, 86400000 * 7),
    publicUrl,
    dnsResolver: env.WARD_DNS_RESOLVER?.trim() || null,
    findingsPerCheck: int(env, 'WARD_MAX_FINDINGS_PER_CHECK', 200, 1, 1_000_000),
    pdfBuilds: { concurrency: int(env, 'WARD_PDF_BUILDS', 2, 1, 64), queue: int(env, 'WARD_PDF_QUEUE', 16, 0, 10_000) },
    enableDiagnosticTool: env.WARD_ENABLE_DIAGNOSTIC_TOOL === '1',
    minuteMs: int(env, 'WARD_MINUTE_MS', 60000, 1, 60000),
    // Unset = no listener: a worker opens no port unless asked to.
    metricsPort: env.WARD_METRICS_PORT?.trim() ? int(env, 'WARD_METRICS_PORT', 0, 0, 65535) : null,
    ...secretKeyOf(env, db),
    web: {
      signInLimit: int(env, 'WARD_SIGNIN_LIMIT', 10, 1, 1e6),
      signInWindowMs: int(env, 'WARD_SIGNIN_WINDOW_MS', 900000, 1000, 86400000),
      sessionMs: int(env, 'WARD_SESSION_HOURS', 12, 1, 24 * 365) * 3600000,
      // auto: Secure when the request came over TLS, directly or through a proxy saying x-forwarded-proto: https.
      cookieSecure: (env.WARD_COOKIE_SECURE?.trim() || 'auto') as 'auto' | 'on' | 'off',
    },
    oidc,
    passwordSignIn: passwordSignInOf(env, oidc),
  }
  if (!['auto', 'on', 'off'].includes(cfg.web.cookieSecure))
    throw new ConfigError(`WARD_COOKIE_SECURE: must be auto, on or off, got "${env.WARD_COOKIE_SECURE}"`)
  if (env.WARD_RATE_LIMIT && !['on', 'off'].includes(env.WARD_RATE_LIMIT))
    throw new ConfigError(`WARD_RATE_LIMIT: must be on or off, got "${env.WARD_RATE_LIMIT}"`)
  return cfg
}
