// UDP probes as data: what to send to a port, and how to read the answer. Like nmap's payloads, a
// port-specific request makes a silent-by-default service answer; other ports get an empty datagram.
// Follow-ups run on ports already found open, to test a service's risky features.
import type { Check } from '../../../toolkit/check.js'
import type { Hit } from '../../../toolkit/hit.js'
import {
  udpDnsOpenResolver,
  udpDnsVersionDisclosure,
  udpMemcachedExposed,
  udpNetbiosExposed,
  udpNtpMode6,
  udpNtpMonlist,
  udpSnmpPublic,
  udpSsdpExposed,
  udpTftpExposed,
} from '../checks.js'
import { buildQuery, CLASS, decodeMessage, TYPE } from '../../lib/dns/message.js'

export type { Hit }

export interface Recognised {
  service: string
  /** One line for output_data.ports (version, banner...). */
  details?: string
  /** Product and version the reply names (matched against the version catalogue and imported CVEs). */
  product?: string
  version?: string
  hits?: Hit[]
}

export interface UdpProbe {
  id: string
  service: string
  ports: readonly number[]
  /** Sent together on each attempt (e.g. SNMP v1 and v2c). */
  payloads: readonly Buffer[]
  /** The server answers from another port (TFTP replies from its transfer id). */
  anySourcePort?: boolean
  /** null: the reply is not this protocol (the port is still open). */
  recognise(reply: Buffer, sent: number): Recognised | null
}

export interface FollowUp {
  id: string
  service: string
  check: Check
  payloads: readonly Buffer[]
  /** A detail line when the reply proves the check, else null. */
  confirm(reply: Buffer, sent: number): string | null
}

const PROBE_ID = 0x5744 // 'WD': fixed so the payloads are constants

const ratio = (reply: Buffer, sent: number) =>
  `${sent} bytes sent, ${reply.length} bytes received (amplification ×${(reply.length / Math.max(1, sent)).toFixed(1)})`
const printable = (b: Buffer, max = 120) =>
  b
    .toString('latin1')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)

// ---------------------------------------------------------------- DNS

const dnsVersionQuery = buildQuery('version.bind', TYPE.TXT, { id: PROBE_ID, rd: false, class: CLASS.CH }).bytes
const dnsRecursionQuery = buildQuery('', TYPE.NS, { id: PROBE_ID + 1, rd: true }).bytes

const dns: UdpProbe = {
  id: 'dns-version-bind',
  service: 'domain',
  ports: [53],
  payloads: [dnsVersionQuery],
  recognise(reply) {
    let m: ReturnType<typeof decodeMessage>
    try {
      m = decodeMessage(reply)
    } catch {
      return null
    }
    if (!m.flags.qr || m.id !== PROBE_ID) return null
    const version = m.answers.find((r) => r.type === TYPE.TXT)?.data
    if (!version) return { service: 'domain', details: 'DNS server (version hidden)' }
    // BIND answers with its bare version ("9.11.4-P2"); other servers name themselves (left to the banner).
    const bind = /^(\d+\.\d+(?:\.\d+)*)[-.\w]*$/.exec(version.trim())
    return {
      service: 'domain',
      details: `version.bind: ${version}`,
      ...(bind ? { product: 'ISC BIND', version: bind[1] } : {}),
      hits: [{ check: udpDnsVersionDisclosure, detail: `version.bind answered "${version}".` }],
    }
  },
}

const dnsRecursion: FollowUp = {
  id: 'dns-recursion',
  service: 'domain',
  check: udpDnsOpenResolver,
  payloads: [dnsRecursionQuery],
  confirm(reply, sent) {
    try {
      const m = decodeMessage(reply)
      if (m.id !== PROBE_ID + 1 || !m.flags.ra || m.flags.rcode !== 0 || m.answers.length === 0) return null
      return `A recursive query for the root NS set was answered with ${m.answers.length} records; ${ratio(reply, sent)}.`
    } catch {
      return null
    }
  },
}

// ---------------------------------------------------------------- NTP

const ntpClient = Buffer.alloc(48)
ntpClient[0] = 0xe3 // LI 3 (unsynchronised), version 4, mode 3 (client)

