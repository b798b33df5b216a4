// One-line passes/fails tests of the pure detectors of the socket tools (diagnostic, netvuln,
// password-auditor, tls-scanner, udp-scanner): each fails on the evidence of a problem and passes
// without it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { stepOutcome } from '../../src/tools/diagnostic/detect/step.js'
import {
  ftpConclusion,
  redisConclusion,
  sshConclusion,
  backdoorHits,
  elasticsearchExpected,
  type PortInfo,
} from '../../src/tools/netvuln/detect/services.js'
import { auditHits, auditIncomplete, cleanLoginsHits } from '../../src/tools/password-auditor/detect/findings.js'
import { PHASES, phaseOutcome, tlsPort } from '../../src/tools/tls-scanner/detect/phases.js'
import { classify, followUpsFor } from '../../src/tools/udp-scanner/detect/classify.js'
import type { TlsReport } from '../../src/tools/lib/tls/report.js'

const port = (over: Partial<PortInfo> = {}): PortInfo => ({
  port: 21,
  detected: { service: 'ftp', product: null, version: null, banner: null, tls: false },
  kind: 'ftp',
  service: 'ftp',
  tls: false,
  products: [],
  ...over,
})
const kex = { kex: ['curve25519-sha256'], hostKeys: [], ciphers: ['aes128-ctr'], macs: ['hmac-sha2-256'], compression: [] }

test('diagnostic: odd steps find, quiet and even steps pass, error steps error', () => {
  const first = stepOutcome(1, { error_steps: [], quiet_steps: [] })
  assert.equal('hits' in first ? first.hits.length : -1, 1)
  assert.deepEqual(stepOutcome(2, { error_steps: [], quiet_steps: [] }), { hits: [] })
  assert.deepEqual(stepOutcome(1, { error_steps: [], quiet_steps: [1] }), { hits: [] })
  assert.deepEqual(stepOutcome(3, { error_steps: [3], quiet_steps: [] }), { error: 'step 3 could not run (diagnostic)' })
})

test('netvuln: anonymous FTP fails on 230 and passes on a refusal', () => {
  assert.equal(ftpConclusion({ banner: '220 vsFTPd 3.0.3', anonymous: true, transcript: [] }, port()).hits.length, 1)
  assert.equal(ftpConclusion({ banner: '220 vsFTPd 3.0.3', anonymous: false, transcript: [] }, port()).hits.length, 0)
})

test('netvuln: Redis without AUTH fails, with AUTH passes; SSH weak algorithms fail, modern ones pass', () => {
  assert.equal(
    redisConclusion({ unauthenticated: true, reply: '+PONG', version: '6.0.9', transcript: [] }, port({ port: 6379, service: null }))
      .hits[0]!.service,
    'redis',
  )
  assert.equal(redisConclusion({ unauthenticated: false, reply: '-NOAUTH', version: null, transcript: [] }, port()).hits.length, 0)
  assert.equal(
    sshConclusion({ banner: 'SSH-2.0-x', kexinit: { ...kex, kex: ['diffie-hellman-group1-sha1'] } as never, transcript: [] }, port()).hits
      .length,
    1,
  )
  assert.equal(sshConclusion({ banner: 'SSH-2.0-x', kexinit: kex as never, transcript: [] }, port()).hits.length, 0)
})

test('netvuln: a root shell banner is a backdoor, an FTP greeting is not; Elasticsearch is looked at where expected', () => {
  assert.equal(
    backdoorHits([port({ detected: { service: null, product: null, version: null, banner: 'root@metasploitable:/# ', tls: false } })])
      .length,
    1,
  )
  assert.equal(
    backdoorHits([port({ detected: { service: 'ftp', product: null, version: null, banner: '220 FTP ready', tls: false } })]).length,
    0,
  )
  assert.equal(elasticsearchExpected(port({ kind: 'elasticsearch' }), null), true)
  assert.equal(elasticsearchExpected(port({ kind: 'http' }), null), false)
})

const login = { service: 'ftp', port: 21, product: null, url: null, listId: 'ftp' }
const result = { found: [], attempts: 4, stopped: null, lockout: null, noAuth: false }

test('password-auditor: a found credential, no authentication and lockout are hits; a clean audit is none', () => {
  assert.equal(auditHits(login, { ...result, found: [{ username: 'ftp', password: 'ftp' }] })[0]!.location, 'ftp user ftp')
  assert.equal(auditHits(login, { ...result, noAuth: true, stopped: 'no password asked' }).length, 1)
  assert.equal(auditHits(login, { ...result, lockout: 'locked', stopped: 'locked' }).length, 1)
  assert.equal(auditHits(login, result).length, 0)
  assert.equal(auditIncomplete({ ...result, stopped: '3 errors' }, 40), true)
  assert.equal(auditIncomplete(result, 4), false)
  assert.equal(cleanLoginsHits([{ ...login, attempts: 4, found: 0, stopped: null }]).length, 1)
  assert.equal(cleanLoginsHits([{ ...login, attempts: 4, found: 1, stopped: null }]).length, 0)
})

const report = (over: Partial<TlsReport> = {}) =>
  ({
    host: 'h',
    port: 443,
    speaksTls: true,
    completed: { protocols: true, certificate: true, http: true, heartbleed: true },
    renegotiation: [],
    http: { speaksHttp: true, hsts: null },
    ...over,
  }) as TlsReport

test('tls-scanner: a phase keeps its own findings, skips what did not run or apply, errors when no handshake worked', () => {
  const f = [{ check: { id: 'tls.protocol.sslv3' } as never }, { check: { id: 'tls.cert.expired' } as never }]
  assert.deepEqual(phaseOutcome(PHASES[0]!, report(), f, false), { hits: [f[0]] })
  assert.deepEqual(phaseOutcome(PHASES[0]!, report({ speaksTls: false }), f, false), { error: 'No SSL/TLS handshake succeeded with h:443' })
  assert.deepEqual(
    phaseOutcome(PHASES[2]!, report({ completed: { protocols: true, certificate: false, http: true, heartbleed: true } }), f, true),
    { skip: 'the scan was stopped before this check ran' },
  )
  assert.equal(tlsPort({ type: 'url', name: 'https://x:8443/' }, undefined), 8443)
  assert.equal(tlsPort({ type: 'hostname', name: 'x' }, undefined), 443)
})

test('udp-scanner: a reply is an open port with its open-port hit; silence is no hit and no follow-up', () => {
  const open = classify(53, { state: 'open', reply: Buffer.from('x'), sent: 10 })
  assert.equal(open.row.state, 'open')
  assert.ok(open.hits.length >= 1)
  const silent = classify(53, { state: 'open|filtered', sent: 10 })
  assert.deepEqual(silent.hits, [])
  assert.deepEqual(followUpsFor(silent.row), [])
})
