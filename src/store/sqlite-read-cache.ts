// Hot reads by id served from memory while an SQLite database is unchanged.
// On a busy API a primary-key read costs SQLite far more than in a loop (its code and pages are
// evicted between requests, and every read takes and drops two file locks): ~30 µs of a 71 µs request.
// Whether anything was committed since a read is told by the WAL index header, which every
// connection of every process rewrites on each commit (https://sqlite.org/walformat.html: two
// copies of a 48-byte header at the start of the -shm file, the second written first). It is read
// with one pread, no lock, and a header caught half-written (the copies differ) counts as a change.
// Reads wait for the event loop's check phase and share one header read there (see sqliteReadCache).
import fs from 'node:fs'

const HEADER = 48
/** Results kept per connection (each a few rows of one read). */
const MAX_ENTRIES = 4096
/** A result with more text than this is read each time (a scan's output, a long description). */
const MAX_RESULT_CHARS = 64 * 1024

/** The state of the database's WAL index, or null while it cannot be read (no -shm file, a write under way). */
export interface WalVersion {
  /** The current header; valid until the next call. */
  read(): Buffer | null
  close(): void
}

export function walVersion(file: string): WalVersion {
  const buf = Buffer.alloc(HEADER * 2)
  const copy = buf.subarray(0, HEADER)
  let fd: number | null = null
  let closed = false
  return {
    read() {
      if (closed) return null
      try {
        fd ??= fs.openSync(`${file}-shm`, 'r')
        if (fs.readSync(fd, buf, 0, HEADER * 2, 0) < HEADER * 2) return null
      } catch {
        return null
      }
      // isInit (byte 12) is set once a connection has built the index.
      if (buf[12] === 0 || buf.compare(buf, HEADER, HEADER * 2, 0, HEADER) !== 0) return null
      return copy
    },
    close() {
      closed = true
      if (fd !== null) fs.closeSync(fd)
      fd = null
    },
  }
}

const textSize = (rows: unknown[]): number => {
  let n = 0
  for (const r of rows) for (const v of Array.isArray(r) ? r : Object.values(r as object)) if (typeof v === 'string') n += v.length
  return n
}

/** A copy of each row: callers own what a read gives them. */
const copyRows = (rows: unknown[]): unknown[] => rows.map((r) => (Array.isArray(r) ? r.slice() : { ...(r as object) }))

export interface ReadCache {
  /**
   * The rows of `run()`, from memory when the same read ran since the last commit; null when the
   * connection is inside a transaction at that moment (the caller reads through the connection's lock).
   */
  get(sql: string, params: readonly unknown[], run: () => unknown[]): Promise<unknown[] | null>
  close(): void
}

interface Waiting {
  sql: string
  params: readonly unknown[]
  run: () => unknown[]
  resolve(rows: unknown[] | null): void
  reject(e: unknown): void
}

/**
 * `busy`: whether the connection is inside a transaction (its reads would see uncommitted rows).
 * Reads wait for the event loop's check phase and share one header read there: every request they
 * serve was received in the poll phase before it, so each still sees every commit made before its
 * request arrived, at one `pread` for all of them.
 */
export function sqliteReadCache(version: WalVersion, busy: () => boolean = () => false): ReadCache {
  const seen = Buffer.alloc(HEADER)
  // By statement, then by arguments: the statement's text is the same string each time (its hash is
  // kept), the arguments' key is short.
  const entries = new Map<string, Map<string, unknown[]>>()
  let size = 0
  let waiting: Waiting[] = []

  function lookup(w: Waiting): unknown[] {
    let bySql = entries.get(w.sql)
    if (!bySql) entries.set(w.sql, (bySql = new Map()))
    const key = w.params.length === 2 ? `${w.params[0]}\u0000${w.params[1]}` : w.params.join('\u0000')
    const hit = bySql.get(key)
    if (hit) return copyRows(hit)
    // The header was read before the query: a commit in between makes the next read miss.
    const rows = w.run()
    if (textSize(rows) <= MAX_RESULT_CHARS) {
      // Full: start again (a changed database empties it anyway).
      if (size >= MAX_ENTRIES) {
        entries.clear()
        entries.set(w.sql, bySql)
        bySql.clear()
        size = 0
      }
      bySql.set(key, copyRows(rows))
      size++
    }
    return rows
  }

  function flush() {
    const batch = waiting
    waiting = []
    const v = version.read()
    if (v && !v.equals(seen)) {
      v.copy(seen)
      entries.clear()
      size = 0
    }
    for (const w of batch) {
      try {
        w.resolve(busy() ? null : v ? lookup(w) : w.run())
      } catch (e) {
        w.reject(e)
      }
    }
  }

  return {
    get(sql, params, run) {
      return new Promise((resolve, reject) => {
        if (waiting.push({ sql, params, run, resolve, reject }) === 1) setImmediate(flush)
      })
    },
    close: () => version.close(),
  }
}
