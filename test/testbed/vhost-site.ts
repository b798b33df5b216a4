// Name-based virtual hosts behind one address, as nginx or Apache serve them:
// - `catchall` (127.0.71.2): the default server answers every unknown name with a welcome page that
//   echoes the name and carries a changing token; every unknown *.vhost-bed.example gets a wildcard
//   shop front; real sites live under names found only through one source each (word list, certificate,
//   reverse DNS, the workspace, tool_params.wordlist). HTTP and HTTPS (SNI picks nothing: one certificate).
// - `strict` (127.0.71.3): no catch-all: unknown names get 404 "no such site", real sites answer.
// - `hardened` (127.0.71.4): the twin with public sites only (www and the apex): nothing above info.
// Reverse DNS of the three addresses is served by the bed's DNS server (vhostDnsZones).
import http from 'node:http'
import https from 'node:https'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { CLASS, TYPE } from '../../src/tools/lib/dns/message.js'
import type { Zone } from './dns-server.js'
import { selfSignedCert } from './weak-web.js'

export const VHOST_ADDR = { catchall: '127.0.71.2', strict: '127.0.71.3', hardened: '127.0.71.4', dns: '127.0.71.53' } as const
export type VhostBedKind = 'catchall' | 'strict' | 'hardened'

interface Site {
  status: number
  title: string
  body: string
  headers?: Record<string, string>
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>`
const site = (title: string, body: string, status = 200, headers?: Record<string, string>): Site => ({
  status,
  title,
  body: page(title, body),
  headers,
})

/** The sites of each bed by Host name, and where the scanner can learn each name. */
export const VHOST_TRUTH = {
  catchall: {
    'www.vhost-bed.example': { site: site('Vhost Bed main site', 'Our products and services.'), via: 'wordlist' },
    'dev.vhost-bed.example': {
      site: site('Dev build 4711', 'Debug toolbar enabled. Test data only.'),
      via: 'wordlist',
      internal: 'medium',
    },
    'admin.vhost-bed.example': {
      site: site('Admin login', 'Authentication required.', 401, { 'www-authenticate': 'Basic realm="admin"' }),
      via: 'wordlist',
      internal: 'low',
    },
    'partners-portal.vhost-bed.example': { site: site('Partner portal', 'Sign in with your partner account.'), via: 'certificate' },
    'edge7.vhost-bed.example': { site: site('Edge node 7', 'Cache status page.'), via: 'reverse-dns' },
    'crm-legacy.vhost-bed.example': { site: site('Legacy CRM', 'Customer records, old system.'), via: 'workspace' },
    'secret-app.vhost-bed.example': { site: site('Secret app', 'Unlisted application.'), via: 'tool_params' },
    'billing.vhost-bed.example': { site: site('Billing', 'Invoices and payments.'), via: 'subdomain-finder' },
    'staging.vhost-bed.example': {
      site: { status: 302, title: '', body: '', headers: { location: 'https://staging.vhost-bed.example/login' } },
      via: 'wordlist',
      internal: 'medium',
    },
  },
  strict: {
    'www.plain-bed.example': { site: site('Plain bed', 'Welcome.'), via: 'wordlist' },
    'intranet.plain-bed.example': { site: site('Intranet', 'Staff only.'), via: 'wordlist', internal: 'medium' },
  },
  hardened: {
    'hard-bed.example': { site: site('Hard bed', 'Welcome.'), via: 'reverse-dns' },
    'www.hard-bed.example': { site: site('Hard bed', 'Welcome to the www site.'), via: 'wordlist' },
  },
} as const satisfies Record<VhostBedKind, Record<string, { site: Site; via: string; internal?: 'medium' | 'low' }>>

/** PTR records of the bed's addresses (for the DNS test server). */
export function vhostDnsZones(): Zone[] {
  const ptr = (n: string, target: string) => ({
    name: `${n}.71.0.127.in-addr.arpa`,
    type: TYPE.PTR,
    class: CLASS.IN,
    ttl: 300,
    data: target,
  })
  return [
    {
      origin: '71.0.127.in-addr.arpa',
      axfr: false,
      records: [
        {
          name: '71.0.127.in-addr.arpa',
          type: TYPE.SOA,
          class: CLASS.IN,
          ttl: 300,
          data: 'ns1.vhost-bed.example hostmaster.vhost-bed.example 2026112501 3600 600 604800 300',
        },
        ptr('2', 'edge7.vhost-bed.example'),
        ptr('3', 'plain-bed.example'),
        ptr('4', 'hard-bed.example'),
      ],
    },
    {
      // What the Subdomain Finder can find (its word list given by the test): billing.
      origin: 'vhost-bed.example',
      axfr: false,
      records: [
        {
          name: 'vhost-bed.example',
          type: TYPE.SOA,
          class: CLASS.IN,
          ttl: 300,
          data: 'ns1.vhost-bed.example hostmaster.vhost-bed.example 2026112501 3600 600 604800 300',
        },
        { name: 'vhost-bed.example', type: TYPE.A, class: CLASS.IN, ttl: 300, data: VHOST_ADDR.catchall },
        { name: 'billing.vhost-bed.example', type: TYPE.A, class: CLASS.IN, ttl: 300, data: VHOST_ADDR.catchall },
      ],
    },
  ]
}

function fallback(kind: VhostBedKind, host: string): Site {
  if (kind === 'strict') return site('404 Not Found', 'no such site', 404)
  // Unknown names under the bed's domain: a wildcard server block (a different page from the default).
  if (kind === 'catchall' && host.endsWith('.vhost-bed.example')) return site('Vhost Bed shop', `Browse the shop at ${host}.`)
  // The default server: echoes the name and changes on every request (a token), as many default pages do.
  return site(
    'Welcome',
    `Welcome to ${host}! This server has no site configured for this name. Request token ${randomBytes(6).toString('hex')} at ${Date.now()}.`,
  )
}

/** One certificate for the HTTPS listeners: CN vhost-bed.example, SANs the wildcard and a name served nowhere else. */
const bedCertificate = () =>
  selfSignedCert({ cn: 'vhost-bed.example', san: 'DNS:vhost-bed.example,DNS:*.vhost-bed.example,DNS:partners-portal.vhost-bed.example' })

export interface VhostBed {
  host: string
  httpPort: number
  /** 0 for beds without HTTPS. */
  httpsPort: number
  /** Host headers received (lower case, without port), in order. */
  hostsSeen: string[]
  /** SNI names received on the HTTPS listener. */
  sniSeen: string[]
  close(): Promise<void>
}

export async function startVhostBed(kind: VhostBedKind): Promise<VhostBed> {
  const host = VHOST_ADDR[kind]
  const sites: Record<string, { site: Site }> = VHOST_TRUTH[kind]
  const hostsSeen: string[] = []
  const sniSeen: string[] = []
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const name = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '')
    hostsSeen.push(name)
    const s = sites[name]?.site ?? fallback(kind, name)
    res.writeHead(s.status, { 'content-type': 'text/html; charset=utf-8', server: 'nginx', ...s.headers })
    res.end(s.body)
  }
  const plain = http.createServer(handler)
  const servers: http.Server[] = [plain]
  await new Promise<void>((r) => plain.listen(0, host, r))
  let httpsPort = 0
  if (kind !== 'strict') {
    const secure = https.createServer(
      { ...bedCertificate(), SNICallback: (servername, cb) => (sniSeen.push(servername), cb(null)) },
      handler,
    )
    servers.push(secure)
    await new Promise<void>((r) => secure.listen(0, host, r))
    httpsPort = (secure.address() as AddressInfo).port
  }
  return {
    host,
    httpPort: (plain.address() as AddressInfo).port,
    httpsPort,
    hostsSeen,
    sniSeen,
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections()
        await new Promise<void>((r) => s.close(() => r()))
      }
    },
  }
}
