// TLS test bed on 127.0.4.x: real OpenSSL servers (Node tls/https) for protocol, cipher and certificate
// problems, and tiny hand-written fakes for what this machine's OpenSSL cannot serve (SSLv2, SSLv3 with
// RC4/3DES/EXPORT, DEFLATE compression, no RFC 5746, a Heartbleed-style heartbeat echo).
// Certificates are made at start-up with the openssl CLI in a temp dir, from a test CA the scanner is told
// to trust (createTlsScanner({ ca })), plus a second CA nobody trusts.
import net from 'node:net'
import https from 'node:https'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { constants, randomBytes, X509Certificate } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type TlsServerName =
  | 'modern'
  | 'legacy'
  | 'expired'
  | 'notyet'
  | 'expiring'
  | 'selfsigned'
  | 'wronghost'
  | 'weakkey'
  | 'sha1'
  | 'nohsts'
  | 'untrusted'
  | 'sslv3'
  | 'sslv2'
  | 'compression'
  | 'reneg'
  | 'heartbleed'
  | 'heartbeat-patched'
  | 'picky'
  | 'anonfirst'
  | 'clean'
  | 'cbc'
  | 'staticrsa'
  | 'weakdh'
  | 'shortserial'
  | 'norevocation'
  | 'nostapling'
  | 'noct'
  | 'clientreneg'

export interface TlsServerTruth {
  /** Protocol versions the server accepts. */
  protocols: string[]
  /** Accepted suites per protocol (OpenSSL names), when the test bed knows them exactly. */
  ciphers?: Record<string, string[]>
  /** vuln_ids the scan must report, and no others. */
  findings: string[]
}

export interface TlsServerInfo {
  host: string
  port: number
  truth: TlsServerTruth
}

export interface TlsTestBed {
  dir: string
  /** The test CA (PEM) to pass as trusted. */
  caPem: string
  servers: Record<TlsServerName, TlsServerInfo>
  close(): Promise<void>
}

const DAY = 86_400_000
const MODERN_CIPHERS = 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305'
const MODERN_SUITES_12 = ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305']
const TLS13_SUITES = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']
// Anonymous suites first: with the server's order (the anonfirst twin), a client that lets the server pick gets no certificate.
const LEGACY_CIPHERS = [
  'ADH-AES128-SHA',
  'AECDH-AES256-SHA',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'NULL-SHA256',
  'AES128-SHA',
  'ECDHE-RSA-AES256-SHA',
  'NULL-SHA',
]
const TLS12_ONLY = new Set(['ECDHE-RSA-AES128-GCM-SHA256', 'NULL-SHA256'])

const ADDR: Record<TlsServerName, string> = {
  modern: '127.0.4.1',
  legacy: '127.0.4.2',
  expired: '127.0.4.3',
  notyet: '127.0.4.4',
  expiring: '127.0.4.5',
  selfsigned: '127.0.4.6',
  wronghost: '127.0.4.7',
  weakkey: '127.0.4.8',
  sha1: '127.0.4.9',
  nohsts: '127.0.4.10',
  untrusted: '127.0.4.11',
  picky: '127.0.4.12',
  anonfirst: '127.0.4.13',
  sslv3: '127.0.4.20',
  sslv2: '127.0.4.21',
  compression: '127.0.4.22',
  reneg: '127.0.4.23',
  heartbleed: '127.0.4.24',
  'heartbeat-patched': '127.0.4.25',
  clean: '127.0.27.1',
  cbc: '127.0.27.2',
  staticrsa: '127.0.27.3',
  weakdh: '127.0.27.4',
  shortserial: '127.0.27.5',
  norevocation: '127.0.27.6',
  nostapling: '127.0.27.7',
  noct: '127.0.27.8',
  clientreneg: '127.0.27.9',
}

// ---- certificates (openssl CLI) ----

const stamp = (t: number) =>
  new Date(t)
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')

class Pki {
  constructor(readonly dir: string) {}

