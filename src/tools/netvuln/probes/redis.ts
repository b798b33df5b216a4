// Unauthenticated Redis: PING, and INFO server for the version, without AUTH.
import { NotThisProtocol, withSession, type ProbeTarget } from '../../lib/services/session.js'

export type RedisResult = { unauthenticated: boolean; reply: string; version: string | null; transcript: string[] }

const resp = (...args: string[]) => `*${args.length}\r\n` + args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')

export function probeRedis(t: ProbeTarget): Promise<RedisResult> {
  return withSession(t, async (s) => {
    s.send(resp('PING'), 'PING')
    const reply = await s.readLine()
    if (/^-(NOAUTH|WRONGPASS|DENIED|ERR.*(auth|password|not permitted))/i.test(reply)) {
      return { unauthenticated: false, reply, version: null, transcript: s.transcript }
    }
    if (reply !== '+PONG') throw new NotThisProtocol(`not a Redis reply: ${reply.slice(0, 80)}`)
    s.send(resp('INFO', 'server'), 'INFO server')
    const head = await s.readLine()
    let version: string | null = null
    const len = /^\$(\d+)$/.exec(head)
    if (len) {
      const n = Number(len[1])
      const body = (await s.read((b) => (b.length >= n + 2 ? n + 2 : 0))).toString('latin1')
      version = /^redis_version:(\S+)/m.exec(body)?.[1] ?? null
      s.transcript.push(`S: (${n} bytes of INFO${version ? `, redis_version:${version}` : ''})`)
    }
    return { unauthenticated: true, reply, version, transcript: s.transcript }
  })
}
