// A @fastify/rate-limit store in the database, so every API process counts against the same
// per-key windows: one upsert per request that opens a new window or increments the current one.
import { sql } from 'kysely'
import type { Db } from './db.js'

type IncrCb = (err: Error | null, res?: { current: number; ttl: number }) => void

const SWEEP_EVERY = 1000

export function dbRateLimitStore(db: Db) {
  let calls = 0
  return class DbRateLimitStore {
    incr(key: string, cb: IncrCb, timeWindow: number) {
      const now = Date.now()
      const resetAt = now + timeWindow
      db.insertInto('rate_limits')
        .values({ key, count: 1, reset_at: resetAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
            reset_at: sql`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
          }),
        )
        .returning(['count', 'reset_at'])
        .executeTakeFirstOrThrow()
        .then(
          (r) => cb(null, { current: Number(r.count), ttl: Math.max(0, Number(r.reset_at) - now) }),
          (e) => cb(e as Error),
        )
      // Forget windows that ended long ago, now and then.
      if (++calls % SWEEP_EVERY === 0)
        void db
          .deleteFrom('rate_limits')
          .where('reset_at', '<', now - timeWindow)
          .execute()
          .catch(() => {})
    }

    read(key: string, cb: IncrCb) {
      const now = Date.now()
      db.selectFrom('rate_limits')
        .select(['count', 'reset_at'])
        .where('key', '=', key)
        .executeTakeFirst()
        .then(
          (r) =>
            cb(
              null,
              !r || Number(r.reset_at) <= now ? { current: 0, ttl: 0 } : { current: Number(r.count), ttl: Number(r.reset_at) - now },
            ),
          (e) => cb(e as Error),
        )
    }

    child() {
      return this
    }
  }
}