  private run(args: string[], env: Record<string, string> = {}) {
    execFileSync('openssl', args, { cwd: this.dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } })
  }

  ca(name: string): void {
    const d = join(this.dir, name)
    execFileSync('mkdir', ['-p', d])
    writeFileSync(join(d, 'index.txt'), '')
    writeFileSync(join(d, 'serial'), longSerial())
    // Leaves look like a public CA's: a CRL distribution point and (fake, presence-only) embedded SCTs;
    // the other sections drop one of them or add an OCSP responder.
    const base = [
      'basicConstraints = CA:FALSE',
      'subjectAltName = $ENV::SAN',
      'keyUsage = digitalSignature, keyEncipherment',
      'extendedKeyUsage = serverAuth',
    ]
    const crl = 'crlDistributionPoints = URI:http://crl.ward.test/ca.crl'
    const sct = '1.3.6.1.4.1.11129.2.4.2 = ASN1:FORMAT:HEX,OCTETSTRING:0000'
    const ocsp = 'authorityInfoAccess = OCSP;URI:http://ocsp.ward.test/'
    writeFileSync(
      join(d, 'ca.cnf'),
      [
        '[ ca ]',
        'default_ca = testca',
        '[ testca ]',
        `dir = ${d}`,
        `database = ${d}/index.txt`,
        `new_certs_dir = ${d}`,
        `serial = ${d}/serial`,
        `certificate = ${d}/ca.pem`,
        `private_key = ${d}/ca.key`,
        'default_md = sha256',
        'policy = any',
        'unique_subject = no',
        'email_in_dn = no',
        '[ any ]',
        'commonName = supplied',
        '[ leaf ]',
        ...base,
        crl,
        sct,
        '[ leaf_ocsp ]',
        ...base,
        crl,
        ocsp,
        sct,
        '[ leaf_norev ]',
        ...base,
        sct,
        '[ leaf_noct ]',
        ...base,
        crl,
        '',
      ].join('\n'),
    )
    this.run([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${d}/ca.key`,
      '-out',
      `${d}/ca.pem`,
      '-subj',
      `/CN=${name}`,
      '-days',
      '3650',
      '-sha256',
    ])
  }

  /** A leaf signed by `ca`; returns [key, cert] PEM. */
  leaf(o: {
    name: string
    ca: string
    san: string
    bits?: number
    md?: string
    start?: number
    end?: number
    exts?: 'ocsp' | 'norev' | 'noct'
    serial?: string
  }): [string, string] {
    const d = join(this.dir, o.ca)
    if (o.serial) writeFileSync(join(d, 'serial'), o.serial + '\n')
    const key = join(this.dir, `${o.name}.key`)
    const csr = join(this.dir, `${o.name}.csr`)
    const crt = join(this.dir, `${o.name}.pem`)
    this.run(['req', '-new', '-newkey', `rsa:${o.bits ?? 2048}`, '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${o.name}.ward.test`])
    const now = Date.now()
    this.run(
      [
        'ca',
        '-batch',
        '-config',
        `${d}/ca.cnf`,
        '-extensions',
        o.exts ? `leaf_${o.exts}` : 'leaf',
        '-md',
        o.md ?? 'sha256',
        '-notext',
        '-startdate',
        stamp(o.start ?? now - DAY),
        '-enddate',
        stamp(o.end ?? now + 365 * DAY),
        '-in',
        csr,
        '-out',
        crt,
      ],
      { SAN: o.san },
    )
    if (o.serial) writeFileSync(join(d, 'serial'), longSerial())
    return [readFileSync(key, 'utf8'), readFileSync(crt, 'utf8')]
  }

  /** Finite-field DH parameters of `bits` (DSA-style generation: fast). */
  dhparam(bits: number): string {
    const out = join(this.dir, `dh${bits}.pem`)
    this.run(['dhparam', '-dsaparam', '-out', out, String(bits)])
    return readFileSync(out, 'utf8')
  }

  selfSigned(name: string, san: string): [string, string] {
    const key = join(this.dir, `${name}.key`)
    const crt = join(this.dir, `${name}.pem`)
    this.run([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      crt,
      '-subj',
      `/CN=${name}.ward.test`,
      '-days',
      '365',
      '-sha256',
      '-addext',
      `subjectAltName=${san}`,
    ])
    return [readFileSync(key, 'utf8'), readFileSync(crt, 'utf8')]
  }
}

const derOf = (pem: string) => Buffer.from(new X509Certificate(pem).raw)
/** 8 random bytes with a non-zero first byte: a serial that never reads as short. */
const longSerial = () => '7f' + randomBytes(7).toString('hex') + '\n'

// ---- real servers ----

