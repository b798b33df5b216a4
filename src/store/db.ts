// The only file that knows which database engines exist: builds a Kysely instance for the configured
// dialect and brings the schema up to date.
import fs from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { CompiledQuery, Kysely, Migrator, SqliteDialect, sql, type Compilable, type Dialect, type Driver, type Transaction } from 'kysely'
import SQLite from 'better-sqlite3'
import { defaultSecretKeyFile, type DbConfig } from '../config/config.js'
import type { Database } from './schema.js'
import { migrationProvider, type DbKind } from './migrations/index.js'
import { attachPgNotify } from './notify.js'
import { loadPg, type Pg } from './pg-driver.js'
import { pgReadBatch } from './pg-read-batch.js'
import type pgModule from 'pg'
import { CurrentSchemaPostgresDialect } from './pg-introspector.js'
import { SecretsCarrier, loadSecrets, type SecretKeySource } from './secrets.js'
import { sqliteReadCache, walVersion, type ReadCache } from './sqlite-read-cache.js'

/** How long SQLite waits on a lock held by another connection before answering SQLITE_BUSY. */
// Long enough that a busy machine (a scan's writer thread and the API starved of CPU) waits rather
// than ending a scan on "database is locked".
const SQLITE_BUSY_TIMEOUT_MS = 15000

export type Db = Kysely<Database>

let savepoints = 0

/**
 * Runs `fn` in a new transaction, or inside the one `db` already is (a change composed into a larger
 * one: an audited change, store/audit.ts `audited`) under a savepoint: a change that throws to roll
 * itself back (a refusal found halfway, a unique violation) undoes only its own writes, as alone.
 */
export async function inTransaction<T>(db: Db, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (!db.isTransaction) return db.transaction().execute(fn)
  const trx = db as Transaction<Database>
  const name = `ward_sp${++savepoints}`
  await sql.raw(`savepoint ${name}`).execute(trx)
  try {
    const r = await fn(trx)
    await sql.raw(`release savepoint ${name}`).execute(trx)
    return r
  } catch (e) {
    await sql.raw(`rollback to savepoint ${name}`).execute(trx)
    await sql.raw(`release savepoint ${name}`).execute(trx)
    throw e
  }
}

export interface DbHandle {
  db: Db
  kind: DbKind
  close(): Promise<void>
}

/** Runs a compiled SELECT outside Kysely: rows as arrays (select-list order) or as objects. */
interface Reader {
  /**
   * `hot`: a small read by key (ReadOptions.hot). null: it could not run then (a transaction had
   * opened meanwhile); the caller reads again through the connection's lock.
   */
  arrays(sql: string, params: readonly unknown[], hot: boolean): unknown[][] | Promise<unknown[][] | null>
  objects(sql: string, params: readonly unknown[], hot: boolean): unknown[] | Promise<unknown[] | null>
  /** Whether a read may run now without Kysely's connection lock (SQLite: no transaction open). */
  free(): boolean
  close?(): void
}

