// UDP services on loopback for the UDP Port Scanner: a "vulnerable" host with every amplification-prone
// service answering, and a "hardened" twin whose services refuse the risky requests. Ports with nothing
// bound give ICMP port unreachable (closed); the silent port is bound and never answers (open|filtered).
import dgram from 'node:dgram'
import { decodeMessage, encodeMessage, CLASS, TYPE } from '../../src/tools/lib/dns/message.js'
import { parseSnmp, snmpVersion } from '../../src/tools/udp-scanner/probes/payloads.js'

export type Profile = 'vulnerable' | 'hardened'

export interface PortTruth {
  port: number
  state: 'open' | 'closed' | 'open|filtered'
  service?: string
  /** vuln_ids the scanner must report on this port (besides udp.ports.open for open ports). */
  checks: string[]
}

export interface UdpTestbed {
  host: string
  profile: Profile
  ports: number[]
  truth: PortTruth[]
  close(): Promise<void>
}

export const SILENT_PORT = 40000
export const CLOSED_PORTS = [40001, 40002]
const SERVICE_PORTS = [53, 69, 123, 137, 161, 1900, 11211]

export async function startUdpServices(host: string, profile: Profile): Promise<UdpTestbed> {
  const sockets: dgram.Socket[] = []
  const bind = async (port: number, onMessage: (msg: Buffer, rinfo: dgram.RemoteInfo, s: dgram.Socket) => void) => {
    const s = dgram.createSocket('udp4')
    s.on('message', (msg, rinfo) => {
      try {
        onMessage(msg, rinfo, s)
      } catch {
        /* malformed probe: stay silent like a real daemon */
      }
    })
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject)
      s.bind(port, host, () => resolve())
    })
    sockets.push(s)
  }
  const reply = (s: dgram.Socket, r: dgram.RemoteInfo, b: Buffer) => s.send(b, r.port, r.address)
  const vulnerable = profile === 'vulnerable'

  await bind(53, (msg, r, s) => reply(s, r, dnsAnswer(msg, vulnerable)))
  await bind(123, (msg, r, s) => {
    const mode = msg[0]! & 0x07
    if (mode === 3) reply(s, r, ntpServerReply())
    else if (mode === 6 && vulnerable) reply(s, r, ntpReadvarReply(msg))
    else if (mode === 7 && vulnerable && msg[3] === 0x2a) reply(s, r, ntpMonlistReply())
  })
  await bind(161, (msg, r, s) => {
    const req = parseSnmp(msg)
    const community = vulnerable ? 'public' : 'w4rd-s3cret-community'
    if (req && req.pdu === 0xa0 && req.community === community) reply(s, r, snmpResponse(req.version, req.community))
    else if (snmpVersion(msg) === 3) reply(s, r, SNMP_V3_REPORT)
  })
  if (vulnerable) {
    await bind(1900, (msg, r, s) => {
      if (msg.toString('latin1').startsWith('M-SEARCH')) reply(s, r, Buffer.from(SSDP_REPLY))
    })
    await bind(137, (msg, r, s) => {
      if (msg.length >= 50 && msg.readUInt16BE(46) === 0x21) reply(s, r, nbstatReply(msg))
    })
    await bind(11211, (msg, r, s) => {
      if (msg.length <= 8) return
      const command = msg.toString('latin1', 8)
      const header = Buffer.concat([msg.subarray(0, 2), Buffer.from([0, 0, 0, 1, 0, 0])])
      if (command.startsWith('stats'))
        reply(s, r, Buffer.concat([header, Buffer.from('STAT pid 4242\r\nSTAT uptime 100\r\nSTAT version 1.4.25\r\nEND\r\n')]))
      else if (command.startsWith('version')) reply(s, r, Buffer.concat([header, Buffer.from('VERSION 1.4.25\r\n')]))
      else reply(s, r, Buffer.concat([header, Buffer.from('ERROR\r\n')]))
    })
    await bind(69, (msg, r) => {
      if (msg.readUInt16BE(0) !== 1) return
      // Like tftpd: the answer comes from a fresh socket (the transfer id), not from port 69.
      const t = dgram.createSocket('udp4')
      t.bind(0, host, () => {
        const err = Buffer.concat([Buffer.from([0, 5, 0, 1]), Buffer.from('File not found\0')])
        t.send(err, r.port, r.address, () => t.close())
      })
    })
  }
  await bind(SILENT_PORT, () => {})

  const truth = (
    [
      // BIND 9.11.4 (version.bind): past end of life, and inside CVE-2020-8617's range.
      {
        port: 53,
        state: 'open',
        service: 'domain',
        checks: vulnerable ? ['udp.dns.open-resolver', 'udp.dns.version-disclosure', 'cve.bind-tsig-assertion', 'eol.bind'] : [],
      },
      { port: 123, state: 'open', service: 'ntp', checks: vulnerable ? ['udp.ntp.mode6', 'udp.ntp.monlist'] : [] },
      // Hardened: "public" gets silence, only the SNMPv3 discovery gets a Report.
      { port: 161, state: 'open', service: 'snmp', checks: vulnerable ? ['udp.snmp.public-community'] : [] },
      ...(vulnerable
        ? ([
            { port: 69, state: 'open', service: 'tftp', checks: ['udp.tftp.exposed'] },
            { port: 137, state: 'open', service: 'netbios-ns', checks: ['udp.netbios.exposed'] },
            { port: 1900, state: 'open', service: 'ssdp', checks: ['udp.ssdp.exposed'] },
            // memcached 1.4.25 (stats): past end of life, in the ranges of CVE-2018-1000115 and of the binary append overflow.
            {
              port: 11211,
              state: 'open',
              service: 'memcache',
              checks: ['udp.memcached.exposed', 'cve.memcached-binary-append-overflow', 'cve.memcached-udp-amplification', 'eol.memcached'],
            },
          ] as PortTruth[])
        : ([69, 137, 1900, 11211].map((port) => ({ port, state: 'closed', checks: [] })) as PortTruth[])),
      { port: SILENT_PORT, state: 'open|filtered', checks: [] },
      ...CLOSED_PORTS.map((port): PortTruth => ({ port, state: 'closed', checks: [] })),
    ] satisfies PortTruth[]
  ).sort((a, b) => a.port - b.port)

  return {
    host,
    profile,
    ports: [...SERVICE_PORTS, SILENT_PORT, ...CLOSED_PORTS].sort((a, b) => a - b),
    truth,
    async close() {
      await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    },
  }
}

