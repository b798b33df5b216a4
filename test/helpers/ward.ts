// Boots a real Ward (API + worker) in this process on a fresh SQLite file, for API-level tests —
// or, with WARD_TEST_BACKEND=postgres, in a fresh schema of WARD_TEST_DATABASE_URL (dropped on close).
import { engineRegistry } from '../../src/engine/metrics.js'
import fs from 'node:fs'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import os from 'node:os'
import path from 'node:path'
import { pino } from 'pino'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { loadConfig, type Config } from '../../src/config/config.js'
import { openDatabase, type DbHandle } from '../../src/store/db.js'
import { buildApp } from '../../src/api/app.js'
import { scopesOf } from '../../src/toolkit/scope.js'
import { resolveVpnProfile } from '../../src/domain/vpn.js'
import { createUser } from '../../src/store/accounts.js'
import type { Worker } from '../../src/engine/worker.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import { syncShippedTemplates } from '../../src/cli/shipped-templates.js'
import { createToolCatalogue } from '../../src/tools/registry.js'

process.env.WARD_ENABLE_DIAGNOSTIC_TOOL = '1'

export interface TestWard {
  app: FastifyInstance
  h: DbHandle
  config: Config
  dir: string
  dbFile: string
  key: string
  userId: number
  workspaceId: number
  worker: Worker | null
  /** Every route the app serves (HEAD twins left out), as Fastify registered them: `GET /api/v2/scans/:id`. */
  routes: Array<{ method: string; url: string }>
  /** inject with the default key (or `key: null` for none). */
  req(
    method: string,
    url: string,
    opts?: { body?: unknown; form?: Record<string, string>; headers?: Record<string, string>; key?: string | null },
  ): Promise<LightMyRequestResponse>
  user(name?: string, o?: { maxTargets?: number; licenseExpires?: string }): Promise<{ key: string; userId: number; workspaceId: number }>
  close(): Promise<void>
}

export const TEST_BACKEND: 'sqlite' | 'postgres' = process.env.WARD_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite'
export const TEST_PG_URL = process.env.WARD_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'

/** Why the test PostgreSQL server cannot be reached, or null when it can (fault tests print it and stop). */
export async function pgUnreachable(): Promise<string | null> {
  const c = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 })
  try {
    await c.connect()
    return null
  } catch (e) {
    return (e as Error).message
  } finally {
    await c.end().catch(() => {})
  }
}

/** A PostgreSQL URL whose connections use `schema` (search_path set at connect time). */
export function pgUrlWithSchema(base: string, schema: string): string {
  const u = new URL(base)
  u.searchParams.set('options', `-c search_path=${schema}`)
  return u.toString()
}

/** Creates a fresh schema in the test PostgreSQL; returns its URL and a drop function. */
export async function createPgSchema(base = TEST_PG_URL): Promise<{ schema: string; url: string; drop(): Promise<void> }> {
  const schema = `ward_t_${randomBytes(6).toString('hex')}`
  const c = new pg.Client({ connectionString: base })
  await c.connect()
  try {
    await c.query(`CREATE SCHEMA ${schema}`)
  } finally {
    await c.end()
  }
  return {
    schema,
    url: pgUrlWithSchema(base, schema),
    async drop() {
      const d = new pg.Client({ connectionString: base })
      await d.connect()
      try {
        await d.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      } finally {
        await d.end()
      }
    },
  }
}

/**
 * Kysely's migrator introspects the tables of every schema in the database; when another test file
 * drops its own schema at that moment, the introspection fails naming that other schema (or one of
 * its tables). Only that case is retried, after a pause: an error about our own schema, or any other error, is thrown at once.
 */
async function openWithRetry(config: Config, onQuery: ((sql: string) => void) | undefined, ownSchema: string | undefined) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openDatabase(config.db, { onQuery, secrets: config })
    } catch (e) {
      // Either form: `schema "ward_t_x" does not exist` or `relation "ward_t_x.table" does not exist`
      // (a table of a schema being dropped, seen by the introspection's pg_get_serial_sequence).
      const other = /(?:schema|relation) "(ward_t_[0-9a-f]+)(?:\.[^"]*)?" does not exist/.exec((e as Error).message)?.[1]
      if (!ownSchema || !other || other === ownSchema || attempt >= 8) throw e
      // The other file's DROP SCHEMA ... CASCADE is still running: give it time to commit.
      await new Promise((r) => setTimeout(r, 100 * attempt))
    }
  }
}