// Mode 6 (control), version 2, READVAR (opcode 2), sequence 1, association 0: ntpq -c rv.
const ntpReadvar = Buffer.from([0x16, 0x02, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0])
// Mode 7 (private), version 2, implementation XNTPD (3), request MON_GETLIST_1 (42): ntpdc -c monlist.
const ntpMonlist = Buffer.concat([Buffer.from([0x17, 0x00, 0x03, 0x2a, 0, 0, 0, 0]), Buffer.alloc(40)])

const ntp: UdpProbe = {
  id: 'ntp-client',
  service: 'ntp',
  ports: [123],
  payloads: [ntpClient],
  recognise(reply) {
    if (reply.length < 48 || (reply[0]! & 0x07) !== 4) return null
    return { service: 'ntp', details: `NTP v${(reply[0]! >> 3) & 0x07} server, stratum ${reply[1]}` }
  },
}

const ntpMode6: FollowUp = {
  id: 'ntp-readvar',
  service: 'ntp',
  check: udpNtpMode6,
  payloads: [ntpReadvar],
  confirm(reply, sent) {
    if (reply.length < 12 || (reply[0]! & 0x07) !== 6 || (reply[1]! & 0x80) === 0 || (reply[1]! & 0x1f) !== 2) return null
    const version = /version="([^"]*)"/.exec(reply.toString('latin1', 12))?.[1]
    return `READVAR was answered${version ? ` (version="${version}")` : ''}; ${ratio(reply, sent)}.`
  },
}

const ntpMonlistFollowUp: FollowUp = {
  id: 'ntp-monlist',
  service: 'ntp',
  check: udpNtpMonlist,
  payloads: [ntpMonlist],
  confirm(reply, sent) {
    if (reply.length < 8 || (reply[0]! & 0x07) !== 7 || (reply[0]! & 0x80) === 0 || reply[3] !== 0x2a) return null
    const items = reply.readUInt16BE(4) & 0x0fff
    return `MON_GETLIST_1 was answered with ${items} entries in the first packet; ${ratio(reply, sent)}.`
  },
}

// ---------------------------------------------------------------- SNMP (BER by hand: a handful of TLVs)

const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), berLength(body.length), body])
const berLength = (n: number) => (n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]))
const berInt = (n: number) => tlv(0x02, Buffer.from([n]))
const SYS_DESCR_OID = Buffer.from([0x2b, 6, 1, 2, 1, 1, 1, 0]) // 1.3.6.1.2.1.1.1.0

const snmpGet = (version: 0 | 1, community: string) =>
  tlv(
    0x30,
    Buffer.concat([
      berInt(version),
      tlv(0x04, Buffer.from(community)),
      tlv(
        0xa0,
        Buffer.concat([
          berInt(0x57),
          berInt(0),
          berInt(0),
          tlv(0x30, tlv(0x30, Buffer.concat([tlv(0x06, SYS_DESCR_OID), Buffer.from([0x05, 0x00])]))),
        ]),
      ),
    ]),
  )

// SNMPv3 engine discovery (RFC 3414 4): agents with v1/v2c disabled still answer it with a Report.
const snmpV3Discovery = tlv(
  0x30,
  Buffer.concat([
    berInt(3),
    tlv(
      0x30,
      Buffer.concat([
        tlv(0x02, Buffer.from([0x57, 0x44])),
        tlv(0x02, Buffer.from([0x00, 0xff, 0xe3])),
        tlv(0x04, Buffer.from([0x04])),
        berInt(3),
      ]),
    ),
    tlv(
      0x04,
      tlv(
        0x30,
        Buffer.concat([
          tlv(0x04, Buffer.alloc(0)),
          berInt(0),
          berInt(0),
          tlv(0x04, Buffer.alloc(0)),
          tlv(0x04, Buffer.alloc(0)),
          tlv(0x04, Buffer.alloc(0)),
        ]),
      ),
    ),
    tlv(
      0x30,
      Buffer.concat([
        tlv(0x04, Buffer.alloc(0)),
        tlv(0x04, Buffer.alloc(0)),
        tlv(0xa0, Buffer.concat([berInt(0x57), berInt(0), berInt(0), tlv(0x30, Buffer.alloc(0))])),
      ]),
    ),
  ]),
)

