// Tool 350 against its test bed: the vulnerable services must yield exactly the planted problems, the
// healthy twin none. Only the ports the bed opened are scanned (explicit list), on 127.0.6.0/24.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { networkVulnScanner } from '../../../src/tools/netvuln/run.js'
import { runTool, vulnIds, type HarnessResult } from '../../helpers/tool-harness.js'
import { startVulnServices, startHealthyServices, type ServiceBed } from '../../testbed/vuln-services.js'
import type { Egress } from '../../../src/toolkit/egress.js'
import { TargetUnreachableError } from '../../../src/toolkit/errors.js'

const VULN_HOST = '127.0.6.10'
const HEALTHY_HOST = '127.0.6.11'

/** The truth of the vulnerable bed: vuln_id → CVEs (version findings) or [] (active checks). */
const VULN_TRUTH: Record<string, string[]> = {
  'tcp.exposure.ftp-anonymous': [],
  'netvuln.smtp.open-relay': [],
  'tcp.exposure.redis-unauthenticated': [],
  'netvuln.memcached.no-auth': [],
  'netvuln.mongodb.no-auth': [],
  'netvuln.elasticsearch.no-auth': [],
  'netvuln.ssh.weak-kex': [],
  'netvuln.ssh.weak-cipher': [],
  'netvuln.ssh.weak-mac': [],
  'cve.vsftpd-backdoor': ['CVE-2011-2523'], // 220 (vsFTPd 2.3.4)
  'cve.openssh-user-enumeration': ['CVE-2018-15473'], // SSH-2.0-OpenSSH_7.4
  'cve.apache-httpd-path-traversal': ['CVE-2021-41773', 'CVE-2021-42013'], // Server: Apache/2.4.49 (Unix) OpenSSL/1.0.1f
  'cve.openssl-heartbleed': ['CVE-2014-0160'],
  'cve.exim-return-of-the-wizard': ['CVE-2019-10149'], // ESMTP Exim 4.89
  'cve.exim-tls-sni-backslash': ['CVE-2019-15846'],
  'cve.redis-lua-use-after-free': ['CVE-2025-49844'], // INFO redis_version:5.0.7
  'cve.apache-httpd-mod-lua-multipart': ['CVE-2021-44790'], // Apache 2.4.49 again
  'cve.openssl-aes-ni-padding-oracle': ['CVE-2016-2107'], // OpenSSL 1.0.1f again
  'cve.memcached-binary-append-overflow': ['CVE-2016-8704'], // STAT version 1.4.15
  'cve.memcached-udp-amplification': ['CVE-2018-1000115'], // memcached 1.4.15 again: UDP on by default before 1.5.6
  'cve.exim-21nails': ['CVE-2020-28017'], // Exim 4.89 again
  'cve.exim-auth-external-oob-write': ['CVE-2023-42115'],
  'cve.redis-cjson-heap-overflow': ['CVE-2022-24834'], // Redis 5.0.7 again
  'eol.exim': [], // Exim 4.94 and older: end of life 2021-09-28
  'eol.memcached': [], // memcached 1.4: end of life 2017-07-21
  'eol.redis': [], // Redis 5.0 and older: end of life 2022-04-27
  'eol.openssl': [], // OpenSSL 1.0.1: end of life 2016-12-31
  'eol.mongodb': [], // maxWireVersion 13: MongoDB 5.0, end of life 2024-10
  'eol.elasticsearch': [], // "number" : "6.8.0" in the JSON banner: Elasticsearch 6.x, end of life 2022-02
}