export async function startWard(
  opts: { env?: Record<string, string>; worker?: boolean; onQuery?: (sql: string) => void } = {},
): Promise<TestWard> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-test-'))
  const dbFile = path.join(dir, 'ward.db')
  const pgSchema = TEST_BACKEND === 'postgres' ? await createPgSchema() : null
  const dbUrl = pgSchema ? pgSchema.url : `sqlite:${dbFile}`
  // The secret key file in the test's own directory (for PostgreSQL too; beside the SQLite file anyway).
  const keyFile = opts.env?.WARD_SECRET_KEY ? {} : { WARD_SECRET_KEY_FILE: path.join(dir, 'ward-secret.key') }
  const config = loadConfig({
    WARD_DATABASE_URL: dbUrl,
    LOG_LEVEL: 'silent',
    WARD_RATE_LIMIT: 'off',
    WARD_POLL_MS: '50',
    WARD_ENABLE_DIAGNOSTIC_TOOL: '1',
    ...keyFile,
    ...opts.env,
  })
  const h = await openWithRetry(config, opts.onQuery, pgSchema?.schema).catch(async (e) => {
    await pgSchema?.drop()
    throw e
  })
  const routes: TestWard['routes'] = []
  // As `ward serve` does before it serves (cli/roles.ts).
  await syncShippedTemplates(h.db)
  const app = await buildApp(
    {
      db: h.db,
      dbKind: h.kind,
      config,
      blocklist: scopesOf(config).target,
      tools: createToolCatalogue({ diagnostic: config.enableDiagnosticTool }),
      resolveVpnProfile,
    },
    {
      logger: false,
      metricsRegistries: opts.worker === false ? [] : [engineRegistry],
      onRoute: (r) => {
        for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url })
      },
    },
  )
  await app.ready()
  const worker = opts.worker === false ? null : await startWorkerRole({ db: h.db, dbKind: h.kind, config, log: pino({ level: 'silent' }) })
  const first = await createUser(h.db, { name: 'alice', maxTargets: config.maxTargetsDefault })
  const ward: TestWard = {
    app,
    h,
    config,
    dir,
    dbFile,
    key: first.apiKey,
    userId: first.userId,
    workspaceId: first.workspaceId,
    worker,
    routes,
    req(method, url, o = {}) {
      const headers: Record<string, string> = { ...o.headers }
      const key = o.key === undefined ? ward.key : o.key
      if (key !== null) headers.authorization = `Bearer ${key}`
      const inj: InjectOptions = { method: method as any, url, headers }
      if (o.form) {
        inj.payload = new URLSearchParams(o.form).toString()
        headers['content-type'] = 'application/x-www-form-urlencoded'
      } else if (o.body !== undefined) {
        inj.payload = typeof o.body === 'string' || Buffer.isBuffer(o.body) ? (o.body as any) : JSON.stringify(o.body)
        headers['content-type'] ??= 'application/json'
      }
      return app.inject(inj)
    },
    async user(name = 'bob', o = {}) {
      const u = await createUser(h.db, {
        name,
        maxTargets: o.maxTargets ?? config.maxTargetsDefault,
        licenseExpires: o.licenseExpires ?? null,
      })
      return { key: u.apiKey, userId: u.userId, workspaceId: u.workspaceId }
    },
    async close() {
      await worker?.stop()
      await app.close()
      await h.close()
      await pgSchema?.drop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
  return ward
}

/** Polls a scan until `pred` holds (or fails after `ms`). */
export async function waitForScan(w: TestWard, id: number, pred: (s: any) => boolean, ms = 10000, key?: string): Promise<any> {
  const until = Date.now() + ms
  let last: any
  while (Date.now() < until) {
    const r = await w.req('GET', `/api/v2/scans/${id}`, { key })
    last = r.json().data
    if (last && pred(last)) return last
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`scan ${id} did not reach the expected state in ${ms} ms; last: ${JSON.stringify(last)}`)
}

export const TERMINAL = [
  'finished',
  'failed to start',
  'stopped',
  'timed out',
  'aborted',
  'VPN connection error',
  'auth failed',
  'connection error',
]
export const isTerminal = (s: any) => TERMINAL.includes(s.status_name)

/** Row counts of every table: equal before and after a rejected request means nothing changed. */
export async function tableCounts(w: TestWard): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const t of [
    'users',
    'api_keys',
    'workspaces',
    'targets',
    'scans',
    'tests',
    'findings',
    'scan_logs',
    'schedules',
    'schedule_runs',
  ] as const) {
    out[t] = Number(
      (
        await w.h.db
          .selectFrom(t)
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  }
  return out
}