interface Tlv {
  tag: number
  start: number
  end: number
}
function readTlv(b: Buffer, off: number): Tlv {
  const tag = b[off]
  let len = b[off + 1]
  let start = off + 2
  if (tag === undefined || len === undefined) throw new Error('short BER')
  if (len & 0x80) {
    const n = len & 0x7f
    if (n < 1 || n > 2 || start + n > b.length) throw new Error('bad BER length')
    len = n === 1 ? b[start]! : b.readUInt16BE(start)
    start += n
  }
  if (start + len > b.length) throw new Error('short BER')
  return { tag, start, end: start + len }
}

/** The SNMP version number of a message (0 = v1, 1 = v2c, 3 = v3), or null when it is not SNMP. */
export function snmpVersion(b: Buffer): number | null {
  try {
    const msg = readTlv(b, 0)
    const ver = readTlv(b, msg.start)
    return msg.tag === 0x30 && ver.tag === 0x02 && ver.end - ver.start === 1 ? b[ver.start]! : null
  } catch {
    return null
  }
}

/** version, community, PDU type, error status and the first varbind's value of an SNMP message. */
export function parseSnmp(b: Buffer): { version: number; community: string; pdu: number; errorStatus: number; value?: string } | null {
  try {
    const msg = readTlv(b, 0)
    if (msg.tag !== 0x30) return null
    const ver = readTlv(b, msg.start)
    const comm = readTlv(b, ver.end)
    const pdu = readTlv(b, comm.end)
    const reqId = readTlv(b, pdu.start)
    const err = readTlv(b, reqId.end)
    const errIdx = readTlv(b, err.end)
    const binds = readTlv(b, errIdx.end)
    const bind = readTlv(b, binds.start)
    const oid = readTlv(b, bind.start)
    const val = readTlv(b, oid.end)
    return {
      version: b[ver.start]!,
      community: b.toString('latin1', comm.start, comm.end),
      pdu: pdu.tag,
      errorStatus: b[err.start] ?? 0,
      value: val.tag === 0x04 ? b.toString('utf8', val.start, val.end) : undefined,
    }
  } catch {
    return null
  }
}

const snmp: UdpProbe = {
  id: 'snmp-public',
  service: 'snmp',
  ports: [161],
  payloads: [snmpGet(1, 'public'), snmpGet(0, 'public'), snmpV3Discovery],
  recognise(reply, sent) {
    const r = parseSnmp(reply)
    if (r?.pdu !== 0xa2) return snmpVersion(reply) === 3 ? { service: 'snmp', details: 'SNMPv3 (answered engine discovery)' } : null
    const v = r.version === 1 ? 'v2c' : 'v1'
    const descr = r.value ? `sysDescr: ${printable(Buffer.from(r.value), 200)}` : `error-status ${r.errorStatus}`
    return {
      service: 'snmp',
      details: `SNMP ${v}, ${descr}`,
      // Agents stay silent on a wrong community: any GetResponse means "public" was accepted.
      hits: [{ check: udpSnmpPublic, detail: `SNMP ${v} answered community "public" (${descr}); ${ratio(reply, sent)}.` }],
    }
  },
}

// ---------------------------------------------------------------- SSDP, NetBIOS, memcached, TFTP

const ssdp: UdpProbe = {
  id: 'ssdp-msearch',
  service: 'ssdp',
  ports: [1900],
  payloads: [Buffer.from('M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 1\r\nST: ssdp:all\r\n\r\n')],
  recognise(reply, sent) {
    const text = reply.toString('latin1')
    if (!/^HTTP\/1\.[01] 200/i.test(text)) return null
    const server = /^server:\s*(.+)$/im.exec(text)?.[1]?.trim()
    const details = server ? `SSDP, server: ${server}` : 'SSDP'
    return {
      service: 'ssdp',
      details,
      hits: [{ check: udpSsdpExposed, detail: `M-SEARCH was answered (${details}); ${ratio(reply, sent)}.` }],
    }
  },
}

// Node status request for the wildcard name "*" (RFC 1002 4.2.17), first-level encoded.
const nbstat = Buffer.concat([
  Buffer.from([0x57, 0x44, 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0x20]),
  Buffer.from('CK' + 'A'.repeat(30)),
  Buffer.from([0x00, 0x00, 0x21, 0x00, 0x01]),
])

