// SSH algorithms: read the server's identification line and its SSH_MSG_KEXINIT (sent in clear before any
// key exchange), and name the weak key exchange, cipher and MAC algorithms it offers. No login is attempted.
import { NotThisProtocol, withSession, type ProbeTarget } from '../../lib/services/session.js'

export const SSH_MSG_KEXINIT = 20

export type KexInit = {
  kex: string[]
  hostKey: string[]
  ciphers: string[]
  macs: string[]
  compression: string[]
}

export type SshResult = { banner: string; kexinit: KexInit; transcript: string[] }

/** RFC 9142 "SHOULD NOT"/"MUST NOT" key exchange methods. */
export const WEAK_KEX: readonly string[] = ['diffie-hellman-group1-sha1', 'diffie-hellman-group-exchange-sha1', 'rsa1024-sha1']
const WEAK_KEX_PREFIX = ['gss-group1-sha1-', 'gss-gex-sha1-']

export function weakKex(k: KexInit): string[] {
  return k.kex.filter((a) => WEAK_KEX.includes(a) || WEAK_KEX_PREFIX.some((p) => a.startsWith(p)))
}

/** RC4 (RFC 8758), 64-bit block ciphers, CBC modes, DES and "none". */
export function weakCiphers(k: KexInit): string[] {
  return k.ciphers.filter((a) => /^arcfour|^3des|^des|^blowfish|^cast128|^idea|-cbc(@|$)|^rijndael-cbc|^none$/.test(a))
}

/** MD5 MACs, 96-bit truncated MACs, and "none". */
export function weakMacs(k: KexInit): string[] {
  return k.macs.filter((a) => /^hmac-md5|-96(-etm)?(@|$)|^none$/.test(a))
}

/** Parses the payload of an SSH_MSG_KEXINIT (RFC 4253 §7.1): type, cookie, ten name-lists. */
export function parseKexInit(payload: Buffer): KexInit {
  if (payload[0] !== SSH_MSG_KEXINIT) throw new Error(`expected SSH_MSG_KEXINIT, got message ${payload[0]}`)
  let p = 17
  const lists: string[][] = []
  for (let i = 0; i < 10; i++) {
    if (p + 4 > payload.length) throw new Error('truncated KEXINIT')
    const n = payload.readUInt32BE(p)
    if (p + 4 + n > payload.length) throw new Error('truncated KEXINIT name-list')
    const s = payload.toString('latin1', p + 4, p + 4 + n)
    lists.push(s ? s.split(',') : [])
    p += 4 + n
  }
  // Client-to-server and server-to-client lists are unioned: either direction can be negotiated.
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])]
  return {
    kex: lists[0],
    hostKey: lists[1],
    ciphers: union(lists[2], lists[3]),
    macs: union(lists[4], lists[5]),
    compression: union(lists[6], lists[7]),
  }
}

/** The payload of one unencrypted binary packet: uint32 length, byte padding, payload, padding. */
function packetComplete(buf: Buffer): number {
  if (buf.length < 5) return 0
  const len = buf.readUInt32BE(0)
  if (len > 256 * 1024) throw new Error('SSH packet too large')
  return buf.length >= 4 + len ? 4 + len : 0
}

export function probeSsh(t: ProbeTarget): Promise<SshResult> {
  return withSession(t, async (s) => {
    // RFC 4253 §4.2: the server may send other lines before its "SSH-" identification.
    let banner = ''
    for (let i = 0; i < 20 && !banner.startsWith('SSH-'); i++) banner = await s.readLine()
    if (!banner.startsWith('SSH-')) throw new NotThisProtocol('no SSH identification line')
    s.send('SSH-2.0-WardScanner_1.0\r\n')
    let kexinit: KexInit | null = null
    for (let i = 0; i < 4 && !kexinit; i++) {
      let pkt: Buffer
      try {
        pkt = await s.read((b) => {
          try {
            return packetComplete(b)
          } catch {
            return b.length // unreadable: take it all and fail below
          }
        })
      } catch (e) {
        throw new Error(`no KEXINIT from the server: ${(e as Error).message}`)
      }
      if (pkt.length < 6) throw new Error('malformed SSH packet')
      const pad = pkt[4]
      const payload = pkt.subarray(5, pkt.length - pad)
      if (payload[0] === SSH_MSG_KEXINIT) kexinit = parseKexInit(payload)
    }
    if (!kexinit) throw new Error('the server sent no KEXINIT')
    s.transcript.push(`S: SSH_MSG_KEXINIT (${kexinit.kex.length} kex, ${kexinit.ciphers.length} ciphers, ${kexinit.macs.length} MACs)`)
    return { banner, kexinit, transcript: s.transcript }
  })
}