function dnsAnswer(msg: Buffer, vulnerable: boolean): Buffer {
  const q = decodeMessage(msg)
  const question = q.questions[0]!
  const base = { id: q.id, questions: q.questions }
  const flags = { qr: true, opcode: 0, aa: false, tc: false, rd: q.flags.rd, ra: vulnerable, rcode: 0 }
  if (!vulnerable) return encodeMessage({ ...base, flags: { ...flags, rcode: 5 } }) // REFUSED
  if (question.name === 'version.bind' && question.class === CLASS.CH) {
    return encodeMessage({
      ...base,
      flags: { ...flags, aa: true },
      answers: [{ name: 'version.bind', type: TYPE.TXT, class: CLASS.CH, ttl: 0, data: '9.11.4-P2-ward-testbed' }],
    })
  }
  if (question.name === '' && question.type === TYPE.NS && q.flags.rd) {
    const answers = ['a', 'b', 'c', 'd', 'e', 'f'].map((l) => ({
      name: '',
      type: TYPE.NS,
      class: CLASS.IN,
      ttl: 518400,
      data: `${l}.root-servers.net`,
    }))
    return encodeMessage({ ...base, flags, answers })
  }
  return encodeMessage({ ...base, flags: { ...flags, rcode: 5 } })
}

function ntpServerReply(): Buffer {
  const b = Buffer.alloc(48)
  b[0] = 0x24 // LI 0, version 4, mode 4 (server)
  b[1] = 2 // stratum
  b[2] = 6
  b[3] = 0xe9
  return b
}

function ntpReadvarReply(req: Buffer): Buffer {
  const data = Buffer.from(
    'version="ntpd 4.2.6p5@1.2349-o Fri Jul 22 17:30:51 UTC 2016 (1)", processor="x86_64", system="Linux/5.15.0", leap=0, stratum=2, precision=-23',
  )
  const h = Buffer.alloc(12)
  h[0] = 0x16
  h[1] = 0x82 // response bit + READVAR
  h.writeUInt16BE(req.readUInt16BE(2), 2)
  h.writeUInt16BE(data.length, 10)
  return Buffer.concat([h, data])
}