/** The names of a NetBIOS node status response. */
export function parseNbstat(b: Buffer): string[] | null {
  // header 12 + name 34 + type/class/ttl/rdlength 10 = 56, then the name count.
  if (b.length < 57 || b.readUInt16BE(0) !== 0x5744 || (b[2]! & 0x80) === 0 || b.readUInt16BE(46) !== 0x21) return null
  const n = b[56]!
  const names: string[] = []
  for (let i = 0; i < n && 57 + (i + 1) * 18 <= b.length; i++) {
    const at = 57 + i * 18
    names.push(`${b.toString('latin1', at, at + 15).trim()}<${b[at + 15]!.toString(16).padStart(2, '0')}>`)
  }
  return names
}

const netbios: UdpProbe = {
  id: 'netbios-nbstat',
  service: 'netbios-ns',
  ports: [137],
  payloads: [nbstat],
  recognise(reply, sent) {
    const names = parseNbstat(reply)
    if (!names) return null
    const details = `NetBIOS names: ${names.join(', ') || '(none)'}`
    return {
      service: 'netbios-ns',
      details,
      hits: [{ check: udpNetbiosExposed, detail: `NBSTAT was answered (${details}); ${ratio(reply, sent)}.` }],
    }
  },
}

// memcached UDP frame header: request id, sequence 0, 1 datagram, reserved.
const memcachedStats = Buffer.concat([Buffer.from([0x57, 0x44, 0, 0, 0, 1, 0, 0]), Buffer.from('stats\r\n')])

const memcached: UdpProbe = {
  id: 'memcached-stats',
  service: 'memcache',
  ports: [11211],
  payloads: [memcachedStats],
  recognise(reply, sent) {
    if (reply.length < 8 || reply.readUInt16BE(0) !== 0x5744) return null
    const body = reply.toString('latin1', 8)
    if (!/^(STAT |END|ERROR)/.test(body)) return null
    const version = /STAT version (\S+)/.exec(body)?.[1]
    const details = `memcached${version ? ` ${version}` : ''}`
    return {
      service: 'memcache',
      details,
      ...(version ? { product: 'memcached', version } : {}),
      hits: [{ check: udpMemcachedExposed, detail: `"stats" was answered over UDP (${details}); ${ratio(reply, sent)}.` }],
    }
  },
}

const tftpRrq = Buffer.concat([Buffer.from([0, 1]), Buffer.from('ward-probe-nonexistent.txt\0octet\0')])

const tftp: UdpProbe = {
  id: 'tftp-rrq',
  service: 'tftp',
  ports: [69],
  payloads: [tftpRrq],
  anySourcePort: true,
  recognise(reply) {
    if (reply.length < 4 || reply[0] !== 0) return null
    const op = reply[1]
    if (op === 5) {
      const message = printable(reply.subarray(4))
      return {
        service: 'tftp',
        details: `TFTP error ${reply.readUInt16BE(2)}${message ? `: ${message}` : ''}`,
        hits: [
          {
            check: udpTftpExposed,
            detail: `A read request was answered with TFTP error ${reply.readUInt16BE(2)} (${message || 'no message'}).`,
          },
        ],
      }
    }
    if (op === 3)
      return {
        service: 'tftp',
        details: 'TFTP (served data for a nonexistent file name)',
        hits: [{ check: udpTftpExposed, detail: 'A read request for a nonexistent file was answered with data.' }],
      }
    return null
  },
}

export const PROBES: readonly UdpProbe[] = [dns, ntp, snmp, ssdp, netbios, memcached, tftp]
export const FOLLOW_UPS: readonly FollowUp[] = [dnsRecursion, ntpMode6, ntpMonlistFollowUp]

const GENERIC: UdpProbe = {
  id: 'empty',
  service: 'unknown',
  ports: [],
  payloads: [Buffer.alloc(0)],
  recognise: () => null,
}

const byPort = new Map<number, UdpProbe>(PROBES.flatMap((p) => p.ports.map((port) => [port, p] as const)))
export const probeFor = (port: number): UdpProbe => byPort.get(port) ?? GENERIC

export { printable }
