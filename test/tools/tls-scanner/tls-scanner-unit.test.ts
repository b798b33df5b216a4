// Pure parts of the SSL/TLS Scanner: the check catalogue, hello building/parsing, suite classes,
// certificate facts and report → findings.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { X509Certificate } from 'node:crypto'
import { tlsChecks } from '../../../src/tools/lib/tls/checks.js'
import { OWASP } from '../../../src/toolkit/check.js'
import {
  buildClientHello,
  buildHeartbeatProbe,
  isHeartbleedEcho,
  parseServerHello,
  splitHandshake,
  splitRecords,
  parseSsl2ServerHello,
  HEARTBEAT_PAYLOAD,
  RENEGOTIATION_SCSV,
  dhPrimeBits,
  EXT,
} from '../../../src/tools/lib/tls/hello.js'
import { LEGACY_SUITES, TLS13_SUITES, SSL2_SUITES, suiteByCode, suiteByName, weakClasses } from '../../../src/tools/lib/tls/suites.js'
import { analyzeChain, extensionFacts, signatureAlgorithm, type CertificateReport } from '../../../src/tools/lib/tls/certs.js'
import type { TlsReport } from '../../../src/tools/lib/tls/analyze.js'
import { tlsFindings } from '../../../src/tools/lib/tls/findings.js'
import { firstFlightParser } from '../../../src/tools/lib/tls/probe.js'

test('catalogue: stable tls.* ids, real CWE/OWASP/reference data, KEV CVE on Heartbleed', () => {
  const ids = tlsChecks.map((c) => c.id)
  assert.equal(new Set(ids).size, ids.length)
  const owaspValues = new Set(Object.values(OWASP).flatMap((o) => Object.values(o)))
  for (const c of tlsChecks) {
    assert.match(c.id, /^tls\.[a-z0-9.-]+$/)
    assert.ok(c.cwe.length > 0 && c.cwe.every((w) => /^CWE-\d+$/.test(w)), c.id)
    for (const v of Object.values(c.owasp)) assert.ok(owaspValues.has(v), `${c.id}: ${v}`)
    assert.ok(c.references.length >= 2 && c.references.every((r) => r.startsWith('https://')), c.id)
    for (const cve of (c as { cve?: readonly string[] }).cve ?? []) assert.match(cve, /^CVE-\d{4}-\d{4,}$/)
    assert.ok(['info', 'low', 'medium', 'high', 'critical'].includes(c.risk))
    assert.ok(c.name && c.description && c.impact && c.recommendation)
  }
  const hb = tlsChecks.find((c) => c.id === 'tls.heartbleed')!
  assert.deepEqual(hb.cve, ['CVE-2014-0160'])
  assert.equal(hb.risk, 'high')
})