function ntpMonlistReply(): Buffer {
  const entries = 6
  const h = Buffer.from([0x97, 0x00, 0x03, 0x2a, 0x00, entries, 0x00, 0x48]) // response, 6 items of 72 bytes
  return Buffer.concat([h, Buffer.alloc(entries * 72, 0x11)])
}

// BER, enough for one GetResponse.
const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag, body.length]), body])
function snmpResponse(version: number, community: string): Buffer {
  const descr = Buffer.from('Linux ward-testbed 5.15.0 #1 SMP x86_64 (SNMP test bed)')
  return tlv(
    0x30,
    Buffer.concat([
      tlv(0x02, Buffer.from([version])),
      tlv(0x04, Buffer.from(community)),
      tlv(
        0xa2,
        Buffer.concat([
          tlv(0x02, Buffer.from([0x57])),
          tlv(0x02, Buffer.from([0])),
          tlv(0x02, Buffer.from([0])),
          tlv(0x30, tlv(0x30, Buffer.concat([tlv(0x06, Buffer.from([0x2b, 6, 1, 2, 1, 1, 1, 0])), tlv(0x04, descr)]))),
        ]),
      ),
    ]),
  )
}

// An SNMPv3 Report (usmStatsUnknownEngineIDs) as agents send to engine discovery; contents are not parsed.
const SNMP_V3_REPORT = tlv(
  0x30,
  Buffer.concat([
    tlv(0x02, Buffer.from([3])),
    tlv(
      0x30,
      Buffer.concat([
        tlv(0x02, Buffer.from([0x57, 0x44])),
        tlv(0x02, Buffer.from([0x00, 0xff, 0xe3])),
        tlv(0x04, Buffer.from([0])),
        tlv(0x02, Buffer.from([3])),
      ]),
    ),
    tlv(
      0x04,
      tlv(
        0x30,
        Buffer.concat([
          tlv(0x04, Buffer.from('80001f8880ward', 'latin1')),
          tlv(0x02, Buffer.from([1])),
          tlv(0x02, Buffer.from([1])),
          tlv(0x04, Buffer.alloc(0)),
          tlv(0x04, Buffer.alloc(0)),
          tlv(0x04, Buffer.alloc(0)),
        ]),
      ),
    ),
    tlv(
      0x30,
      Buffer.concat([
        tlv(0x04, Buffer.from('80001f8880ward', 'latin1')),
        tlv(0x04, Buffer.alloc(0)),
        tlv(
          0xa8,
          Buffer.concat([
            tlv(0x02, Buffer.from([0x57])),
            tlv(0x02, Buffer.from([0])),
            tlv(0x02, Buffer.from([0])),
            tlv(0x30, tlv(0x30, Buffer.concat([tlv(0x06, Buffer.from([0x2b, 6, 1, 6, 3, 15, 1, 1, 4, 0])), tlv(0x41, Buffer.from([1]))]))),
          ]),
        ),
      ]),
    ),
  ]),
)

const SSDP_REPLY =
  'HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLOCATION: http://127.0.5.1:49152/rootDesc.xml\r\n' +
  'SERVER: Linux/5.15 UPnP/1.0 ward-testbed-igd/1.0\r\nST: upnp:rootdevice\r\nUSN: uuid:ward-test::upnp:rootdevice\r\n\r\n'

function nbstatReply(req: Buffer): Buffer {
  const names = [
    ['WARD-TESTBED', 0x00, 0x0400],
    ['WARD-TESTBED', 0x20, 0x0400],
    ['WORKGROUP', 0x00, 0x8400],
  ] as const
  const body = Buffer.concat([
    Buffer.from([names.length]),
    ...names.map(([n, suffix, flags]) => {
      const e = Buffer.alloc(18, 0x20)
      e.write(n, 0, 'latin1')
      e[15] = suffix
      e.writeUInt16BE(flags, 16)
      return e
    }),
    Buffer.from([0x02, 0x42, 0xac, 0x11, 0x00, 0x02]), // MAC
    Buffer.alloc(40),
  ])
  const head = Buffer.alloc(12)
  head.writeUInt16BE(req.readUInt16BE(0), 0)
  head.writeUInt16BE(0x8400, 2) // response, authoritative
  head.writeUInt16BE(1, 6) // one answer
  const rr = Buffer.alloc(10)
  rr.writeUInt16BE(0x21, 0)
  rr.writeUInt16BE(1, 2)
  rr.writeUInt16BE(body.length, 8)
  return Buffer.concat([head, req.subarray(12, 46), rr, body])
}