/**
 * Kysely's SQLite dialect, with transactions that take the write lock at `begin`. A deferred
 * transaction that has read and then writes after another connection (the scan thread, a worker
 * process) committed fails at once with SQLITE_BUSY, "database is locked": its snapshot is stale, and
 * the busy timeout does not apply to that upgrade. Taking the lock first makes it wait its turn.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver()
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'))
    }
    return driver
  }
}

function createDialect(cfg: DbConfig, pg: Pg | null, setReader: (r: Reader) => void): Dialect {
  switch (cfg.kind) {
    case 'sqlite': {
      if (cfg.file !== ':memory:') {
        // Owner-only: the file holds key hashes, scan results and (encrypted) secrets. SQLite gives
        // its -wal and -shm files the main file's permissions.
        fs.mkdirSync(path.dirname(path.resolve(cfg.file)), { recursive: true, mode: 0o700 })
        if (!fs.existsSync(cfg.file)) fs.closeSync(fs.openSync(cfg.file, 'a', 0o600))
      }
      const database = new SQLite(cfg.file)
      database.pragma('journal_mode = WAL')
      database.pragma('synchronous = NORMAL')
      database.pragma('foreign_keys = ON')
      database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
      cacheStatements(database)
      setReader(
        sqliteReader(
          database,
          cfg.file === ':memory:' ? null : sqliteReadCache(walVersion(path.resolve(cfg.file)), () => database.inTransaction),
        ),
      )
      return new ImmediateSqliteDialect({ database })
    }
    case 'postgres': {
      const pool = new pg!.Pool({ connectionString: cfg.url, max: cfg.poolMax })
      // An idle connection the server dropped (restart, pg_terminate_backend) is discarded by the
      // pool; without a listener its 'error' event would crash the process.
      pool.on('error', () => {})
      // A connection checked out of the pool (between the queries of a transaction, or between
      // acquire and query) has no pool listener: without its own, a server-side termination (FATAL
      // 57P01) is an unhandled 'error' event that kills the process. The failed query rejects anyway.
      pool.on('connect', (client) => client.on('error', () => {}))
      // Named statements: each connection parses and plans a hot read once, then only binds and runs it.
      // A named `SELECT *` fails ("cached plan must not change result type", 0A000) once another
      // process's migration adds a column: then every name changes (a new generation) and the read
      // runs again, parsed afresh.
      const names = new Map<string, string>()
      let generation = 0
      const nameOf = (text: string) => {
        let n = names.get(text)
        if (!n) {
          n = `ward_${generation}_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`
          if (names.size < 1024) names.set(text, n)
        }
        return n
      }
      const named = async (text: string, values: readonly unknown[], arrays: boolean): Promise<pgModule.QueryResult> => {
        const run = () =>
          arrays
            ? pool.query({ name: nameOf(text), text, values: values as unknown[], rowMode: 'array' })
            : pool.query({ name: nameOf(text), text, values: values as unknown[] })
        try {
          return await run()
        } catch (e) {
          if ((e as { code?: string }).code !== '0A000') throw e
          generation++
          names.clear()
          return run()
        }
      }
      // Hot reads of one turn share a statement (pg-read-batch.ts).
      const batch = pgReadBatch(pool, async (text, values) => {
        const r = await named(text, values, true)
        return { rows: r.rows as unknown[][], names: r.fields.map((f) => f.name) }
      })
      setReader({
        arrays: async (text, values, hot) =>
          hot ? ((await batch.read(text, values, true)) as unknown[][]) : ((await named(text, values, true)).rows as unknown[][]),
        objects: async (text, values, hot) => (hot ? batch.read(text, values, false) : (await named(text, values, false)).rows),
        // Every query takes its own pooled connection: never inside another caller's transaction.
        free: () => true,
      })
      return new CurrentSchemaPostgresDialect({ pool })
    }
  }
}

/**
 * Kysely prepares every query afresh; better-sqlite3 statements are reusable (queries run
 * synchronously, one at a time), so identical SQL text reuses its compiled statement.
 */
function cacheStatements(database: SQLite.Database, max = 512) {
  const prepare = database.prepare.bind(database)
  const cache = new Map<string, SQLite.Statement>()
  database.prepare = ((sql: string) => {
    let stmt = cache.get(sql)
    if (!stmt) {
      stmt = prepare(sql)
      if (cache.size >= max) cache.delete(cache.keys().next().value!)
      cache.set(sql, stmt)
    }
    return stmt
  }) as typeof database.prepare
}

