// Test beds of the tcp, ssl and dns template protocols on 127.0.113.x: two TCP banner services (one
// announces the product a template looks for, its clean twin does not), two TLS servers (an expired
// self-signed certificate, and a good one from a test CA), and the test DNS server with a zone holding
// a dangling CNAME to an unclaimed cloud name and clean names.
import net from 'node:net'
import tls from 'node:tls'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLASS, TYPE, type DnsRecord } from '../../src/tools/lib/dns/message.js'
import { startDnsServer, type DnsTestServer, type Zone } from './dns-server.js'

export const NET_BED = { tcp: '127.0.113.2', expired: '127.0.113.3', good: '127.0.113.4', dns: '127.0.113.53' } as const
export const DNS_ZONE = 'tpl-test.example'

const listen = (s: net.Server, host: string) =>
  new Promise<number>((resolve, reject) => {
    s.once('error', reject)
    s.listen(0, host, () => resolve((s.address() as net.AddressInfo).port))
  })

/** A service that greets with `banner` and answers "STATUS" with `status`, noting when it was asked in `asked`. */
function bannerServer(banner: string, status: string, asked: number[]): net.Server {
  return net.createServer((s) => {
    s.on('error', () => s.destroy())
    s.write(`${banner}\r\n`)
    s.on('data', (d) => {
      if (!/STATUS/.test(d.toString())) return
      asked.push(performance.now())
      s.write(`${status}\r\n`)
    })
    s.setTimeout(10_000, () => s.destroy())
  })
}

function openssl(dir: string, args: string[]) {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
}

/** [key, cert] PEM: an expired self-signed certificate and a good one signed by a test CA. */
function certificates(): { expired: [string, string]; good: [string, string] } {
  const dir = mkdtempSync(join(tmpdir(), 'ward-tpl-net-'))
  try {
    writeFileSync(join(dir, 'index.txt'), '')
    writeFileSync(join(dir, 'serial'), '1000\n')
    writeFileSync(
      join(dir, 'ca.cnf'),
      '[ ca ]\ndefault_ca = c\n[ c ]\ndir = .\ndatabase = ./index.txt\nnew_certs_dir = .\nserial = ./serial\ndefault_md = sha256\npolicy = any\nunique_subject = no\ncopy_extensions = copy\n[ any ]\ncommonName = supplied\n',
    )
    const req = (name: string, ip: string) =>
      openssl(dir, [
        'req',
        '-new',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        `/CN=${name}.ward.test`,
        '-addext',
        `subjectAltName=IP:${ip}`,
      ])
    req('expired', NET_BED.expired)
    openssl(dir, [
      'ca',
      '-batch',
      '-selfsign',
      '-config',
      'ca.cnf',
      '-keyfile',
      'expired.key',
      '-in',
      'expired.csr',
      '-out',
      'expired.pem',
      '-notext',
      '-startdate',
      '20240101000000Z',
      '-enddate',
      '20250101000000Z',
    ])
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-subj',
      '/CN=Ward Template Test CA',
      '-days',
      '30',
    ])
    req('good', NET_BED.good)
    openssl(dir, [
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      'ca.pem',
      '-keyfile',
      'ca.key',
      '-in',
      'good.csr',
      '-out',
      'good.pem',
      '-notext',
      '-days',
      '30',
    ])
    const read = (n: string): [string, string] => [readFileSync(join(dir, `${n}.key`), 'utf8'), readFileSync(join(dir, `${n}.pem`), 'utf8')]
    return { expired: read('expired'), good: read('good') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const rr = (name: string, type: keyof typeof TYPE, data: string): DnsRecord => ({ name, type: TYPE[type], class: CLASS.IN, ttl: 300, data })

export const TPL_ZONE: Zone = {
  origin: DNS_ZONE,
  axfr: false,
  records: [
    rr(DNS_ZONE, 'SOA', `ns1.${DNS_ZONE} hostmaster.${DNS_ZONE} 2026112501 3600 600 604800 300`),
    rr(DNS_ZONE, 'NS', `ns1.${DNS_ZONE}`),
    rr(DNS_ZONE, 'A', '127.0.113.60'),
    rr(`ns1.${DNS_ZONE}`, 'A', NET_BED.dns),
    rr(`www.${DNS_ZONE}`, 'A', '127.0.113.60'),
    // Points at a cloud name nobody holds any more: the resolver answers NXDOMAIN after the CNAME.
    rr(`gone.${DNS_ZONE}`, 'CNAME', 'tpl-gone-app.azurewebsites.net'),
    // A CNAME whose target exists: clean.
    rr(`blog.${DNS_ZONE}`, 'CNAME', `www.${DNS_ZONE}`),
  ],
}

export interface NetTemplateBed {
  /** The port whose banner names the product, and its clean twin. */
  bannerPort: number
  cleanPort: number
  expiredPort: number
  goodPort: number
  dnsPort: number
  /** When each "STATUS" (a tcp template's input) arrived, on either banner port (performance.now()). */
  statusAsked: number[]
  dns: DnsTestServer
  close(): Promise<void>
}

export async function startNetTemplateBed(): Promise<NetTemplateBed> {
  const certs = certificates()
  const statusAsked: number[] = []
  const tcpVuln = bannerServer('220 AcmeMQ 2.1.3 ready', 'AcmeMQ debug console: unauthenticated', statusAsked)
  const tcpClean = bannerServer('220 Service ready', 'OK', statusAsked)
  const tlsServer = ([key, cert]: [string, string]) =>
    tls.createServer({ key, cert }, (s) => {
      s.on('error', () => s.destroy())
      s.end('hello\r\n')
    })
  const expired = tlsServer(certs.expired)
  const good = tlsServer(certs.good)
  const sockets = new Set<net.Socket>()
  for (const s of [tcpVuln, tcpClean, expired, good])
    s.on('connection', (c: net.Socket) => (sockets.add(c), c.on('close', () => sockets.delete(c))))
  const bannerPort = await listen(tcpVuln, NET_BED.tcp)
  const cleanPort = await listen(tcpClean, NET_BED.tcp)
  const expiredPort = await listen(expired, NET_BED.expired)
  const goodPort = await listen(good, NET_BED.good)
  const dns: DnsTestServer = await startDnsServer({ host: NET_BED.dns, port: 5353, zones: [TPL_ZONE] })
  return {
    bannerPort,
    cleanPort,
    expiredPort,
    goodPort,
    dnsPort: dns.port,
    statusAsked,
    dns,
    async close() {
      for (const s of sockets) s.destroy()
      await Promise.all([tcpVuln, tcpClean, expired, good].map((s) => new Promise<void>((r) => s.close(() => r()))))
      await dns.close()
    },
  }
}
