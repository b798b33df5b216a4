// Every failure answers with the error body of decisions.md — {"status", "message", "details"?} and
// `content-type: application/json` exactly — whether it comes from a route, from validation, from
// the router (404/405) or from Node's HTTP parser before Fastify sees a request (414/431).
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { WardError } from '../../domain/errors.js'
import { validationMessage } from '../validation-message.js'

/** 415: what this API reads instead. */
export const unsupportedMediaType = (contentType: string | undefined) =>
  new WardError(
    415,
    `Unsupported content type ${JSON.stringify(contentType ?? '')}: send application/json or application/x-www-form-urlencoded`,
  )

/** The body of every error answer. */
export const errorBody = (status: number, message: string, details?: unknown) => ({
  status,
  message,
  ...(details !== undefined ? { details } : {}),
})

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the web interface: the HTML answer for an unknown path a browser asked for. */
    notFoundPage: ((req: FastifyRequest, reply: FastifyReply) => unknown) | null
  }
}

/** Fastify `clientErrorHandler`: errors of Node's HTTP parser, answered on the raw socket. */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy()
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'HPE_URI_TOO_LONG' ? 414 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const message =
    status === 431
      ? 'Request header fields are too large (at most 16 KiB of request line and headers)'
      : status === 414
        ? 'The request URL is too long'
        : status === 408
          ? 'The request took too long to arrive'
          : 'The request is not valid HTTP'
  const body = JSON.stringify(errorBody(status, message))
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/** Fastify `frameworkErrors`: requests the router refuses before any route or hook runs. */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400
  const message =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'The request path is too long: a path segment has more characters than any accepted value'
      : err.code === 'FST_ERR_BAD_URL'
        ? 'The request path is not a valid URL: it has a malformed percent-encoding'
        : 'The request could not be routed'
  // Written raw: Fastify would add "; charset=utf-8", and no onSend hook runs for router errors.
  const body = JSON.stringify(errorBody(status, message))
  reply.hijack()
  reply.raw.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  reply.raw.end(body)
}

/** Which route a path would match, for 405 answers: every registered method and its URL pattern. */
function routeIndex(app: FastifyInstance) {
  const routes: Array<{ method: string; re: RegExp }> = []
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method]
    const re = new RegExp(
      '^' +
        r.url
          .replace(/\/+$/, '')
          .replace(/:[^/]+/g, '[^/]+')
          .replace(/\*/g, '.*') +
        '/?$',
    )
    for (const m of methods) routes.push({ method: m, re })
  })
  return (path: string) => [...new Set(routes.filter((r) => r.re.test(path) && r.method !== 'HEAD').map((r) => r.method))]
}

function errorBodyPlugin(app: FastifyInstance, _opts: unknown, done: () => void) {
  app.setErrorHandler((err: FastifyError & { details?: unknown }, req, reply) => {
    if (err instanceof WardError) return reply.status(err.status).send(errorBody(err.status, err.message, err.details))
    if (err.validation) return reply.status(400).send(errorBody(400, validationMessage(err.validation, err.validationContext)))
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send(errorBody(413, 'Request body is too large (at most 1 MiB)'))
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
        const e = unsupportedMediaType(req.headers['content-type'])
        return reply.status(e.status).send(errorBody(e.status, e.message))
      }
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.status(400).send(errorBody(400, 'The content-length header does not match the body'))
    }
    const status = err.statusCode ?? 500
    if (status >= 400 && status < 500)
      return reply.status(status).send(errorBody(status, err.message || 'Bad request', err.details || undefined))
    req.log.error({ err }, 'internal error')
    return reply.status(500).send(errorBody(500, 'Internal server error'))
  })

  const allowedMethods = routeIndex(app)
  app.decorate('notFoundPage', null)
  app.setNotFoundHandler((req, reply) => {
    const path = (req.url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/')
    // A browser asking for a page that does not exist gets the web interface's page; programs and
    // everything under /api/ keep the error body.
    if (app.notFoundPage && !path.startsWith('/api/') && req.method === 'GET' && /\btext\/html\b/.test(String(req.headers.accept ?? '')))
      return app.notFoundPage(req, reply)
    const allowed = allowedMethods(path)
    if (allowed.length) {
      reply.header('allow', allowed.join(', '))
      return reply.status(405).send(errorBody(405, `Method ${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`))
    }
    return reply.status(404).send(errorBody(404, `Route ${req.method} ${path} does not exist`))
  })

  // A known client compares content-type for equality: no "; charset=utf-8".
  // A callback hook, not an async one: it runs on every answer, and a promise per answer costs more than the check.
  app.addHook('onSend', (_req, reply, payload, done) => {
    const ct = reply.getHeader('content-type')
    if (typeof ct === 'string' && ct !== 'application/json' && ct.startsWith('application/json'))
      reply.header('content-type', 'application/json')
    done(null, payload)
  })
  done()
}

export default fp(errorBodyPlugin, { name: 'ward-error-body', fastify: '5.x' })