// Row objects with two dozen keys cost better-sqlite3 (and pg) about twice as much as arrays; the
// hottest list (findings) reads arrays. Statements in array mode get their own cache: `raw(true)`
// changes a statement, so they must not be shared with Kysely's. Object reads share Kysely's cache
// (cacheStatements above).
function sqliteReader(database: SQLite.Database, rows: ReadCache | null, max = 128): Reader {
  const cache = new Map<string, SQLite.Statement>()
  const arrays = (sql: string, params: readonly unknown[]) => {
    let stmt = cache.get(sql)
    if (!stmt) {
      stmt = database.prepare(sql).raw(true)
      if (cache.size >= max) cache.delete(cache.keys().next().value!)
      cache.set(sql, stmt)
    }
    return stmt.all(...params) as unknown[][]
  }
  const objects = (sql: string, params: readonly unknown[]) => database.prepare(sql).all(...params)
  return {
    arrays: (sql, params, hot) =>
      hot && rows ? (rows.get(sql, params, () => arrays(sql, params)) as Promise<unknown[][] | null>) : arrays(sql, params),
    objects: (sql, params, hot) => (hot && rows ? rows.get(sql, params, () => objects(sql, params)) : objects(sql, params)),
    close: () => rows?.close(),
    // One connection: a read issued while a Kysely transaction is open (between its awaits) would see
    // that transaction's uncommitted rows, so it waits for the connection then. Otherwise a read runs
    // at once (a hot one at the check phase, re-checked there): better-sqlite3 is synchronous,
    // nothing else can be half-way through on the connection.
    free: () => !database.inTransaction,
  }
}

const readers = new WeakMap<object, { read: Reader; onQuery?: (sql: string) => void }>()

async function runRead(db: Db, sql: string, params: readonly unknown[], mode: 'arrays' | 'objects', hot = false): Promise<unknown[]> {
  const r = readers.get(db)
  if (!r) {
    // A transaction or a database opened elsewhere: through Kysely.
    const rows = (await db.executeQuery(CompiledQuery.raw(sql, [...params]))).rows
    return mode === 'arrays' ? rows.map((o) => Object.values(o as object)) : rows
  }
  r.onQuery?.(sql)
  if (r.read.free()) {
    const rows = await r.read[mode](sql, params, hot)
    if (rows) return rows
  }
  return db.connection().execute(async () => (await r.read[mode](sql, params, false))!)
}

/**
 * A Kysely SELECT run for rows as arrays (select-list order). On SQLite it never reads inside
 * another caller's open transaction (see sqliteReader).
 */
export async function selectArrays(db: Db, q: Compilable): Promise<unknown[][]> {
  const c = q.compile()
  return (await runRead(db, c.sql, c.parameters, 'arrays')) as unknown[][]
}

/** A placeholder for the i-th argument of a read template (see `readTemplate`). */
export type Arg = <T>(i: number) => T

interface ReadTemplate {
  sql: string
  /** Per parameter: the index of the argument it takes, or a constant of the query. */
  slots: Array<number | { value: unknown }>
}

const SLOT = '\u0000ward-arg:'
const templates = new WeakMap<object, Map<string, ReadTemplate>>()

/**
 * Building and compiling a Kysely query costs more than running a primary-key read (tens of
 * microseconds for a select list of 30 columns and a few subqueries), so the hot reads build theirs
 * once per database and `key`: `build` gets placeholders for the arguments, and the compiled SQL is
 * reused with each call's values. Whatever changes the SQL's shape (which filters are present) must
 * be part of `key`; values must only come from `arg(i)`.
 */
function readTemplate(db: Db, key: string, build: (arg: Arg) => Compilable): ReadTemplate {
  let byKey = templates.get(db)
  if (!byKey) templates.set(db, (byKey = new Map()))
  let t = byKey.get(key)
  if (!t) {
    const c = build(((i: number) => `${SLOT}${i}`) as Arg).compile()
    const slots = c.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? Number(p.slice(SLOT.length)) : { value: p }))
    t = { sql: c.sql, slots }
    if (byKey.size < 256) byKey.set(key, t)
  }
  return t
}

const bind = (t: ReadTemplate, args: readonly unknown[]) => t.slots.map((s) => (typeof s === 'number' ? args[s] : s.value))

/** How a prepared read may be answered. */
export interface ReadOptions {
  /**
   * A small hot read by key (a resource by id). SQLite answers it from memory while the database is
   * unchanged (every commit of any process empties it, sqlite-read-cache.ts); PostgreSQL runs it with
   * the other reads of the same statement issued in the same event loop turn, as one statement
   * (pg-read-batch.ts). Either way it sees every commit made before it was issued. Not for lists: a
   * list the findings page cache keeps is not worth keeping twice, and a batch keeps no row order.
   */
  hot?: boolean
}