/** Port of each planted finding (per service of the bed). */
const VULN_PORTS: Record<string, keyof ServiceBed['ports']> = {
  'tcp.exposure.ftp-anonymous': 'ftp',
  'netvuln.smtp.open-relay': 'smtp',
  'tcp.exposure.redis-unauthenticated': 'redis',
  'netvuln.memcached.no-auth': 'memcached',
  'netvuln.mongodb.no-auth': 'mongodb',
  'netvuln.elasticsearch.no-auth': 'elasticsearch',
  'netvuln.ssh.weak-kex': 'ssh',
  'netvuln.ssh.weak-cipher': 'ssh',
  'netvuln.ssh.weak-mac': 'ssh',
  'cve.vsftpd-backdoor': 'ftp',
  'cve.openssh-user-enumeration': 'ssh',
  'cve.apache-httpd-path-traversal': 'http',
  'cve.openssl-heartbleed': 'http',
  'cve.exim-return-of-the-wizard': 'smtp',
  'cve.exim-tls-sni-backslash': 'smtp',
  'cve.redis-lua-use-after-free': 'redis',
  'cve.apache-httpd-mod-lua-multipart': 'http',
  'cve.openssl-aes-ni-padding-oracle': 'http',
  'cve.memcached-binary-append-overflow': 'memcached',
  'cve.memcached-udp-amplification': 'memcached',
  'cve.exim-21nails': 'smtp',
  'cve.exim-auth-external-oob-write': 'smtp',
  'cve.redis-cjson-heap-overflow': 'redis',
  'eol.exim': 'smtp',
  'eol.memcached': 'memcached',
  'eol.redis': 'redis',
  'eol.openssl': 'http',
  'eol.mongodb': 'mongodb',
  'eol.elasticsearch': 'elasticsearch',
}

/** Test-name prefix of each active check, for pass/fail per check. */
const ACTIVE_TESTS: Array<[string, string[]]> = [
  ['Anonymous FTP login on', ['tcp.exposure.ftp-anonymous']],
  ['SMTP open relay on', ['netvuln.smtp.open-relay']],
  ['Unauthenticated Redis on', ['tcp.exposure.redis-unauthenticated']],
  ['Unauthenticated memcached on', ['netvuln.memcached.no-auth']],
  ['Unauthenticated MongoDB on', ['netvuln.mongodb.no-auth']],
  ['Unauthenticated Elasticsearch on', ['netvuln.elasticsearch.no-auth']],
  ['SSH algorithms on', ['netvuln.ssh.weak-kex', 'netvuln.ssh.weak-cipher', 'netvuln.ssh.weak-mac']],
]

let vulnBed: ServiceBed
let healthyBed: ServiceBed
let vuln: HarnessResult
let healthy: HarnessResult

const ownIds = (r: HarnessResult) => vulnIds(r).filter((id) => /^(netvuln|tcp\.exposure|cve|eol)\./.test(id))

before(async () => {
  vulnBed = await startVulnServices(VULN_HOST)
  healthyBed = await startHealthyServices(HEALTHY_HOST)
  ;[vuln, healthy] = await Promise.all([
    runTool(networkVulnScanner, { target: VULN_HOST, params: { ports: vulnBed.portList.join(',') } }),
    runTool(networkVulnScanner, { target: HEALTHY_HOST, params: { ports: healthyBed.portList.join(',') } }),
  ])
})

after(async () => {
  await vulnBed?.close()
  await healthyBed?.close()
})

test('the vulnerable bed yields exactly the planted vuln_ids', () => {
  assert.equal(vuln.error, undefined, String(vuln.error))
  assert.deepEqual(ownIds(vuln), Object.keys(VULN_TRUTH).sort(), vuln.logs.join('\n'))
})

test('every planted finding is on its port, tcp, with the right CVEs, confirmed for active proofs only (versions and end of life are inferred)', () => {
  for (const [id, cves] of Object.entries(VULN_TRUTH)) {
    const port = vulnBed.ports[VULN_PORTS[id]]
    const f = vuln.findings.find((x) => x.check.id === id && x.port === port)
    assert.ok(f, `${id} on port ${port}`)
    assert.equal(f.protocol, 'tcp')
    assert.ok(f.service, `${id} names its service`)
    assert.deepEqual([...(f.cve ?? [])].sort(), cves, id)
    // Active proofs are confirmed (their ids: netvuln.*, and the facts shared with the Port Scanner); versions are inferred.
    assert.equal(f.confirmed, !/^(cve|eol)\./.test(id), `${id} confirmed`)
    assert.ok(f.evidence, `${id} has evidence`)
  }
})