function httpsServer(o: {
  key: string
  cert: string
  min?: 'TLSv1' | 'TLSv1.2'
  max?: 'TLSv1.2' | 'TLSv1.3'
  ciphers: string
  hsts: boolean
  serverOrder?: boolean
  /** Staple a (dummy) OCSP response when the client asks. */
  staple?: boolean
  dhparam?: string
  /** Accept client-initiated renegotiation (Node's default; refused otherwise, as nginx and Apache do). */
  renegotiation?: boolean
}): https.Server {
  const server = https.createServer(
    {
      key: o.key,
      cert: o.cert,
      minVersion: o.min ?? 'TLSv1.2',
      maxVersion: o.max ?? 'TLSv1.3',
      ciphers: o.ciphers,
      honorCipherOrder: o.serverOrder ?? false,
      dhparam: o.dhparam ?? 'auto',
      secureOptions: o.renegotiation ? 0 : constants.SSL_OP_NO_RENEGOTIATION,
    } as https.ServerOptions,
    (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/plain',
        ...(o.hsts ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
      })
      res.end('ward tls test bed\n')
    },
  )
  if (o.staple)
    server.on('OCSPRequest', (_cert: Buffer, _issuer: Buffer, cb: (err: Error | null, resp: Buffer) => void) =>
      cb(null, Buffer.from('ward test bed OCSP response')),
    )
  return server
}

const pemPair = ([key, cert]: [string, string]) => ({ key, cert })

// ---- fakes ----

interface FakeConfig {
  version: number
  /** Server preference order. */
  suites: number[]
  compression?: boolean
  renegotiationInfo?: boolean
  heartbeat?: 'none' | 'vulnerable' | 'patched'
  cert: Buffer
}

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff])
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])
const rec = (type: number, version: number, body: Buffer) => Buffer.concat([Buffer.from([type]), u16(version), u16(body.length), body])
const hsMsg = (type: number, body: Buffer) => Buffer.concat([Buffer.from([type]), u24(body.length), body])
const alert = (version: number, desc: number) => rec(21, version, Buffer.from([2, desc]))

interface ParsedClientHello {
  version: number
  suites: number[]
  compression: number[]
  extensions: Set<number>
}

function parseClientHello(body: Buffer): ParsedClientHello {
  let off = 4 // handshake header
  const version = body.readUInt16BE(off)
  off += 2 + 32
  off += 1 + body[off]!
  const sl = body.readUInt16BE(off)
  off += 2
  const suites: number[] = []
  for (let i = 0; i < sl; i += 2) suites.push(body.readUInt16BE(off + i))
  off += sl
  const cl = body[off]!
  const compression = [...body.subarray(off + 1, off + 1 + cl)]
  off += 1 + cl
  const extensions = new Set<number>()
  if (off + 2 <= body.length) {
    const end = off + 2 + body.readUInt16BE(off)
    off += 2
    while (off + 4 <= end) {
      extensions.add(body.readUInt16BE(off))
      off += 4 + body.readUInt16BE(off + 2)
    }
  }
  return { version, suites, compression, extensions }
}

/** A TLS/SSLv3 server that gets as far as ServerHelloDone, then only answers heartbeats. */
function fakeTlsServer(cfg: FakeConfig): net.Server {
  return net.createServer((s) => {
    s.setTimeout(10_000, () => s.destroy())
    s.on('error', () => {})
    let buf = Buffer.alloc(0)
    let helloDone = false
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      if (buf[0] !== 0x16 && !helloDone) return void s.destroy()
      while (buf.length >= 5) {
        const len = buf.readUInt16BE(3)
        if (buf.length < 5 + len) return
        const type = buf[0]!
        const body = buf.subarray(5, 5 + len)
        buf = buf.subarray(5 + len)
        if (!helloDone && type === 22) {
          helloDone = true
          answerHello(s, cfg, body)
        } else if (type === 24) answerHeartbeat(s, cfg, body)
        else return void s.destroy() // client key exchange etc.: this fake never completes a handshake
      }
    })
  })
}

