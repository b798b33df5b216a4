// Hot reads by key on PostgreSQL, issued in the same event loop turn, run as one statement.
// Each statement costs PostgreSQL far more than the index lookup inside it (its own transaction and
// snapshot, the protocol messages, a backend woken on another core), and costs the API a pooled
// connection and a round trip: the API serves a fraction of its SQLite rate on the same reads. Under
// load many requests arrive in each poll phase; their reads of one statement go out together as
//   select i, r.* from unnest($1::integer[], $2::integer[]) with ordinality as b(a1, a2, i)
//     cross join lateral (<the read, $n replaced by b.an>) as r
// (the array types are those PostgreSQL infers for the read alone): one named statement whatever the
// number of reads, parsed once per connection, run as a loop of the same index lookups. Nothing is
// kept between turns: every read is answered by a statement that began after its request arrived, so
// it sees every commit made before (in any process), as alone.
import { createHash } from 'node:crypto'
import type pg from 'pg'

/** Reads of one statement per batch at most; more go out as further batches. */
const MAX_BATCH = 200

export interface PgReadResult {
  rows: unknown[][]
  /** Column names, in select-list order. */
  names: string[]
}

export interface PgReadBatch {
  /** The rows of `text` with `values` (arrays, or objects keyed by column name), read with others of the same turn. */
  read(text: string, values: readonly unknown[], arrays: boolean): Promise<unknown[]>
}

interface Waiting {
  values: readonly unknown[]
  arrays: boolean
  resolve(rows: unknown[]): void
  reject(e: unknown): void
}

/**
 * `single` runs one read alone (a named statement, array rows); `pool` is where the parameter types
 * of each statement are learnt once, by preparing it on one connection.
 */
export function pgReadBatch(pool: pg.Pool, single: (text: string, values: readonly unknown[]) => Promise<PgReadResult>): PgReadBatch {
  let waiting = new Map<string, Waiting[]>()
  let scheduled = false
  // Per statement, its batched form and number of parameters; null: it cannot be batched.
  const batched = new Map<string, Promise<{ sql: string; params: number } | null>>()

  const answer = (w: Waiting, r: PgReadResult, rows: unknown[][]) => w.resolve(w.arrays ? rows : rows.map((row) => objectOf(r.names, row)))

  const runSingly = (text: string, ws: Waiting[]) => {
    for (const w of ws)
      single(text, w.values).then(
        (r) => answer(w, r, r.rows),
        (e) => w.reject(e),
      )
  }

  async function runBatch(text: string, b: { sql: string; params: number }, ws: Waiting[]) {
    let r: PgReadResult
    try {
      const values = Array.from({ length: b.params }, (_, k) => ws.map((w) => w.values[k] ?? null))
      r = await single(b.sql, values)
    } catch {
      // A batch that fails (a migration changed a column's type, a value of another type) gives each
      // read its own answer or its own error.
      return runSingly(text, ws)
    }
    const byRead: unknown[][][] = ws.map(() => [])
    for (const row of r.rows) byRead[Number(row[0]) - 1]!.push(row.slice(1))
    const names = r.names.slice(1)
    ws.forEach((w, i) => answer(w, { rows: byRead[i]!, names }, byRead[i]!))
  }

  async function dispatch(text: string, ws: Waiting[]) {
    if (ws.length === 1) return runSingly(text, ws)
    let form = batched.get(text)
    if (!form) {
      // Learnt once, the first time two reads of the statement meet (a statement PostgreSQL will not
      // prepare alone fails singly too, with its own error).
      form = parameterTypes(pool, text).then(
        (types) => (types.length ? { sql: batchSql(text, types), params: types.length } : null),
        () => null,
      )
      if (batched.size < 1024) batched.set(text, form)
    }
    const b = await form
    if (!b) return runSingly(text, ws)
    for (let i = 0; i < ws.length; i += MAX_BATCH) void runBatch(text, b, ws.slice(i, i + MAX_BATCH))
  }

  function flush() {
    scheduled = false
    const turn = waiting
    waiting = new Map()
    for (const [text, ws] of turn) void dispatch(text, ws)
  }

  return {
    read(text, values, arrays) {
      return new Promise((resolve, reject) => {
        let ws = waiting.get(text)
        if (!ws) waiting.set(text, (ws = []))
        ws.push({ values, arrays, resolve, reject })
        if (!scheduled) {
          scheduled = true
          setImmediate(flush)
        }
      })
    },
  }
}

function objectOf(names: string[], row: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  for (let i = 0; i < names.length; i++) o[names[i]!] = row[i]
  return o
}

/**
 * The read's parameters become columns of the unnested argument arrays. `$n` is only ever a
 * placeholder in Kysely's SQL (values are always parameters, never inlined); `$10` is replaced whole.
 */
export function batchSql(text: string, types: string[]): string {
  const arg = (k: number) => `ward_batch.a${k}`
  const inner = text.replace(/\$(\d+)/g, (_, n: string) => arg(Number(n)))
  const arrays = types.map((t, k) => `$${k + 1}::${t}[]`).join(', ')
  const cols = types.map((_, k) => `a${k + 1}`).join(', ')
  return `select ward_batch.i, ward_read.* from unnest(${arrays}) with ordinality as ward_batch(${cols}, i) cross join lateral (${inner}) as ward_read`
}

/** The types PostgreSQL infers for the statement's parameters, as it would for the statement alone. */
async function parameterTypes(pool: pg.Pool, text: string): Promise<string[]> {
  const name = `ward_probe_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`
  const client = await pool.connect()
  try {
    await client.query(`prepare ${name} as ${text}`)
    try {
      const r = await client.query<{ t: string }>(
        `select u.t::text as t from pg_prepared_statements, unnest(parameter_types) with ordinality as u(t, n) where name = $1 order by u.n`,
        [name],
      )
      return r.rows.map((x) => x.t)
    } finally {
      await client.query(`deallocate ${name}`)
    }
  } finally {
    client.release()
  }
}
