// Pure parts of the tool 350 probes: KEXINIT parsing and weak-algorithm rules, BSON, MongoDB replies,
// Elasticsearch recognition, and which check applies to which port.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseKexInit, weakKex, weakCiphers, weakMacs, type KexInit } from '../../../src/tools/netvuln/probes/ssh.js'
import { encodeBson, decodeBson } from '../../../src/tools/netvuln/probes/bson.js'
import { opMsg, opQuery, replyDocument, OP_MSG, OP_QUERY } from '../../../src/tools/netvuln/probes/mongodb.js'
import { elasticInfo, httpBase } from '../../../src/tools/netvuln/probes/http.js'
import { kindOf } from '../../../src/tools/netvuln/detect/kind.js'
import net from 'node:net'
import { SSH_ALGORITHMS, startVulnServices } from '../../testbed/vuln-services.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { probeRedis } from '../../../src/tools/netvuln/probes/redis.js'
import { probeFtpAnonymous } from '../../../src/tools/netvuln/probes/ftp.js'
import { probeMemcached } from '../../../src/tools/netvuln/probes/memcached.js'
import { probeMongo } from '../../../src/tools/netvuln/probes/mongodb.js'
import { NotThisProtocol } from '../../../src/tools/lib/services/session.js'

function kexPayload(lists: string[][]): Buffer {
  const parts = lists.map((l) => {
    const s = Buffer.from(l.join(','))
    const n = Buffer.alloc(4)
    n.writeUInt32BE(s.length)
    return Buffer.concat([n, s])
  })
  return Buffer.concat([Buffer.from([20]), Buffer.alloc(16, 7), ...parts, Buffer.alloc(5)])
}

test('KEXINIT: ten name-lists parsed, both directions unioned', () => {
  const k = parseKexInit(
    kexPayload([
      ['curve25519-sha256'],
      ['ssh-ed25519'],
      ['aes128-ctr'],
      ['aes256-ctr', 'aes128-ctr'],
      ['hmac-sha2-256'],
      ['hmac-sha2-256'],
      ['none'],
      ['none'],
      [],
      [],
    ]),
  )
  assert.deepEqual(k.kex, ['curve25519-sha256'])
  assert.deepEqual(k.hostKey, ['ssh-ed25519'])
  assert.deepEqual(k.ciphers, ['aes128-ctr', 'aes256-ctr'])
  assert.deepEqual(k.macs, ['hmac-sha2-256'])
  assert.throws(() => parseKexInit(Buffer.from([21, 0, 0])), /expected SSH_MSG_KEXINIT/)
  assert.throws(() => parseKexInit(kexPayload([['a']]).subarray(0, 30)), /truncated/)
})

test('weak SSH algorithms: RFC 9142 kex, RC4/3DES/CBC ciphers, MD5 and 96-bit MACs; modern defaults pass', () => {
  const v = SSH_ALGORITHMS.vulnerable
  const vk: KexInit = { kex: v.kex, hostKey: v.hostKey, ciphers: v.ciphers, macs: v.macs, compression: [] }
  assert.deepEqual(weakKex(vk), ['diffie-hellman-group-exchange-sha1', 'diffie-hellman-group1-sha1'])
  assert.deepEqual(weakCiphers(vk), ['aes128-cbc', '3des-cbc', 'arcfour256', 'arcfour'])
  assert.deepEqual(weakMacs(vk), ['hmac-md5', 'hmac-sha1-96', 'hmac-md5-96'])
  const h = SSH_ALGORITHMS.healthy
  const hk: KexInit = { kex: h.kex, hostKey: h.hostKey, ciphers: h.ciphers, macs: h.macs, compression: [] }
  assert.deepEqual([...weakKex(hk), ...weakCiphers(hk), ...weakMacs(hk)], [])
  const more: KexInit = {
    kex: ['gss-gex-sha1-toWM5Slw5Ew8Mqkay+al2g==', 'rsa1024-sha1'],
    hostKey: [],
    ciphers: ['rijndael-cbc@lysator.liu.se', 'blowfish-cbc', 'none', 'chacha20-poly1305@openssh.com'],
    macs: ['hmac-md5-etm@openssh.com', 'hmac-sha1-96-etm@openssh.com', 'hmac-sha1'],
    compression: [],
  }
  assert.equal(weakKex(more).length, 2)
  assert.deepEqual(weakCiphers(more), ['rijndael-cbc@lysator.liu.se', 'blowfish-cbc', 'none'])
  assert.deepEqual(weakMacs(more), ['hmac-md5-etm@openssh.com', 'hmac-sha1-96-etm@openssh.com'])
})

