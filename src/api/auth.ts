// Bearer API key authentication for every /api/v2 route (scheme word case-insensitive).
import type { FastifyInstance } from 'fastify'
import { callerByKeyHash, hashKey } from '../store/accounts.js'

const BEARER = /^\s*bearer\s+(\S+)\s*$/i

export function installAuth(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    const m = BEARER.exec(req.headers.authorization ?? '')
    let caller = null
    if (m) {
      const keyHash = hashKey(m[1]!)
      caller = app.callers.get(keyHash)
      if (!caller) {
        caller = await callerByKeyHash(app.ward.db, keyHash)
        if (caller) app.callers.set(caller)
      }
    }
    if (!caller) {
      reply.header('www-authenticate', 'Bearer')
      return reply.status(401).send({ status: 401, message: m ? 'The API key is invalid or revoked' : 'Missing API key: send "authorization: Bearer <API_KEY>"' })
    }
    req.caller = caller
  })
}
