// Unknown routes → 404, known paths with the wrong method → 405 with `allow`; both with the error body.
import type { FastifyInstance } from 'fastify'

export function installMethodNotAllowed(app: FastifyInstance) {
  const routes: Array<{ method: string; re: RegExp }> = []
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method]
    const re = new RegExp('^' + r.url.replace(/\/+$/, '').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*') + '/?$')
    for (const m of methods) routes.push({ method: m, re })
  })
  app.setNotFoundHandler((req, reply) => {
    const path = (req.url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/')
    const allowed = [...new Set(routes.filter((r) => r.re.test(path) && r.method !== 'HEAD').map((r) => r.method))]
    if (allowed.length) {
      reply.header('allow', allowed.join(', '))
      return reply.status(405).send({ status: 405, message: `Method ${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}` })
    }
    return reply.status(404).send({ status: 404, message: `Route ${req.method} ${path} does not exist` })
  })
}