test('BSON: {hello: 1} encodes to the specified bytes and documents round-trip', () => {
  assert.equal(encodeBson({ hello: 1 }).toString('hex'), '1000000010' + Buffer.from('hello').toString('hex') + '000100000000')
  const doc = { s: 'x', i: 42, d: 1.5, b: true, n: null, o: { a: 'b' }, l: [1, 'two'] }
  assert.deepEqual(decodeBson(encodeBson(doc)), doc)
  assert.throws(() => decodeBson(encodeBson(doc).subarray(0, 10)), /truncated/)
})

test('MongoDB messages: OP_QUERY and OP_MSG framing, OP_REPLY and OP_MSG bodies', () => {
  const q = opQuery('admin.$cmd', { isMaster: 1 })
  assert.equal(q.readInt32LE(0), q.length)
  assert.equal(q.readInt32LE(12), OP_QUERY)
  assert.equal(q.toString('latin1', 20, 30), 'admin.$cmd')
  const m = opMsg({ listDatabases: 1, $db: 'admin' })
  assert.equal(m.readInt32LE(12), OP_MSG)
  assert.deepEqual(decodeBson(m, 21), { listDatabases: 1, $db: 'admin' })
  const doc = encodeBson({ ok: 1, databases: [{ name: 'admin' }] })
  const reply = Buffer.concat([Buffer.alloc(16), Buffer.alloc(20), doc])
  reply.writeInt32LE(reply.length, 0)
  reply.writeInt32LE(1, 12)
  assert.deepEqual(replyDocument(reply), { ok: 1, databases: [{ name: 'admin' }] })
  const msg = Buffer.concat([Buffer.alloc(16), Buffer.alloc(5), doc])
  msg.writeInt32LE(OP_MSG, 12)
  assert.equal(replyDocument(msg).ok, 1)
})

test('Elasticsearch root document is recognised; other JSON and errors are not', () => {
  const es = JSON.stringify({ name: 'n', cluster_name: 'c', version: { number: '8.15.0' }, tagline: 'You Know, for Search' })
  assert.deepEqual(elasticInfo(200, es), { clusterName: 'c', version: '8.15.0', name: 'n' })
  assert.equal(elasticInfo(401, es), null)
  assert.equal(elasticInfo(200, '{"status":"ok"}'), null)
  assert.equal(elasticInfo(200, '<html>'), null)
  assert.equal(elasticInfo(200, JSON.stringify({ cluster_name: 'c', version: { number: '1' }, tagline: 'something else' })), null)
  assert.equal(httpBase('::1', 9200, false), 'http://[::1]:9200')
  assert.equal(httpBase('127.0.0.1', 443, true), 'https://127.0.0.1:443')
})

test('which check a port gets: detection first, then the banner, then the usual port', () => {
  const d = (service: string | null, banner: string | null = null, tls = false) => ({ service, banner, tls, product: null, version: null })
  assert.equal(kindOf(2222, d('ssh')), 'ssh')
  assert.equal(kindOf(9200, d('http')), 'elasticsearch')
  assert.equal(kindOf(8080, d('http-alt')), 'http')
  assert.equal(kindOf(443, d('https', null, true)), 'http')
  assert.equal(kindOf(2121, d(null, '220 (vsFTPd 3.0.5)')), 'ftp')
  assert.equal(kindOf(2525, d(null, '220 mx ESMTP Postfix')), 'smtp')
  assert.equal(kindOf(6379, d(null)), 'redis')
  assert.equal(kindOf(3306, d('mysql')), null)
  assert.equal(kindOf(40000, d(null)), null)
})

test('probes tell another protocol from a refusal (loopback bed on 127.0.6.13)', async () => {
  const bed = await startVulnServices('127.0.6.13', {
    ports: { ftp: 0, ssh: 0, smtp: 0, http: 0, redis: 0, memcached: 0, elasticsearch: 0, mongodb: 0 },
    tls: false,
  })
  // A SASL-only memcached: closes text-protocol connections without a word.
  const closer = net.createServer((s) => s.once('data', () => s.destroy()))
  await new Promise<void>((r) => closer.listen(0, '127.0.6.13', () => r()))
  const egress = createDirectEgress()
  const at = (port: number) => ({ net: egress, host: '127.0.6.13', port, signal: new AbortController().signal, timeoutMs: 2000 })
  try {
    await assert.rejects(probeRedis(at(bed.ports.ftp!)), NotThisProtocol)
    await assert.rejects(probeFtpAnonymous(at(bed.ports.ssh!)), NotThisProtocol)
    await assert.rejects(probeMongo(at(bed.ports.smtp!)), NotThisProtocol)
    const m = await probeMemcached(at((closer.address() as { port: number }).port))
    assert.equal(m.unauthenticated, false)
    const aborted = new AbortController()
    aborted.abort()
    await assert.rejects(probeRedis({ ...at(bed.ports.redis!), signal: aborted.signal }))
  } finally {
    closer.close()
    await bed.close()
    await egress.close()
  }
})
