// Liveness and readiness for orchestrators and load balancers, outside /api/v2 and without auth:
// /healthz says the process answers; /readyz says it can serve (database reachable, schema current).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { sql } from 'kysely'
import { pendingMigrations } from '../../store/db.js'

const READY_TIMEOUT_MS = 2000

async function healthPlugin(app: FastifyInstance) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))

  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const { db, dbKind } = app.ward
    try {
      const pending = await withTimeout(
        (async () => {
          await sql`select 1`.execute(db)
          return pendingMigrations(db, dbKind)
        })(),
        READY_TIMEOUT_MS,
      )
      if (pending.length) return reply.status(503).send({ status: 'not ready', reason: `pending migrations: ${pending.join(', ')}` })
      return { status: 'ready', database: dbKind }
    } catch (e) {
      return reply.status(503).send({ status: 'not ready', reason: `database unreachable: ${(e as Error).message}` })
    }
  })
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout
  return Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`no answer in ${ms} ms`)), ms)))]).finally(
    () => clearTimeout(t),
  )
}

export default fp(healthPlugin, { name: 'ward-health', fastify: '5.x' })