function answerHello(s: net.Socket, cfg: FakeConfig, body: Buffer): void {
  let ch: ParsedClientHello
  try {
    ch = parseClientHello(body)
  } catch {
    return void s.destroy()
  }
  if (ch.version < cfg.version) return void s.end(alert(cfg.version, 70))
  const suite = cfg.suites.find((c) => ch.suites.includes(c))
  if (suite === undefined) return void s.end(alert(cfg.version, 40))
  const exts: Buffer[] = []
  if (cfg.renegotiationInfo !== false && (ch.suites.includes(0x00ff) || ch.extensions.has(0xff01)))
    exts.push(Buffer.concat([u16(0xff01), u16(1), Buffer.from([0])]))
  if ((cfg.heartbeat ?? 'none') !== 'none' && ch.extensions.has(0x000f)) exts.push(Buffer.concat([u16(0x000f), u16(1), Buffer.from([1])]))
  const compression = cfg.compression && ch.compression.includes(1) ? 1 : 0
  const extBlock = exts.length ? Buffer.concat([u16(Buffer.concat(exts).length), ...exts]) : Buffer.alloc(0)
  const sh = hsMsg(
    2,
    Buffer.concat([u16(cfg.version), randomBytes(32), Buffer.from([0]), u16(suite), Buffer.from([compression]), extBlock]),
  )
  const certs = hsMsg(11, Buffer.concat([u24(cfg.cert.length + 3), u24(cfg.cert.length), cfg.cert]))
  const done = hsMsg(14, Buffer.alloc(0))
  s.write(rec(22, cfg.version, Buffer.concat([sh, certs, done])))
}

function answerHeartbeat(s: net.Socket, cfg: FakeConfig, body: Buffer): void {
  if (cfg.heartbeat !== 'vulnerable' && cfg.heartbeat !== 'patched') return
  if (body[0] !== 1 || body.length < 3) return
  const claimed = body.readUInt16BE(1)
  // RFC 6520: payload_length + 16 bytes of padding must fit; the patched server drops the message.
  if (cfg.heartbeat === 'patched' && 3 + claimed + 16 > body.length) return
  // The "vulnerable" fake trusts payload_length, but copies only from the record itself (no real memory).
  const payload = Buffer.alloc(claimed)
  body.copy(payload, 0, 3, Math.min(body.length, 3 + claimed))
  s.write(rec(24, cfg.version, Buffer.concat([Buffer.from([2]), u16(claimed), payload, randomBytes(16)])))
}

/** An SSLv2-only server: answers a CLIENT-HELLO with a SERVER-HELLO listing its cipher specs. */
function fakeSsl2Server(cert: Buffer, specs: number[]): net.Server {
  return net.createServer((s) => {
    s.setTimeout(10_000, () => s.destroy())
    s.on('error', () => {})
    s.once('data', (d: Buffer) => {
      if (!(d[0]! & 0x80) || d[2] !== 1) return void s.destroy()
      const specLen = d.readUInt16BE(5)
      const offered = new Set<number>()
      for (let o = 11; o + 3 <= 11 + specLen && o + 3 <= d.length; o += 3) offered.add((d[o]! << 16) | (d[o + 1]! << 8) | d[o + 2]!)
      const chosen = specs.filter((c) => offered.has(c))
      const cs = Buffer.concat(chosen.map((c) => Buffer.from([(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff])))
      const connId = randomBytes(16)
      const body = Buffer.concat([
        Buffer.from([4, 0, 1]),
        u16(0x0002),
        u16(cert.length),
        u16(cs.length),
        u16(connId.length),
        cert,
        cs,
        connId,
      ])
      s.write(Buffer.concat([u16(0x8000 | body.length), body]))
    })
  })
}

/**
 * A TCP relay to `backend` that drops connections whose first TLS record is longer than `maxRecord`
 * bytes, like stacks that fail on ClientHellos offering many suites.
 */
function pickyRelay(backend: () => { host: string; port: number }, maxRecord: number): net.Server {
  return net.createServer((s) => {
    s.on('error', () => {})
    s.once('data', (d: Buffer) => {
      if (d.length >= 5 && d.readUInt16BE(3) > maxRecord) return void s.destroy()
      const b = net.connect(backend(), () => {
        b.write(d)
        s.pipe(b).pipe(s)
      })
      b.on('error', () => s.destroy())
      s.on('close', () => b.destroy())
    })
  })
}

// ---- the bed ----

const listen = (server: net.Server, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port))
  })

