// Bearer API key authentication for every /api/v2 route (scheme word case-insensitive).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { callerByKeyHash, hashKey } from '../../store/accounts.js'

const BEARER = /^\s*bearer\s+(\S+)\s*$/i

async function authPlugin(app: FastifyInstance) {
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

/** Registered inside the /api/v2 scope: every route there needs a key; health and docs do not. */
export default fp(authPlugin, { name: 'ward-auth', fastify: '5.x' })
