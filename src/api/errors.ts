// Maps every failure to the error body of decisions.md: {"status", "message", "details"?}.
import type { FastifyError, FastifyInstance } from 'fastify'
import { WardError } from '../domain/errors.js'

type ValidationItem = { instancePath?: string; message?: string; params?: Record<string, unknown> }

function validationMessage(err: FastifyError): string {
  const v = (err.validation?.[0] ?? {}) as ValidationItem
  const where = err.validationContext ?? 'request'
  const member = v.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : (v.params?.missingProperty as string | undefined)
  const what = where === 'params' ? 'path parameter' : where === 'querystring' ? 'query parameter' : where === 'body' ? 'body field' : where
  if (v.params?.missingProperty) return `Invalid parameters: ${what} "${member}" is required`
  if (member) return `Invalid parameters: ${what} "${member}" ${v.message ?? 'is invalid'}`
  return `Invalid parameters: ${where} ${v.message ?? 'is invalid'}`
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { details?: unknown }, req, reply) => {
    if (err instanceof WardError) return reply.status(err.status).send({ status: err.status, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) })
    if (err.validation) return reply.status(400).send({ status: 400, message: validationMessage(err) })
    const code = err.code
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ status: 413, message: 'Request body is too large' })
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.status(415).send({ status: 415, message: `Unsupported content type: ${req.headers['content-type'] ?? 'none'}` })
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return reply.status(400).send({ status: 400, message: 'Invalid parameters: the JSON body is empty' })
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError') return reply.status(400).send({ status: 400, message: 'Invalid parameters: the body is not valid JSON' })
    const status = err.statusCode ?? 500
    if (status >= 400 && status < 500) return reply.status(status).send({ status, message: err.message || 'Bad request', ...(err.details ? { details: err.details } : {}) })
    req.log.error({ err }, 'internal error')
    return reply.status(500).send({ status: 500, message: 'Internal server error' })
  })
}