test('suite registry: codes, names and weakness classes', () => {
  assert.ok(LEGACY_SUITES.length > 300)
  assert.deepEqual(
    TLS13_SUITES.map((s) => s.code),
    [0x1301, 0x1302, 0x1303, 0x1304, 0x1305],
  )
  assert.equal(SSL2_SUITES.length > 5, true)
  assert.ok(!LEGACY_SUITES.some((s) => s.code === 0 || s.code === RENEGOTIATION_SCSV))
  assert.equal(suiteByCode(0x0005).name, 'RC4-SHA')
  assert.equal(suiteByCode(0x010080, true).name, 'RC4-MD5')
  assert.equal(suiteByName('ecdhe-rsa-aes128-gcm-sha256')!.code, 0xc02f)
  assert.equal(suiteByName('TLS_AES_256_GCM_SHA384')!.code, 0x1302)
  const cls = (code: number, p: string) => weakClasses(suiteByCode(code), p)
  assert.deepEqual(cls(0x0005, 'TLSv1.2'), ['rc4', 'no-fs'])
  assert.deepEqual(cls(0x000a, 'TLSv1.2'), ['des', 'cbc', 'no-fs'])
  assert.deepEqual(cls(0x000a, 'TLSv1.0'), ['des', 'cbc-tls10', 'no-fs'])
  assert.deepEqual(cls(0x0003, 'SSLv3'), ['export', 'rc4', 'no-fs'])
  assert.deepEqual(cls(0xc015, 'TLSv1.2'), ['null', 'anonymous']) // AECDH-NULL-SHA
  assert.deepEqual(cls(0x0034, 'TLSv1.1'), ['anonymous', 'cbc']) // ADH-AES128-SHA
  assert.deepEqual(cls(0x002f, 'TLSv1.0'), ['cbc-tls10', 'no-fs'])
  assert.deepEqual(cls(0x002f, 'TLSv1.2'), ['cbc', 'no-fs']) // AES128-SHA: Lucky Thirteen class, static RSA
  assert.deepEqual(cls(0xc013, 'TLSv1.2'), ['cbc']) // ECDHE-RSA-AES128-SHA
  assert.deepEqual(cls(0x009c, 'TLSv1.2'), ['no-fs']) // AES128-GCM-SHA256
  assert.deepEqual(cls(0x009e, 'TLSv1.2'), []) // DHE-RSA-AES128-GCM-SHA256
  assert.deepEqual(cls(0xc030, 'TLSv1.2'), []) // ECDHE-RSA-AES256-GCM-SHA384
  assert.deepEqual(cls(0xc02f, 'TLSv1.2'), [])
  assert.deepEqual(cls(0x1301, 'TLSv1.3'), [])
})

test('ClientHello: record framing, SCSV, compression offer, SNI, and TLS 1.3 extensions', () => {
  const h = buildClientHello({
    protocol: 'TLSv1.2',
    suites: [0xc02f, 0x0005],
    sni: 'example.test',
    offerCompression: true,
    heartbeat: true,
  })
  const split = splitRecords(h)!
  assert.equal(split.records.length, 1)
  assert.equal(split.records[0]!.type, 22)
  const [msg] = splitHandshake(split.records[0]!.body).messages
  assert.equal(msg!.type, 1)
  const b = msg!.body
  assert.equal(b.readUInt16BE(0), 0x0303)
  const sidLen = b[34]!
  const suitesLen = b.readUInt16BE(35 + sidLen)
  const suites = Array.from({ length: suitesLen / 2 }, (_, i) => b.readUInt16BE(37 + sidLen + i * 2))
  assert.deepEqual(suites, [0xc02f, 0x0005, RENEGOTIATION_SCSV])
  const compOff = 37 + sidLen + suitesLen
  assert.deepEqual([...b.subarray(compOff + 1, compOff + 1 + b[compOff]!)], [1, 0])
  assert.ok(b.includes(Buffer.from('example.test')))

  const ssl3 = buildClientHello({ protocol: 'SSLv3', suites: [0x0005] })
  assert.equal(ssl3.readUInt16BE(1), 0x0300)
  const s3 = splitHandshake(splitRecords(ssl3)!.records[0]!.body).messages[0]!.body
  assert.equal(s3.readUInt16BE(0), 0x0300)
  assert.equal(s3.length, 2 + 32 + 1 + 2 + 4 + 2, 'no extensions in an SSLv3 hello')

  const t13 = buildClientHello({ protocol: 'TLSv1.3', suites: [0x1301] })
  const body13 = splitHandshake(splitRecords(t13)!.records[0]!.body).messages[0]!.body
  assert.ok(body13.includes(Buffer.from([0x00, 0x2b, 0x00, 0x03, 0x02, 0x03, 0x04])), 'supported_versions = [TLS 1.3]')
  assert.ok(body13.includes(Buffer.from([0x00, 0x33])), 'key_share')
})

