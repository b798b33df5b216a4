// An authoritative DNS server on loopback (UDP + TCP) that also plays the scan's resolver: names outside
// its zones are NXDOMAIN (as a recursive resolver would say for names that do not exist), so tests never
// need a real resolver. Zones: ward-test.example (AXFR allowed, weak SPF, no DMARC, dangling CNAMEs),
// healthy.example (the healthy twin), wild.example (wildcard, ?all, p=none).
import dgram from 'node:dgram'
import net from 'node:net'
import {
  CLASS,
  decodeMessage,
  encodeMessage,
  normalizeName,
  RCODE,
  TYPE,
  type DnsMessage,
  type DnsRecord,
} from '../../src/tools/lib/dns/message.js'

export interface Zone {
  origin: string
  axfr: boolean
  records: DnsRecord[]
  /**
   * false: answer a CNAME alone, without chasing its target (as an authoritative server that is not a
   * recursive resolver does for targets outside its data), so the client must follow the chain itself.
   */
  chase?: boolean
}

export const DNS_HOST = '127.0.5.53'
/** A name server address with nothing listening: its AXFR attempt fails with connection refused. */
export const DEAD_NS_HOST = '127.0.5.54'

const rr = (name: string, type: keyof typeof TYPE, data: string, ttl = 300): DnsRecord => ({
  name: normalizeName(name),
  type: TYPE[type],
  class: CLASS.IN,
  ttl,
  data,
})

function zone(origin: string, axfr: boolean, lines: Array<[string, keyof typeof TYPE, string]>): Zone {
  const fq = (n: string) => (n === '@' ? origin : `${n}.${origin}`)
  return {
    origin,
    axfr,
    records: [
      rr(origin, 'SOA', `ns1.${origin} hostmaster.${origin} 2026112101 3600 600 604800 300`),
      ...lines.map(([n, t, d]) => rr(fq(n), t, d)),
    ],
  }
}

/** depth.example: decoded SRV/CAA/NAPTR/SSHFP/TLSA, CNAME chains the client must follow (and a loop), two NS names on one address. */
const DEPTH_ZONE: Zone = {
  ...zone('depth.example', true, [
    ['@', 'NS', 'ns1.depth.example'],
    ['@', 'NS', 'ns2.depth.example'],
    ['@', 'A', '127.0.27.40'],
    ['@', 'TXT', 'v=spf1 -all'],
    ['_dmarc', 'TXT', 'v=DMARC1; p=reject'],
    ['@', 'CAA', '0 issue "letsencrypt.org"'],
    ['@', 'NAPTR', '100 10 "S" "SIP+D2U" "" _sip._udp.depth.example'],
    ['_sip._udp', 'SRV', '10 5 5060 sip.depth.example'],
    ['ns1', 'A', DNS_HOST],
    ['ns2', 'A', DNS_HOST], // the same server under a second name: one AXFR finding
    ['sip', 'A', '127.0.27.41'],
    ['www', 'A', '127.0.27.40'],
    ['www', 'SSHFP', '4 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'],
    ['_443._tcp.www', 'TLSA', '3 1 1 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'],
    ['app', 'CNAME', 'edge.cdn-depth.example'],
    ['api', 'CNAME', 'app.depth.example'],
    ['loop1', 'CNAME', 'loop2.depth.example'],
    ['loop2', 'CNAME', 'loop1.depth.example'],
  ]),
  chase: false,
}

