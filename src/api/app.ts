// The Fastify application: named plugins for the cross-cutting concerns, then the /api/v2 routes
// behind auth and rate limits, and the OpenAPI document generated from the routes' schemas.
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { MetricsSource } from './plugins/metrics.js'
import type { WardContext } from './context.js'
import errorBody, { clientErrorHandler, frameworkErrors } from './plugins/error-body.js'
import input, { BODY_LIMIT } from './plugins/input.js'
import auth from './plugins/auth.js'
import rateLimit from './plugins/rate-limit.js'
import health from './plugins/health.js'
import audit from './plugins/audit.js'
import metrics from './plugins/metrics.js'
import { createCallerCache } from './caller-cache.js'
import { lazyChildLogger } from './lazy-request-log.js'
import { subscribe } from '../store/notify.js'
import { ErrorBody } from './schemas/common.js'
import { apiRoutes } from './routes/index.js'
import web from '../web/plugin.js'
import { discoverOidc } from '../web/oidc-client.js'
import { redactSecretPath } from '../web/secret-paths.js'
import { pdfBuilds } from '../reports/pdf-builds.js'

export const API_PREFIX = '/api/v2'

export interface BuildOptions {
  logger?: boolean | object
  /** More metrics for /metrics (`ward all`: the engine's, from its scan thread): Prometheus text sources. */
  metricsRegistries?: MetricsSource[]
  /** Serve the web interface (default true). */
  web?: boolean
  /** Told of every route as it is added: the tenancy test enumerates them so that none is left out of its table. */
  onRoute?: (route: { method: string | string[]; url: string }) => void
}

/** Fastify's request serializer, with the secret of a set-password link's path left out. */
const requestLog = (req: FastifyRequest) => ({
  method: req.method,
  url: redactSecretPath(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
})

export async function buildApp(ward: WardContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const logger =
    opts.logger === false
      ? false
      : {
          level: ward.config.logLevel,
          redact: ['req.headers.authorization'],
          serializers: { req: requestLog },
          ...(typeof opts.logger === 'object' ? opts.logger : {}),
        }
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    // A path segment as long as the longest accepted value (a target name in a URL is 2048).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 4096 },
    clientErrorHandler,
    frameworkErrors,
    childLoggerFactory: lazyChildLogger,
  }).withTypeProvider<TypeBoxTypeProvider>()

  if (opts.onRoute) app.addHook('onRoute', opts.onRoute)
  app.decorate('ward', ward)
  pdfBuilds.configure(ward.config.pdfBuilds)
  app.decorate('callers', createCallerCache(ward.config.authCacheMs))
  // A user disabled by another process (PostgreSQL NOTIFY) is forgotten when the event arrives.
  const unsubscribe = subscribe((e) => {
    if (e.type === 'user-changed') app.callers.forgetUser(e.userId)
  })
  app.addHook('onClose', async () => unsubscribe())
  app.decorateRequest('caller', null)
  await app.register(errorBody)
  await app.register(input)
  await app.register(metrics, { registries: opts.metricsRegistries })
  await app.register(health)
  await app.register(audit)
  // The web interface for people (/, /sign-in, ...): its own scope, headers and sessions; registered
  // before the OpenAPI plugin so its pages stay out of the API's document.
  if (opts.web !== false) {
    // Discovery before any plugin starts (their start has a time limit): a provider that cannot be
    // used stops start-up with a ConfigError naming WARD_OIDC_ISSUER.
    const oidc = ward.config.oidc ? await discoverOidc(ward.config.oidc) : null
    await app.register(web, { ...ward, oidc, forgetUser: (userId: number) => app.callers.forgetUser(userId) })
  }

  app.addSchema(ErrorBody)
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Ward API v2',
        version: '0.1.0',
        description: 'Targets, scans, findings and reports of the Ward security scanning service.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  })
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, uiConfig: { docExpansion: 'list' } })
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())

  await app.register(
    async (api) => {
      await api.register(auth)
      await api.register(rateLimit)
      await api.register(apiRoutes)
    },
    { prefix: API_PREFIX },
  )
  return app
}