const serverHello = (version: number, suite: number, exts: Buffer = Buffer.alloc(0), random = Buffer.alloc(32, 7)) => {
  const body = Buffer.concat([
    Buffer.from([version >> 8, version & 0xff]),
    random,
    Buffer.from([0]),
    Buffer.from([suite >> 8, suite & 0xff, 0]),
    exts.length ? Buffer.concat([Buffer.from([exts.length >> 8, exts.length & 0xff]), exts]) : Buffer.alloc(0),
  ])
  return Buffer.concat([Buffer.from([2, 0, body.length >> 8, body.length & 0xff]), body])
}
const rec = (type: number, body: Buffer) => Buffer.concat([Buffer.from([type, 3, 3, body.length >> 8, body.length & 0xff]), body])

test('ServerHello parsing: supported_versions, HelloRetryRequest, extensions, alerts and partial input', () => {
  const sv = Buffer.from([0x00, 0x2b, 0x00, 0x02, 0x03, 0x04])
  const h13 = parseServerHello(serverHello(0x0303, 0x1302, sv).subarray(4))
  assert.equal(h13.version, 0x0304)
  assert.equal(h13.suite, 0x1302)
  assert.equal(h13.helloRetry, false)
  const hrr = parseServerHello(
    serverHello(0x0303, 0x1301, sv, Buffer.from('cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c', 'hex')).subarray(4),
  )
  assert.equal(hrr.helloRetry, true)
  const reneg = parseServerHello(serverHello(0x0301, 0x002f, Buffer.from([0xff, 0x01, 0x00, 0x01, 0x00])).subarray(4))
  assert.equal(reneg.version, 0x0301)
  assert.ok(reneg.extensions.has(0xff01))

  const parse = firstFlightParser(false)
  const full = rec(22, serverHello(0x0303, 0xc02f))
  assert.equal(parse(full.subarray(0, 10), false), undefined, 'waits for more bytes')
  const ok = parse(full, false)!
  assert.equal(ok.kind, 'hello')
  assert.deepEqual(parse(rec(21, Buffer.from([2, 40])), false), { kind: 'alert', level: 2, description: 40 })
  assert.deepEqual(parse(Buffer.from('SSH-2.0-x\r\n'), false), { kind: 'not-tls' })
  assert.deepEqual(parse(Buffer.alloc(0), true), { kind: 'closed' })
  assert.equal(parseSsl2ServerHello(Buffer.from('HTTP/1.1 400')), null)
})

test('heartbeat probe: declared length covers only our own bytes; only the over-long echo counts', () => {
  const probe = buildHeartbeatProbe(0x0303)
  const body = splitRecords(probe)!.records[0]!.body
  assert.equal(probe[0], 24)
  const claimed = body.readUInt16BE(1)
  assert.equal(claimed, HEARTBEAT_PAYLOAD.length + 16)
  assert.equal(body.length, 3 + claimed, 'the declared payload ends exactly at the end of the record: nothing beyond it can be read')
  assert.ok(3 + claimed + 16 > body.length, 'but RFC 6520 requires 16 bytes of padding after it, so a patched server drops it')
  const echo = Buffer.concat([Buffer.from([2]), body.subarray(1, 3), body.subarray(3), Buffer.alloc(16)])
  assert.equal(isHeartbleedEcho(echo), true)
  assert.equal(isHeartbleedEcho(Buffer.concat([Buffer.from([2, 0, 4]), Buffer.from('abcd')])), false)
})

test('certificate facts: signature algorithm, key size, self-signed, host and dates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-tls-unit-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:1024',
        '-nodes',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
        '-subj',
        '/CN=unit.ward.test',
        '-days',
        '5',
        '-sha1',
        '-addext',
        'subjectAltName=DNS:unit.ward.test',
      ],
      { stdio: 'ignore' },
    )
    const der = Buffer.from(new X509Certificate(readFileSync(join(dir, 'c.pem'))).raw)
    assert.equal(signatureAlgorithm(der), 'sha1WithRSAEncryption')
    const [c] = analyzeChain([der], { now: Date.now(), hostname: 'unit.ward.test', trusted: false })
    assert.equal(c!.key_size, 1024)
    assert.equal(c!.self_signed, true)
    assert.deepEqual([...c!.problems].sort(), ['expiring-soon', 'self-signed', 'weak-key', 'weak-signature'])
    const [other] = analyzeChain([der], { now: Date.now() + 10 * 86_400_000, hostname: '10.0.0.1', trusted: false })
    assert.deepEqual([...other!.problems].sort(), ['expired', 'hostname-mismatch', 'self-signed', 'weak-key', 'weak-signature'])
    assert.equal(signatureAlgorithm(Buffer.from([0x30, 0x03, 0x02])), 'unknown')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

