// The Fastify application: /api/v2 routes behind auth and rate limits, OpenAPI, error mapping.
import Fastify, { type FastifyInstance } from 'fastify'
import formbody from '@fastify/formbody'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Registry } from 'prom-client'
import type { WardContext } from './context.js'
import { installErrorHandling } from './errors.js'
import { installValidation } from './validation.js'
import { installAuth } from './auth.js'
import { createCallerCache } from './caller-cache.js'
import { installRateLimit } from './rate-limit.js'
import { installMethodNotAllowed } from './not-found.js'
import { installHealth } from './health.js'
import { installMetrics } from './metrics.js'
import { ErrorBody } from './schemas/common.js'
import { targetRoutes } from './routes/targets.js'
import { workspaceRoutes } from './routes/workspaces.js'
import { API_ROUTE_PLUGINS } from './routes/index.js'

export const API_PREFIX = '/api/v2'

export interface BuildOptions {
  logger?: boolean | object
  /** More prom-client registries for /metrics (`ward all`: the engine's). */
  metricsRegistries?: Registry[]
}

export async function buildApp(ward: WardContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: ward.config.logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.decorate('ward', ward)
  app.decorate('callers', createCallerCache(ward.config.authCacheMs))
  app.decorateRequest('caller', null)
  installErrorHandling(app)
  installValidation(app)
  installMethodNotAllowed(app)
  installMetrics(app, opts.metricsRegistries)
  installHealth(app)

  // A known client compares content-type for equality: no "; charset=utf-8".
  app.addHook('onSend', async (_req, reply, payload) => {
    const ct = reply.getHeader('content-type')
    if (typeof ct === 'string' && ct.startsWith('application/json')) reply.header('content-type', 'application/json')
    return payload
  })

  // Bodies are JSON or form-encoded; anything else (text/plain included) is 415.
  app.removeContentTypeParser('text/plain')
  await app.register(formbody, { bodyLimit: 1024 * 1024 })
  app.addSchema(ErrorBody)
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Ward API v2', version: '0.1.0', description: 'Targets, scans, findings and reports of the Ward security scanning service.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  })
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, uiConfig: { docExpansion: 'list' } })
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())

  await app.register(
    async (api) => {
      installAuth(api)
      await installRateLimit(api)
      await api.register(targetRoutes)
      await api.register(workspaceRoutes)
      for (const plugin of API_ROUTE_PLUGINS) await api.register(plugin)
    },
    { prefix: API_PREFIX },
  )
  return app
}