export const ZONES: Zone[] = [
  DEPTH_ZONE,
  zone('cdn-depth.example', false, [
    ['@', 'NS', 'ns1.cdn-depth.example'],
    ['ns1', 'A', DNS_HOST],
    ['edge', 'A', '127.0.27.42'],
  ]),
  zone('ward-test.example', true, [
    ['@', 'NS', 'ns1.ward-test.example'],
    ['@', 'NS', 'ns2.ward-test.example'],
    ['@', 'A', '127.0.5.60'],
    ['@', 'MX', '10 mail.ward-test.example'],
    ['@', 'TXT', 'v=spf1 mx +all'],
    ['@', 'TXT', 'google-site-verification=ward-test-token'],
    ['ns1', 'A', DNS_HOST],
    ['ns2', 'A', DEAD_NS_HOST],
    ['www', 'A', '127.0.5.60'],
    ['www', 'AAAA', 'fd00:5::60'],
    ['mail', 'A', '127.0.5.61'],
    ['api', 'A', '127.0.5.62'],
    ['vpn', 'A', '127.0.5.63'],
    ['dev', 'CNAME', 'www.ward-test.example'],
    ['shop', 'CNAME', 'ward-shop-gone.herokuapp.com'],
    ['legacy', 'CNAME', 'old-app.ward-deleted.example'],
    ['internal-build-7', 'A', '10.20.30.40'], // in no wordlist: only the zone transfer reveals it
  ]),
  zone('healthy.example', false, [
    ['@', 'NS', 'ns1.healthy.example'],
    ['@', 'A', '127.0.5.70'],
    ['@', 'MX', '10 mail.healthy.example'],
    ['@', 'TXT', 'v=spf1 mx -all'],
    ['_dmarc', 'TXT', 'v=DMARC1; p=reject; rua=mailto:dmarc@healthy.example'],
    ['ns1', 'A', DNS_HOST],
    ['www', 'A', '127.0.5.70'],
    ['mail', 'A', '127.0.5.71'],
    ['blog', 'CNAME', 'www.healthy.example'],
    ['dev-portal', 'A', '127.0.5.72'], // only in the deep wordlist
    ['lists', 'MX', '10 mail.healthy.example'], // a mail-only name: its DMARC policy is the parent's
    ['lists', 'TXT', 'v=spf1 mx -all'],
  ]),
  zone('wild.example', false, [
    ['@', 'NS', 'ns1.wild.example'],
    ['@', 'A', '127.0.5.80'],
    ['@', 'TXT', 'v=spf1 a ?all'],
    ['_dmarc', 'TXT', 'v=DMARC1; p=none; rua=mailto:d@wild.example'],
    ['ns1', 'A', DNS_HOST],
    ['*', 'A', '127.0.5.99'],
    ['www', 'A', '127.0.5.81'],
    ['api', 'A', '127.0.5.99'], // same address as the wildcard: indistinguishable, so not reported
  ]),
]

/** What the subdomain finder must report per zone (brute force with the light list). */
export const TRUTH = {
  'ward-test.example': {
    checks: [
      'subdomain.dns.axfr-allowed',
      'subdomain.dns.dangling-cname',
      'subdomain.dns.dmarc-missing',
      'subdomain.dns.spf-weak',
      'subdomain.dns.subdomain-found',
    ],
    subdomains: ['api', 'dev', 'internal-build-7', 'legacy', 'mail', 'ns1', 'ns2', 'shop', 'vpn', 'www'].map(
      (l) => `${l}.ward-test.example`,
    ),
    dangling: { 'shop.ward-test.example': 'high', 'legacy.ward-test.example': 'medium' },
  },
  'healthy.example': {
    checks: ['subdomain.dns.subdomain-found'],
    subdomains: ['blog', 'mail', 'ns1', 'www'].map((l) => `${l}.healthy.example`),
  },
  'wild.example': {
    checks: ['subdomain.dns.dmarc-weak', 'subdomain.dns.spf-weak', 'subdomain.dns.subdomain-found', 'subdomain.dns.wildcard'],
    subdomains: ['ns1.wild.example', 'www.wild.example'],
  },
  'depth.example': {
    checks: ['subdomain.dns.axfr-allowed', 'subdomain.dns.subdomain-found'],
    subdomains: ['api', 'app', 'loop1', 'loop2', 'ns1', 'ns2', 'sip', 'www'].map((l) => `${l}.depth.example`),
  },
} as const

export interface DnsTestServer {
  host: string
  port: number
  /** Queries received per transport (tests check the TCP fallback with it). */
  stats: { udp: number; tcp: number; axfr: number }
  /** Every question received: when (performance.now()), the name and the type (tests check pacing with it). */
  questions: Array<{ at: number; name: string; type: number }>
  close(): Promise<void>
}