export async function startTlsTestBed(o: { only?: TlsServerName[] } = {}): Promise<TlsTestBed> {
  const dir = mkdtempSync(join(tmpdir(), 'ward-tls-'))
  const pki = new Pki(dir)
  pki.ca('ward-test-ca')
  pki.ca('untrusted-ca')
  const caPem = readFileSync(join(dir, 'ward-test-ca', 'ca.pem'), 'utf8')
  const now = Date.now()
  const leaf = (name: TlsServerName, extra: Partial<Parameters<Pki['leaf']>[0]> = {}) =>
    pki.leaf({ name, ca: 'ward-test-ca', san: `IP:${ADDR[name]},DNS:${name}.ward.test`, ...extra })

  const modernProtocols = { protocols: ['TLSv1.2', 'TLSv1.3'], ciphers: { 'TLSv1.2': MODERN_SUITES_12, 'TLSv1.3': TLS13_SUITES } }
  const servers = new Map<TlsServerName, { server: net.Server; truth: TlsServerTruth }>()
  const real = (name: TlsServerName, cert: [string, string], truth: string[], o: { hsts?: boolean; weak?: boolean } = {}) =>
    servers.set(name, {
      server: httpsServer({ key: cert[0], cert: cert[1], ciphers: MODERN_CIPHERS + (o.weak ? ':@SECLEVEL=0' : ''), hsts: o.hsts ?? true }),
      truth: { ...modernProtocols, findings: truth },
    })

  real('modern', leaf('modern'), [])
  real('expired', leaf('expired', { start: now - 400 * DAY, end: now - 30 * DAY }), ['tls.cert.expired'])
  real('notyet', leaf('notyet', { start: now + 30 * DAY, end: now + 400 * DAY }), ['tls.cert.not-yet-valid'])
  real('expiring', leaf('expiring', { end: now + 10 * DAY }), ['tls.cert.expiring-soon'])
  real('selfsigned', pki.selfSigned('selfsigned', `IP:${ADDR.selfsigned}`), ['tls.cert.self-signed'])
  real('wronghost', pki.leaf({ name: 'wronghost', ca: 'ward-test-ca', san: 'DNS:other.example.test' }), ['tls.cert.hostname-mismatch'])
  real('weakkey', leaf('weakkey', { bits: 1024 }), ['tls.cert.weak-key'], { weak: true })
  real('sha1', leaf('sha1', { md: 'sha1' }), ['tls.cert.weak-signature'], { weak: true })
  real('nohsts', leaf('nohsts'), ['tls.hsts.missing'], { hsts: false })
  real('untrusted', pki.leaf({ name: 'untrusted', ca: 'untrusted-ca', san: `IP:${ADDR.untrusted}` }), ['tls.cert.untrusted'])

  const legacyTls1 = LEGACY_CIPHERS.filter((c) => !TLS12_ONLY.has(c))
  const legacy = (name: TlsServerName, serverOrder: boolean) => {
    const [key, cert] = leaf(name)
    servers.set(name, {
      server: httpsServer({
        key,
        cert,
        min: 'TLSv1',
        max: 'TLSv1.2',
        ciphers: LEGACY_CIPHERS.join(':') + ':@SECLEVEL=0',
        hsts: false,
        serverOrder,
      }),
      truth: {
        protocols: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
        ciphers: { 'TLSv1.0': legacyTls1, 'TLSv1.1': legacyTls1, 'TLSv1.2': LEGACY_CIPHERS },
        findings: [
          'tls.protocol.tls10',
          'tls.protocol.tls11',
          'tls.cipher.null',
          'tls.cipher.anonymous',
          'tls.cipher.cbc-tls10',
          'tls.cipher.cbc',
          'tls.cipher.no-forward-secrecy',
          'tls.hsts.missing',
        ],
      },
    })
  }
  legacy('legacy', false)
  legacy('anonfirst', true)

  const fakeCert = (name: TlsServerName) => derOf(leaf(name)[1])
  servers.set('sslv3', {
    // RC4-SHA, DES-CBC3-SHA, EXP-RC4-MD5, AES128-SHA
    server: fakeTlsServer({ version: 0x0300, suites: [0x0005, 0x000a, 0x0003, 0x002f], cert: fakeCert('sslv3') }),
    truth: {
      protocols: ['SSLv3'],
      ciphers: { SSLv3: ['RC4-SHA', 'DES-CBC3-SHA', 'EXP-RC4-MD5', 'AES128-SHA'] },
      findings: [
        'tls.protocol.sslv3',
        'tls.cipher.rc4',
        'tls.cipher.des',
        'tls.cipher.export',
        'tls.cipher.cbc-tls10',
        'tls.cipher.no-forward-secrecy',
      ],
    },
  })
  servers.set('sslv2', {
    // RC4-MD5, DES-CBC3-MD5, EXP-RC4-MD5
    server: fakeSsl2Server(fakeCert('sslv2'), [0x010080, 0x0700c0, 0x020080]),
    truth: {
      protocols: ['SSLv2'],
      ciphers: { SSLv2: ['RC4-MD5', 'DES-CBC3-MD5', 'EXP-RC4-MD5'] },
      findings: ['tls.protocol.sslv2', 'tls.cipher.rc4', 'tls.cipher.des', 'tls.cipher.export'],
    },
  })
  const tls12Fake = (name: TlsServerName, o: Partial<FakeConfig>, findings: string[]) =>
    servers.set(name, {
      // AES128-GCM-SHA256, ECDHE-RSA-AES128-GCM-SHA256
      server: fakeTlsServer({ version: 0x0303, suites: [0x009c, 0xc02f], cert: fakeCert(name), ...o }),
      // AES128-GCM-SHA256 is static RSA: every fake also lacks forward secrecy on that suite.
      truth: {
        protocols: ['TLSv1.2'],
        ciphers: { 'TLSv1.2': ['AES128-GCM-SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'] },
        findings: [...findings, 'tls.cipher.no-forward-secrecy'],
      },
    })
  tls12Fake('compression', { compression: true }, ['tls.compression'])
  tls12Fake('reneg', { renegotiationInfo: false }, ['tls.renegotiation.insecure'])
  tls12Fake('heartbleed', { heartbeat: 'vulnerable' }, ['tls.heartbleed'])
  tls12Fake('heartbeat-patched', { heartbeat: 'patched' }, [])

  // Depth checks (127.0.27.x): one planted problem each, and a clean server that staples OCSP.
  const tls12 = (name: TlsServerName, cert: [string, string], ciphers: string[], findings: string[], o: { dhparam?: string } = {}) =>
    servers.set(name, {
      server: httpsServer({ key: cert[0], cert: cert[1], max: 'TLSv1.2', ciphers: ciphers.join(':'), hsts: true, ...o }),
      truth: { protocols: ['TLSv1.2'], ciphers: { 'TLSv1.2': ciphers }, findings },
    })
  servers.set('clean', {
    server: httpsServer({ ...pemPair(leaf('clean', { exts: 'ocsp' })), ciphers: MODERN_CIPHERS, hsts: true, staple: true }),
    truth: { ...modernProtocols, findings: [] },
  })
  tls12('cbc', leaf('cbc'), ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES128-SHA256'], ['tls.cipher.cbc'])
  tls12('staticrsa', leaf('staticrsa'), ['ECDHE-RSA-AES128-GCM-SHA256', 'AES128-GCM-SHA256'], ['tls.cipher.no-forward-secrecy'])
  tls12('weakdh', leaf('weakdh'), ['ECDHE-RSA-AES128-GCM-SHA256', 'DHE-RSA-AES128-GCM-SHA256'], ['tls.cipher.weak-dh'], {
    dhparam: pki.dhparam(1024),
  })
  real('shortserial', leaf('shortserial', { serial: '1001' }), ['tls.cert.short-serial'])
  real('norevocation', leaf('norevocation', { exts: 'norev' }), ['tls.cert.no-revocation-info'])
  real('nostapling', leaf('nostapling', { exts: 'ocsp' }), ['tls.cert.ocsp-stapling-missing'])
  real('noct', leaf('noct', { exts: 'noct' }), ['tls.cert.no-ct'])
  servers.set('clientreneg', {
    server: httpsServer({ ...pemPair(leaf('clientreneg')), ciphers: MODERN_CIPHERS, hsts: true, renegotiation: true }),
    truth: { ...modernProtocols, findings: ['tls.renegotiation.client-initiated'] },
  })

  servers.set('picky', {
    // In front of the modern server; its certificate is for 127.0.4.1, hence the mismatch.
    server: pickyRelay(() => out.modern ?? { host: ADDR.modern, port: 0 }, 512),
    truth: { ...modernProtocols, findings: ['tls.cert.hostname-mismatch'] },
  })

  const out = {} as Record<TlsServerName, TlsServerInfo>
  for (const [name, { server, truth }] of servers) {
    if (o.only && !o.only.includes(name)) servers.delete(name)
    else out[name] = { host: ADDR[name], port: await listen(server, ADDR[name]), truth }
  }

  // Every accepted socket, so close() does not wait for clients (or keep-alive) to hang up.
  const sockets = new Set<net.Socket>()
  for (const { server } of servers.values()) {
    server.on('connection', (c: net.Socket) => {
      sockets.add(c)
      c.on('close', () => sockets.delete(c))
    })
  }

  return {
    dir,
    caPem,
    servers: out,
    async close() {
      const closing = [...servers.values()].map(({ server }) => new Promise<void>((r) => server.close(() => r())))
      for (const c of sockets) c.destroy()
      await Promise.all(closing)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
