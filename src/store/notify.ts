// Wake-ups between the API and the engine through the store: "a scan was queued", "stop scan N".
// In-process listeners serve the embedded mode. On PostgreSQL each open database also gets a
// dedicated connection that LISTENs on `ward_events` (re-emitting what other processes publish to
// the local subscribers) and NOTIFYs what this process publishes. It reconnects with backoff when
// dropped; wake-ups are an optimisation only — workers still poll, so a lost NOTIFY costs latency.
import { EventEmitter } from 'node:events'
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { loadPg } from './pg-driver.js'

export type StoreEvent =
  | { type: 'queued' }
  | { type: 'stop'; scanId: number }
  // A user's row changed (disabled, admin role): API processes forget that user's cached callers.
  | { type: 'user-changed'; userId: number }

export const PG_CHANNEL = 'ward_events'
const ORIGIN = randomBytes(6).toString('hex')
const BACKOFF_MIN_MS = 250
const BACKOFF_MAX_MS = 10000
/** Connecting the LISTEN client to PostgreSQL. */
const CONNECT_TIMEOUT_MS = 5000

const bus = new EventEmitter()
bus.setMaxListeners(0)
const channels = new Set<PgChannel>()

export function publish(e: StoreEvent) {
  bus.emit('event', e)
  for (const c of channels) c.notify(e)
}

export function subscribe(fn: (e: StoreEvent) => void): () => void {
  bus.on('event', fn)
  return () => bus.off('event', fn)
}

export interface PgChannel {
  notify(e: StoreEvent): void
  /** Resolves once LISTEN is in place (tests and start-up ordering); false if it failed. */
  ready(): Promise<boolean>
  listening(): boolean
  close(): Promise<void>
}

/**
 * LISTEN/NOTIFY for one PostgreSQL database. Events carry the schema (several Ward schemas may
 * share a database: ids are only meaningful within one) and this process's origin, so a process
 * ignores its own notifications (it already delivered them locally).
 */
export function attachPgNotify(url: string, log: (msg: string, err?: unknown) => void = () => {}): PgChannel {
  let client: pg.Client | null = null
  let schema: string | null = null
  let closed = false
  let backoff = BACKOFF_MIN_MS
  let retry: NodeJS.Timeout | null = null
  let readyResolve: ((ok: boolean) => void) | null = null
  const readyP = new Promise<boolean>((r) => (readyResolve = r))

  const dropped = (c: pg.Client, err?: unknown) => {
    if (client !== c) return
    client = null
    c.removeAllListeners('notification')
    c.end().catch(() => {})
    if (closed) return
    log(`LISTEN connection lost; reconnecting in ${backoff} ms`, err)
    retry = setTimeout(connect, backoff)
    retry.unref()
    backoff = Math.min(BACKOFF_MAX_MS, backoff * 2)
  }

  async function connect() {
    retry = null
    if (closed) return
    const { Client } = await loadPg()
    if (closed) return
    const c = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
    client = c
    c.on('error', (err) => dropped(c, err))
    c.on('end', () => dropped(c))
    c.on('notification', (m) => {
      if (m.channel !== PG_CHANNEL || !m.payload) return
      try {
        const msg = JSON.parse(m.payload) as { o: string; s: string; e: StoreEvent }
        if (msg.o === ORIGIN || msg.s !== schema) return
        bus.emit('event', msg.e)
      } catch {
        // Not ours: ignore.
      }
    })
    try {
      await c.connect()
      const { rows } = await c.query<{ s: string }>('select current_schema() as s')
      schema = rows[0]?.s ?? 'public'
      await c.query(`LISTEN ${PG_CHANNEL}`)
      if (client !== c) return
      backoff = BACKOFF_MIN_MS
      // Something may have been queued while we were not listening: wake local workers once.
      bus.emit('event', { type: 'queued' } satisfies StoreEvent)
      readyResolve?.(true)
    } catch (err) {
      readyResolve?.(false)
      dropped(c, err)
    }
    readyResolve = null
  }

  // One query at a time on the listening connection: pg queues concurrent ones itself today, with a
  // deprecation warning, and pg 9 will refuse them (many POST /scans at once notify together).
  let sending: Promise<unknown> = Promise.resolve()
  const channel: PgChannel = {
    notify(e) {
      const c = client
      if (!c || schema === null) return
      const payload = JSON.stringify({ o: ORIGIN, s: schema, e })
      sending = sending.then(() => c.query('select pg_notify($1, $2)', [PG_CHANNEL, payload]).catch((err) => log('NOTIFY failed', err)))
    },
    ready: () => readyP,
    listening: () => client !== null && schema !== null,
    async close() {
      closed = true
      channels.delete(channel)
      if (retry) clearTimeout(retry)
      const c = client
      client = null
      readyResolve?.(false)
      await c?.end().catch(() => {})
    },
  }
  channels.add(channel)
  void connect()
  return channel
}