function report(over: Partial<TlsReport>): TlsReport {
  return {
    host: '192.0.2.1',
    port: 8443,
    sni: null,
    hostname: '192.0.2.1',
    reachable: true,
    speaksTls: true,
    completed: { protocols: true, certificate: true, http: true, heartbleed: true },
    scannedAt: '2026-01-01T00:00:00Z',
    protocols: [],
    certificates: [],
    trust: { trusted: true, error: null },
    compression: [],
    renegotiation: [],
    ocspStapling: null,
    sctInHandshake: false,
    dh: null,
    clientRenegotiation: null,
    heartbeat: { supported: false, vulnerable: false },
    http: null,
    ...over,
  }
}

test('tlsFindings: pure mapping of a report, HSTS max-age=0 counts as missing, service follows HTTP', () => {
  assert.deepEqual(tlsFindings(report({}), '192.0.2.1', 8443), [])
  const hsts0 = tlsFindings(report({ http: { speaksHttp: true, status: 200, hsts: 'max-age=0' } }), '192.0.2.1', 8443)
  assert.deepEqual(
    hsts0.map((f) => f.check.id),
    ['tls.hsts.missing'],
  )
  assert.equal(hsts0[0]!.service, 'https')
  assert.equal(tlsFindings(report({ http: { speaksHttp: true, status: 200, hsts: 'max-age=63072000' } }), '192.0.2.1', 8443).length, 0)
  const mixed = tlsFindings(
    report({
      protocols: [
        {
          name: 'TLSv1.1',
          accepted: true,
          ciphers: [{ name: 'RC4-SHA', iana: 'TLS_RSA_WITH_RC4_128_SHA', code: '0005', bits: 128, weak: true, classes: ['rc4'] }],
        },
      ],
      renegotiation: [{ protocol: 'TLSv1.1', secure: false }],
      compression: ['TLSv1.1'],
      heartbeat: { supported: true, vulnerable: true, protocol: 'TLSv1.1' },
    }),
    '192.0.2.1',
    8443,
  )
  assert.deepEqual(mixed.map((f) => f.check.id).sort(), [
    'tls.cipher.rc4',
    'tls.compression',
    'tls.heartbleed',
    'tls.protocol.tls11',
    'tls.renegotiation.insecure',
  ])
  for (const f of mixed) {
    assert.equal(f.port, 8443)
    assert.equal(f.service, 'tls')
    assert.equal(f.protocol, 'tcp')
  }
  assert.equal(mixed.find((f) => f.check.id === 'tls.renegotiation.insecure')!.confirmed, false)
})

