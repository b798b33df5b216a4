// Unauthenticated memcached over TCP: the text protocol's "stats" command.
import { ConnectionClosed, NotThisProtocol, withSession, type ProbeTarget } from '../../lib/services/session.js'

export type MemcachedResult = { unauthenticated: boolean; reply: string; version: string | null; transcript: string[] }

/** Bytes of a complete "stats" answer: STAT lines up to END, or one error line. */
function statsComplete(buf: Buffer): number {
  const text = buf.toString('latin1')
  const firstEol = text.indexOf('\n')
  if (firstEol >= 0 && /^(ERROR|CLIENT_ERROR|SERVER_ERROR)/.test(text)) return firstEol + 1
  const end = text.search(/(^|\n)END\r?\n/)
  if (end < 0) return 0
  return text.indexOf('\n', end + (text[end] === '\n' ? 1 : 0)) + 1
}

export function probeMemcached(t: ProbeTarget): Promise<MemcachedResult> {
  return withSession(t, async (s) => {
    s.send('stats\r\n')
    let text: string
    try {
      text = (await s.read(statsComplete)).toString('latin1')
    } catch (e) {
      // SASL-only servers (-S) drop text-protocol clients: access refused, not an open cache.
      if (!(e instanceof ConnectionClosed)) throw e
      s.transcript.push('S: (connection closed without an answer)')
      return { unauthenticated: false, reply: '(connection closed)', version: null, transcript: s.transcript }
    }
    const lines = text.split(/\r?\n/).filter(Boolean)
    const stats = lines.filter((l) => l.startsWith('STAT '))
    if (!stats.length) {
      s.transcript.push(`S: ${lines[0] ?? ''}`)
      if (/^(ERROR|CLIENT_ERROR|SERVER_ERROR)/.test(lines[0] ?? ''))
        return { unauthenticated: false, reply: lines[0], version: null, transcript: s.transcript }
      throw new NotThisProtocol(`not a memcached reply: ${text.slice(0, 80)}`)
    }
    const version = /^STAT version (\S+)/m.exec(text)?.[1] ?? null
    s.transcript.push(...stats.slice(0, 4).map((l) => `S: ${l}`), `S: ... (${stats.length} STAT lines)`, 'S: END')
    return { unauthenticated: true, reply: stats[0], version, transcript: s.transcript }
  })
}
