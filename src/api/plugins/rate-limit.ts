// Per-API-key rate limits of decisions.md: GET 250/min, POST/DELETE 125/min, /scans/{id}/output 60/min.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { dbRateLimitStore } from '../../store/rate-limits.js'

async function rateLimitPlugin(app: FastifyInstance) {
  const rl = app.ward.config.rateLimit
  if (!rl.enabled) return
  const maxFor = (req: FastifyRequest) => {
    if (req.routeOptions.url?.endsWith('/scans/:id/output')) return rl.output
    return req.method === 'GET' || req.method === 'HEAD' ? rl.get : rl.write
  }
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: rl.windowMs,
    // Scaled out on PostgreSQL, every API process shares the counters (table rate_limits); a
    // database hiccup lets the request through rather than failing it on the limiter.
    ...(app.ward.dbKind === 'postgres' ? { store: dbRateLimitStore(app.ward.db), skipOnError: true } : {}),
    // Separate buckets per key and per limit class, so reads don't eat the write budget.
    keyGenerator: (req) => `${req.caller?.keyHash ?? req.ip}:${maxFor(req) === rl.get ? 'r' : maxFor(req) === rl.output ? 'o' : 'w'}`,
    max: async (req) => maxFor(req),
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      status: 429,
      message:
        `Rate limit exceeded: at most ${ctx.max} requests per ${Math.round(rl.windowMs / 1000)} s for this API key; ` +
        `retry in ${Math.ceil(ctx.ttl / 1000)} s`,
    }),
  })
}

// Buckets are per API key, so the caller must be known first.
export default fp(rateLimitPlugin, { name: 'ward-rate-limit', fastify: '5.x', dependencies: ['ward-auth'] })
