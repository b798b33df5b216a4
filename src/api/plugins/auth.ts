// Bearer API key authentication for every /api/v2 route (scheme word case-insensitive).
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { callerByKeyHash, hashKey } from '../../store/accounts.js'

const BEARER = /^\s*bearer\s+(\S+)\s*$/i

async function authPlugin(app: FastifyInstance) {
  const refuse = (reply: FastifyReply, m: RegExpExecArray | null) => {
    reply.header('www-authenticate', 'Bearer')
    return reply
      .status(401)
      .send({ status: 401, message: m ? 'The API key is invalid or revoked' : 'Missing API key: send "authorization: Bearer <API_KEY>"' })
  }
  // A callback hook: a cached caller (most requests) is decided without a promise or a query.
  app.addHook('onRequest', (req, reply, done) => {
    const m = BEARER.exec(req.headers.authorization ?? '')
    if (!m) return refuse(reply, m)
    const keyHash = hashKey(m[1]!)
    const cached = app.callers.get(keyHash)
    if (cached) {
      req.caller = cached
      return done()
    }
    callerByKeyHash(app.ward.db, keyHash).then((caller) => {
      if (!caller) return refuse(reply, m)
      app.callers.set(caller)
      req.caller = caller
      done()
    }, done)
  })
}

/** Registered inside the /api/v2 scope: every route there needs a key; health and docs do not. */
export default fp(authPlugin, { name: 'ward-auth', fastify: '5.x' })