test('certificate extensions: serial length, OCSP and CRL addresses, embedded SCTs; CA-issuance problems only on CA-signed leaves', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-tls-unit-'))
  const make = (name: string, serial: string, exts: string[]) => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        join(dir, `${name}.key`),
        '-out',
        join(dir, `${name}.pem`),
        '-subj',
        `/CN=${name}.ward.test`,
        '-days',
        '90',
        '-set_serial',
        serial,
        ...exts.flatMap((e) => ['-addext', e]),
      ],
      { stdio: 'ignore' },
    )
    return Buffer.from(new X509Certificate(readFileSync(join(dir, `${name}.pem`))).raw)
  }
  try {
    const full = make('full', '0x00c1d2e3f405060708090a', [
      'crlDistributionPoints=URI:http://crl.ward.test/a.crl,URI:http://crl2.ward.test/b.crl',
      'authorityInfoAccess=OCSP;URI:http://ocsp.ward.test/,caIssuers;URI:http://ca.ward.test/ca.crt',
      '1.3.6.1.4.1.11129.2.4.2=ASN1:FORMAT:HEX,OCTETSTRING:0000',
    ])
    const bare = make('bare', '0x1234', [])
    assert.deepEqual(extensionFacts(full), {
      serialBytes: 10,
      ocsp: ['http://ocsp.ward.test/'],
      crl: ['http://crl.ward.test/a.crl', 'http://crl2.ward.test/b.crl'],
      scts: true,
    })
    assert.deepEqual(extensionFacts(bare), { serialBytes: 2, ocsp: [], crl: [], scts: false })
    assert.deepEqual(extensionFacts(Buffer.from([0x30, 0x03, 0x02])), { serialBytes: 0, ocsp: [], crl: [], scts: false })
    // Self-signed: only the self-signed finding, not the issuance ones.
    assert.deepEqual(analyzeChain([bare], { now: Date.now(), hostname: 'bare.ward.test', trusted: false })[0]!.problems, ['self-signed'])
    // A CA-signed leaf with a 1-byte serial and no revocation or CT extensions, in a chain with its root.
    const root = make('root', '0x0102030405060708', [])
    const asLeaf = (der: Buffer, trusted: boolean, sct = false) =>
      analyzeChain([der, root], { now: Date.now(), hostname: 'x.ward.test', trusted, sctInHandshake: sct })[0]!
    writeFileSync(join(dir, 'leaf.ext'), 'subjectAltName=DNS:x.ward.test\n')
    execFileSync('openssl', ['req', '-new', '-key', join(dir, 'bare.key'), '-out', join(dir, 'leaf.csr'), '-subj', '/CN=x.ward.test'], {
      stdio: 'ignore',
    })
    execFileSync(
      'openssl',
      [
        'x509',
        '-req',
        '-in',
        join(dir, 'leaf.csr'),
        '-CA',
        join(dir, 'root.pem'),
        '-CAkey',
        join(dir, 'root.key'),
        '-set_serial',
        '0x77',
        '-days',
        '90',
        '-out',
        join(dir, 'leaf.pem'),
        '-extfile',
        join(dir, 'leaf.ext'),
      ],
      { stdio: 'ignore' },
    )
    const leaf = Buffer.from(new X509Certificate(readFileSync(join(dir, 'leaf.pem'))).raw)
    assert.deepEqual([...asLeaf(leaf, true).problems].sort(), ['no-ct', 'no-revocation-info', 'short-serial'])
    assert.deepEqual([...asLeaf(leaf, true, true).problems].sort(), ['no-revocation-info', 'short-serial'], 'SCTs in the handshake count')
    assert.deepEqual(
      [...asLeaf(leaf, false).problems].sort(),
      ['no-revocation-info', 'short-serial', 'untrusted'],
      'CT is only expected of trusted chains',
    )
    const r = asLeaf(leaf, true)
    assert.equal(r.serial_bytes, 1)
    assert.deepEqual([r.ocsp_urls, r.crl_urls, r.embedded_scts], [[], [], false])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('DH group size from a ServerKeyExchange; ClientHello asks for OCSP stapling and SCTs only when told', () => {
  const p = Buffer.alloc(128, 0xff)
  const ske = Buffer.concat([Buffer.from([0, 129, 0]), p, Buffer.from([0, 1, 2, 0, 1, 5])])
  assert.equal(dhPrimeBits(ske), 1024)
  assert.equal(dhPrimeBits(Buffer.concat([Buffer.from([0, 2]), Buffer.from([0x01, 0x00])])), 9)
  assert.equal(dhPrimeBits(Buffer.from([0, 9, 1])), null)
  const exts = (h: Buffer) => splitHandshake(splitRecords(h)!.records[0]!.body).messages[0]!.body
  const asked = exts(buildClientHello({ protocol: 'TLSv1.2', suites: [0xc02f], statusRequest: true }))
  const plain = exts(buildClientHello({ protocol: 'TLSv1.2', suites: [0xc02f] }))
  assert.ok(asked.includes(Buffer.from([0x00, EXT.statusRequest, 0x00, 0x05, 1, 0, 0, 0, 0])))
  assert.ok(asked.includes(Buffer.from([0x00, EXT.signedCertificateTimestamp, 0x00, 0x00])))
  assert.ok(!plain.includes(Buffer.from([0x00, EXT.statusRequest, 0x00, 0x05, 1, 0, 0, 0, 0])))
})

test('tlsFindings: no forward secrecy is medium only when no suite has it; weak DH by size; stapling only where the certificate names OCSP', () => {
  const c = (name: string, code: string, classes: string[]) => ({
    name,
    iana: name,
    code,
    bits: 128,
    weak: classes.length > 0,
    classes: classes as any,
  })
  const staticOnly = tlsFindings(
    report({ protocols: [{ name: 'TLSv1.2', accepted: true, ciphers: [c('AES128-GCM-SHA256', '009c', ['no-fs'])] }] }),
    '192.0.2.1',
    443,
  )
  assert.deepEqual(
    staticOnly.map((f) => [f.check.id, f.risk]),
    [['tls.cipher.no-forward-secrecy', 'medium']],
  )
  const mixed = tlsFindings(
    report({
      protocols: [
        {
          name: 'TLSv1.2',
          accepted: true,
          ciphers: [c('AES128-GCM-SHA256', '009c', ['no-fs']), c('ECDHE-RSA-AES128-SHA', 'c013', ['cbc'])],
        },
      ],
    }),
    '192.0.2.1',
    443,
  )
  assert.deepEqual(
    mixed.map((f) => [f.check.id, f.risk]),
    [
      ['tls.cipher.no-forward-secrecy', undefined],
      ['tls.cipher.cbc', undefined],
    ],
  )
  assert.match(mixed[0]!.detail!, /forward secrecy are offered too/)
  const dh = (bits: number) =>
    tlsFindings(report({ dh: { bits, protocol: 'TLSv1.2', suite: 'DHE-RSA-AES128-GCM-SHA256' } }), '192.0.2.1', 443).map((f) => [
      f.check.id,
      f.risk ?? 'medium',
    ])
  assert.deepEqual(dh(1024), [['tls.cipher.weak-dh', 'medium']])
  assert.deepEqual(dh(1536), [['tls.cipher.weak-dh', 'low']])
  assert.deepEqual(dh(2048), [])
  const leaf = (ocsp: string[]): CertificateReport => ({
    position: 0,
    subject: 'CN=x',
    issuer: 'CN=ca',
    serial_number: '01',
    serial_bytes: 16,
    ocsp_urls: ocsp,
    crl_urls: [],
    embedded_scts: true,
    valid_from: '',
    valid_to: '',
    key_type: 'rsa',
    key_size: 2048,
    signature_algorithm: 'sha256WithRSAEncryption',
    sans: [],
    fingerprint_sha1: '',
    fingerprint_sha256: '',
    self_signed: false,
    problems: [],
  })
  const ids = (o: Partial<TlsReport>) => tlsFindings(report(o), '192.0.2.1', 443).map((f) => f.check.id)
  assert.deepEqual(ids({ certificates: [leaf(['http://ocsp.ward.test/'])], ocspStapling: false }), ['tls.cert.ocsp-stapling-missing'])
  assert.deepEqual(ids({ certificates: [leaf(['http://ocsp.ward.test/'])], ocspStapling: true }), [])
  assert.deepEqual(ids({ certificates: [leaf(['http://ocsp.ward.test/'])], ocspStapling: null }), [], 'TLS 1.3 only: unknown')
  assert.deepEqual(ids({ certificates: [leaf([])], ocspStapling: false }), [], 'no responder named: nothing to staple')
  assert.deepEqual(ids({ clientRenegotiation: true }), ['tls.renegotiation.client-initiated'])
  assert.deepEqual(ids({ clientRenegotiation: null }), [])
})