export async function startDnsServer(o: { host?: string; port?: number; zones?: Zone[] } = {}): Promise<DnsTestServer> {
  const host = o.host ?? DNS_HOST
  const port = o.port ?? 53
  const zones = o.zones ?? ZONES
  const stats = { udp: 0, tcp: 0, axfr: 0 }
  const questions: DnsTestServer['questions'] = []
  const heard = (q: DnsMessage) => {
    const first = q.questions[0]
    if (first) questions.push({ at: performance.now(), name: first.name, type: first.type })
  }

  const udp = dgram.createSocket('udp4')
  udp.on('message', (msg, rinfo) => {
    stats.udp++
    let q: DnsMessage
    try {
      q = decodeMessage(msg)
    } catch {
      return
    }
    heard(q)
    const out = q.questions[0]?.type === TYPE.AXFR ? reply(q, { rcode: RCODE.REFUSED }) : answer(zones, q)
    // Classic 512-byte limit: larger answers are truncated so the client retries over TCP.
    const bytes = out.length > 512 ? reply(q, { tc: true }) : out
    udp.send(bytes, rinfo.port, rinfo.address)
  })
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject)
    udp.bind(port, host, () => resolve())
  })

  const sockets = new Set<net.Socket>()
  const tcp = net.createServer((s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
    s.on('error', () => s.destroy())
    let pending = Buffer.alloc(0)
    s.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const msg = pending.subarray(2, 2 + pending.readUInt16BE(0))
        pending = pending.subarray(2 + msg.length)
        stats.tcp++
        let q: DnsMessage
        try {
          q = decodeMessage(msg)
        } catch {
          s.destroy()
          return
        }
        heard(q)
        const frames = q.questions[0]?.type === TYPE.AXFR ? transfer(zones, q, stats) : [answer(zones, q)]
        for (const f of frames) s.write(Buffer.concat([u16(f.length), f]))
      }
    })
  })
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject)
    tcp.listen(port, host, () => resolve())
  })

  return {
    host,
    port,
    stats,
    questions,
    async close() {
      for (const s of sockets) s.destroy()
      await Promise.all([new Promise<void>((r) => udp.close(() => r())), new Promise<void>((r) => tcp.close(() => r()))])
    },
  }
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2)
  b.writeUInt16BE(n, 0)
  return b
}

function reply(
  q: DnsMessage,
  f: { rcode?: number; tc?: boolean; aa?: boolean },
  answers: DnsRecord[] = [],
  authorities: DnsRecord[] = [],
): Buffer {
  return encodeMessage({
    id: q.id,
    flags: { qr: true, opcode: 0, aa: f.aa ?? false, tc: f.tc ?? false, rd: q.flags.rd, ra: true, rcode: f.rcode ?? RCODE.NOERROR },
    questions: q.questions,
    answers,
    authorities,
  })
}

const zoneOf = (zones: Zone[], name: string) =>
  zones.filter((z) => name === z.origin || name.endsWith(`.${z.origin}`)).sort((a, b) => b.origin.length - a.origin.length)[0]

/** Records of `name` in its zone, with wildcard synthesis (RFC 4592, simplified: no closer encloser). */
function lookup(zones: Zone[], name: string): { zone?: Zone; records: DnsRecord[]; exists: boolean } {
  const zone = zoneOf(zones, name)
  if (!zone) return { records: [], exists: false }
  const own = zone.records.filter((r) => r.name === name)
  const nonTerminal = zone.records.some((r) => r.name.endsWith(`.${name}`))
  if (own.length || nonTerminal) return { zone, records: own, exists: true }
  const parent = name.slice(name.indexOf('.') + 1)
  const wild = zone.records.filter((r) => r.name === `*.${parent}`)
  if (wild.length && name !== zone.origin) return { zone, records: wild.map((r) => ({ ...r, name })), exists: true }
  return { zone, records: [], exists: false }
}

function answer(zones: Zone[], q: DnsMessage): Buffer {
  const question = q.questions[0]
  if (!question) return reply(q, { rcode: RCODE.FORMERR })
  const answers: DnsRecord[] = []
  let name = normalizeName(question.name)
  for (let hops = 0; hops < 8; hops++) {
    const l = lookup(zones, name)
    const soa = l.zone ? l.zone.records.filter((r) => r.type === TYPE.SOA) : []
    if (!l.exists) return reply(q, { rcode: RCODE.NXDOMAIN, aa: Boolean(l.zone) }, answers, soa)
    const cname = l.records.find((r) => r.type === TYPE.CNAME)
    if (cname && question.type !== TYPE.CNAME) {
      answers.push(cname)
      if (l.zone?.chase === false) return reply(q, { aa: true }, answers)
      name = cname.data // chase like a recursive resolver
      continue
    }
    const matching = l.records.filter((r) => r.type === question.type || question.type === TYPE.ANY)
    return reply(q, { aa: true }, [...answers, ...matching], matching.length ? [] : soa)
  }
  return reply(q, { rcode: RCODE.SERVFAIL }, answers)
}

/** AXFR: SOA, every record, SOA — in several messages, as real servers do. Refused where not allowed. */
function transfer(zones: Zone[], q: DnsMessage, stats: { axfr: number }): Buffer[] {
  const zone = zones.find((z) => z.origin === normalizeName(q.questions[0]!.name))
  if (!zone?.axfr) return [reply(q, { rcode: RCODE.REFUSED })]
  stats.axfr++
  const soa = zone.records.find((r) => r.type === TYPE.SOA)!
  const body = zone.records.filter((r) => r.type !== TYPE.SOA)
  const all = [soa, ...body, soa]
  const frames: Buffer[] = []
  for (let i = 0; i < all.length; i += 6) frames.push(reply(q, { aa: true }, all.slice(i, i + 6)))
  return frames
}