/** Rows (objects) of a read compiled once per database and key (see `readTemplate`). */
export async function selectPrepared<R>(
  db: Db,
  key: string,
  build: (arg: Arg) => Compilable<R>,
  args: readonly unknown[],
  opts: ReadOptions = {},
): Promise<R[]> {
  const t = readTemplate(db, key, build)
  return (await runRead(db, t.sql, bind(t, args), 'objects', opts.hot)) as R[]
}

/** Rows as arrays (select-list order) of a read compiled once per database and key. */
export async function selectPreparedArrays(
  db: Db,
  key: string,
  build: (arg: Arg) => Compilable,
  args: readonly unknown[],
  opts: ReadOptions = {},
): Promise<unknown[][]> {
  const t = readTemplate(db, key, build)
  return (await runRead(db, t.sql, bind(t, args), 'arrays', opts.hot)) as unknown[][]
}

export interface OpenOptions {
  /** Called for every query issued, a read answered from memory included (tests count queries per request). */
  onQuery?: (sql: string) => void
  migrate?: boolean
  /** PostgreSQL: LISTEN/NOTIFY wake-ups between processes (default on). */
  notify?: boolean
  /**
   * Where the key sealing stored secrets comes from (the Config has these fields); by default the key
   * file beside the SQLite file (./data for PostgreSQL). Loaded with the migrations: none with `migrate: false`.
   */
  secrets?: SecretKeySource
}

export async function openDatabase(cfg: DbConfig, opts: OpenOptions = {}): Promise<DbHandle> {
  let read: Reader | null = null
  const secrets = new SecretsCarrier()
  const db = new Kysely<Database>({
    dialect: createDialect(cfg, cfg.kind === 'postgres' ? await loadPg() : null, (r) => (read = r)),
    plugins: [secrets],
    log: opts.onQuery
      ? (e) => {
          if (e.level === 'query') opts.onQuery!(e.query.sql)
        }
      : undefined,
  })
  if (read) readers.set(db, { read, onQuery: opts.onQuery })
  if (opts.migrate !== false) {
    try {
      await migrate(db, cfg.kind)
      await loadSecrets(db, secrets, opts.secrets ?? { secretKey: null, secretKeyFile: defaultSecretKeyFile(cfg) })
    } catch (e) {
      await db.destroy()
      throw e
    }
  }
  const channel = cfg.kind === 'postgres' && opts.notify !== false ? attachPgNotify(cfg.url) : null
  return {
    db,
    kind: cfg.kind,
    async close() {
      await channel?.close()
      await db.destroy()
      readers.get(db)?.read.close?.()
    },
  }
}

export async function migrate(db: Kysely<Database>, kind: DbKind): Promise<void> {
  if (kind === 'sqlite') return runMigrations(new Migrator({ db, provider: migrationProvider(kind) }))
  // PostgreSQL: several processes may start together. A session advisory lock (per schema) held on
  // one connection makes them migrate one after the other; the later ones find nothing to do.
  await db.connection().execute(async (conn) => {
    const schema = await currentSchema(conn)
    const key = `ward_migrate:${schema}`
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(conn)
    try {
      await runMigrations(new Migrator({ db: conn, provider: migrationProvider(kind), migrationTableSchema: schema }))
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn)
    }
  })
}

async function runMigrations(migrator: Migrator): Promise<void> {
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? error}`)
}

// Kysely looks for its migration tables in every schema unless told which one: name ours, so
// databases holding several Ward schemas (tests, tenants) don't see each other's tables.
async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ s: string | null }>`select current_schema() as s`.execute(db)
  if (!rows[0]?.s) throw new Error('PostgreSQL: no current schema (does the schema in search_path exist?)')
  return rows[0].s
}

/** Migrations not yet applied (for readiness checks). */
export async function pendingMigrations(db: Kysely<Database>, kind: DbKind): Promise<string[]> {
  const migrationTableSchema = kind === 'postgres' ? await currentSchema(db) : undefined
  const migrator = new Migrator({ db, provider: migrationProvider(kind), migrationTableSchema })
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name)
}