test('version findings carry CVSS-based risk and the version in their name', () => {
  const risk = (id: string) => vuln.findings.find((f) => f.check.id === id)?.risk
  assert.equal(risk('cve.vsftpd-backdoor'), 'critical') // 9.8
  assert.equal(risk('cve.apache-httpd-path-traversal'), 'critical') // 9.8: 2.4.49 has CVE-2021-42013 too
  assert.equal(risk('cve.openssh-user-enumeration'), 'medium') // 5.3
  const name = vuln.findings.find((f) => f.check.id === 'cve.openssh-user-enumeration')?.name
  assert.match(name ?? '', /^OpenSSH 7\.4: .*CVE-2018-15473/)
})

test('the healthy twin yields no finding at all', () => {
  assert.equal(healthy.error, undefined, String(healthy.error))
  assert.deepEqual(
    vulnIds(healthy),
    [],
    JSON.stringify(
      healthy.findings.map((f) => [f.check.id, f.port, f.detail]),
      null,
      1,
    ),
  )
})

test('each active check fails on the vulnerable bed and passes on the healthy twin', () => {
  for (const [prefix, ids] of ACTIVE_TESTS) {
    const v = vuln.tests.find((t) => t.name.startsWith(prefix))
    const h = healthy.tests.find((t) => t.name.startsWith(prefix))
    assert.ok(v && h, `${prefix}: recorded on both beds`)
    assert.equal(v.result, 'failed', `${prefix} on the vulnerable bed`)
    assert.deepEqual([...new Set(v.findings.map((f) => f.check.id))].sort(), [...ids].sort())
    assert.equal(h.status, 'finished', `${prefix} on the healthy twin: ${h.message ?? ''}`)
    assert.equal(h.result, 'passed', `${prefix} on the healthy twin`)
  }
  const cveV = vuln.tests.find((t) => t.name === 'Known vulnerabilities by version')
  const cveH = healthy.tests.find((t) => t.name === 'Known vulnerabilities by version')
  assert.equal(cveV?.result, 'failed')
  assert.equal(cveH?.result, 'passed')
})

test('the SMTP relay check never sent DATA, and used RFC 2606 domains only', () => {
  for (const bed of [vulnBed, healthyBed]) {
    assert.ok(
      bed.smtpCommands.some((c) => /^RCPT TO:<[^>]+@example\.net>$/i.test(c)),
      bed.smtpCommands.join(' | '),
    )
    assert.ok(!bed.smtpCommands.some((c) => /^DATA/i.test(c)))
    for (const c of bed.smtpCommands) for (const d of c.match(/@[^>\s]+/g) ?? []) assert.match(d, /^@example\.(com|net|org)$/)
  }
})

test('output_data.services lists every open port with its products', () => {
  const services = vuln.output.services as Array<{
    port: number
    service: string | null
    products: Array<{ product: string; version: string }>
  }>
  assert.deepEqual(
    services.map((s) => s.port).sort((a, b) => a - b),
    vulnBed.portList,
  )
  const http = services.find((s) => s.port === vulnBed.ports.http)
  assert.deepEqual(http?.products.map((p) => `${p.product} ${p.version}`).sort(), ['Apache httpd 2.4.49', 'OpenSSL 1.0.1f'])
  assert.equal(vuln.progress, 100)
})

