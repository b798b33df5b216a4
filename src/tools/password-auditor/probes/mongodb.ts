// MongoDB login over the wire protocol (OP_MSG), no driver: a command that needs authentication
// first (listDatabases answering means no authentication at all), then SCRAM-SHA-256 or SCRAM-SHA-1
// (as hello's saslSupportedMechs offers for the user) against the admin database. Error 18
// (AuthenticationFailed) is a failure.
import { withSession, type ProbeTarget, type Session } from '../../lib/services/session.js'
import { commandResult, frameLength, opMsg, replyDoc, type BsonDoc } from '../detect/mongo-wire.js'
import { mongoSha1Password, scramClient } from '../detect/scram.js'
import { timed, type Attempter } from './attempt.js'

const UNAUTHORIZED = 13
const AUTHENTICATION_FAILED = 18

async function command(s: Session, id: number, doc: BsonDoc, shown: string): Promise<BsonDoc> {
  s.send(opMsg(id, { ...doc, $db: 'admin' }), shown)
  return replyDoc(await s.read(frameLength))
}

const text = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('utf8') : '')

export const mongodbLogin =
  (t: Omit<ProbeTarget, 'signal'>): Attempter =>
  (user, password, signal) =>
    timed(() =>
      withSession({ ...t, signal }, async (s) => {
        const open = commandResult(await command(s, 1, { listDatabases: 1, nameOnly: true }, 'listDatabases'))
        if (open.ok) return { result: 'no-auth', note: 'listDatabases answers without authentication' }
        if (open.code !== UNAUTHORIZED) return { result: 'error', note: `listDatabases: ${open.code ?? '?'} ${open.message}` }
        const hello = await command(s, 2, { hello: 1, saslSupportedMechs: `admin.${user}` }, `hello saslSupportedMechs admin.${user}`)
        const mechs = Array.isArray(hello.saslSupportedMechs) ? hello.saslSupportedMechs : []
        const sha1 = mechs.includes('SCRAM-SHA-1') && !mechs.includes('SCRAM-SHA-256')
        const mechanism = sha1 ? 'SCRAM-SHA-1' : 'SCRAM-SHA-256'
        const scram = scramClient(undefined, { user, hash: sha1 ? 'sha1' : 'sha256' })
        const start = await command(
          s,
          3,
          { saslStart: 1, mechanism, payload: Buffer.from(scram.first), autoAuthorize: 1, options: { skipEmptyExchange: true } },
          `saslStart ${mechanism} user=${user}`,
        )
        let r = commandResult(start)
        if (!r.ok)
          return r.code === AUTHENTICATION_FAILED
            ? { result: 'failure', note: 'AuthenticationFailed' }
            : { result: 'error', note: `saslStart: ${r.code ?? '?'} ${r.message}` }
        const final = scram.final(text(start.payload), sha1 ? mongoSha1Password(user, password) : password)
        let reply = await command(
          s,
          4,
          { saslContinue: 1, conversationId: start.conversationId ?? 1, payload: Buffer.from(final) },
          'saslContinue ***',
        )
        r = commandResult(reply)
        // Without skipEmptyExchange the server wants one more, empty, round before it says done.
        if (r.ok && reply.done !== true)
          r = commandResult(
            (reply = await command(
              s,
              5,
              { saslContinue: 1, conversationId: start.conversationId ?? 1, payload: Buffer.alloc(0) },
              'saslContinue',
            )),
          )
        if (r.ok) return { result: 'success', note: mechanism }
        return r.code === AUTHENTICATION_FAILED
          ? { result: 'failure', note: 'AuthenticationFailed' }
          : { result: 'error', note: `saslContinue: ${r.code ?? '?'} ${r.message}` }
      }),
    )