test('TLS ports get the TLS analysis of tool 450, or a skipped test saying why', () => {
  const tlsTests = vuln.tests.filter((t) => t.name.startsWith('TLS analysis'))
  assert.ok(tlsTests.length > 0)
  // Planted on 443: a self-signed certificate for CN=vuln.test (scanned by IP) and no HSTS.
  const onHttps = vuln.findings.filter((f) => f.port === vulnBed.ports.https && f.check.id.startsWith('tls.')).map((f) => f.check.id)
  for (const id of ['tls.cert.self-signed', 'tls.cert.hostname-mismatch', 'tls.hsts.missing'])
    assert.ok(onHttps.includes(id), `${id} in ${onHttps}`)
  assert.ok(vuln.findings.filter((f) => f.check.id.startsWith('tls.')).every((f) => f.port === vulnBed.ports.https && f.protocol === 'tcp'))
  const h = healthy.tests.find((t) => t.name.startsWith('TLS analysis'))
  assert.equal(h?.status, 'skipped', 'no TLS port on the healthy twin')
})

test('checks.active = false runs no active check and records why', async () => {
  const r = await runTool(networkVulnScanner, {
    target: VULN_HOST,
    params: { ports: vulnBed.portList.join(','), checks: { active: false, tls: false } },
  })
  const active = [
    ...['smtp.open-relay', 'memcached.no-auth', 'mongodb.no-auth', 'elasticsearch.no-auth'].map((s) => `netvuln.${s}`),
    'tcp.exposure.ftp-anonymous',
    'tcp.exposure.redis-unauthenticated',
  ]
  assert.deepEqual(
    vulnIds(r).filter((id) => active.includes(id)),
    [],
  )
  assert.ok(vulnIds(r).includes('netvuln.ssh.weak-kex'), 'passive SSH algorithm check still runs')
  assert.ok(vulnIds(r).includes('cve.vsftpd-backdoor'), 'banner versions still match')
  const skippedNames = r.tests.filter((t) => t.status === 'skipped').map((t) => t.name)
  for (const n of ['Anonymous FTP login', 'SMTP open relay', 'Unauthenticated Redis', 'TLS analysis'])
    assert.ok(skippedNames.includes(n), n)
})

test('a stop returns normally within a second', async () => {
  const ac = new AbortController()
  const started = performance.now()
  setTimeout(() => ac.abort(new Error('stopped')), 150)
  const r = await runTool(networkVulnScanner, { target: VULN_HOST, params: { ports: vulnBed.portList.join(',') }, signal: ac.signal })
  assert.equal(r.error, undefined)
  assert.ok(performance.now() - started < 1500, `took ${performance.now() - started} ms`)
})

test('a target that answers on no port is unreachable (fake egress: no traffic)', async () => {
  const timeout = () => Promise.reject(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' }))
  const egress = {
    kind: 'direct',
    carriesUdp: false,
    connect: timeout,
    tlsConnect: timeout,
    http: timeout,
    udp: () => {
      throw new Error('no udp')
    },
    check: async () => {},
    close: async () => {},
  } as unknown as Egress
  const r = await runTool(networkVulnScanner, { target: '127.0.6.250', params: { ports: '1-20' }, egress })
  assert.ok(r.error instanceof TargetUnreachableError, String(r.error))
})

test('bad ports are refused by the params schema', async () => {
  await assert.rejects(runTool(networkVulnScanner, { target: VULN_HOST, params: { ports: 'lots' } }), /tool_params\.ports/)
  await assert.rejects(runTool(networkVulnScanner, { target: VULN_HOST, params: { checks: { nope: true } } }), /tool_params\.checks/)
})

test('services on unusual ports are checked by what detection finds, not by port number', async () => {
  const zero = { ftp: 0, ssh: 0, smtp: 0, http: 0, https: 0, redis: 0, memcached: 0, elasticsearch: 0, mongodb: 0 }
  const bed = await startVulnServices('127.0.6.12', { ports: zero })
  try {
    const r = await runTool(networkVulnScanner, { target: bed.host, params: { ports: bed.portList.join(',') } })
    assert.deepEqual(ownIds(r), Object.keys(VULN_TRUTH).sort(), r.logs.join('\n'))
    for (const [id, service] of Object.entries(VULN_PORTS))
      assert.ok(
        r.findings.some((f) => f.check.id === id && f.port === bed.ports[service]),
        `${id} on ${service}`,
      )
  } finally {
    await bed.close()
  }
})
