// Pure parts of the TCP Port Scanner: the ports parameter, banner recognition on recorded replies,
// the risk rules, and the catalogue's shape. No network.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { parsePortPlan } from '../../../src/toolkit/ports.js'
import { TCP_PORTS, TOP_100 } from '../../../src/tools/lib/ports/top-ports.js'
import { identify, looksLikeTls, printable, splitProductToken } from '../../../src/tools/lib/services/banners.js'
import { PROBES, probeOrder } from '../../../src/tools/lib/services/probes.js'
import { hitsOf, RISK_RULES, type OpenPort } from '../../../src/tools/port-scanner/detect/risk-rules.js'
import { portScanner } from '../../../src/tools/port-scanner/run.js'
import { portScannerChecks } from '../../../src/tools/port-scanner/checks.js'
import { resolveToolParams } from '../../../src/toolkit/params.js'
import { wire } from '../../testbed/tcp-services.js'

const parsePorts = (spec: string) => [...parsePortPlan(spec, TCP_PORTS).ports]

describe('parsePorts', () => {
  test('named lists: top100 and top1000 are unique, ordered by usage, within range', () => {
    assert.deepEqual(parsePorts('top100'), [...TOP_100])
    assert.equal(new Set(parsePorts('top100')).size, 100)
    const top1000 = parsePorts('top1000')
    assert.equal(top1000.length, 1000)
    assert.equal(new Set(top1000).size, 1000)
    assert.deepEqual(top1000.slice(0, 100), parsePorts('top100'))
    assert.ok(top1000.every((p) => Number.isInteger(p) && p >= 1 && p <= 65535))
    assert.deepEqual(top1000.slice(0, 3), [80, 443, 22])
    for (const p of [21, 23, 25, 3306, 3389, 5432, 6379, 8080, 27017]) assert.ok(TOP_100.includes(p), `top100 has ${p}`)
  })

  test('"all" is every port 1..65535 in order', () => {
    const all = parsePorts('all')
    assert.equal(all.length, 65535)
    assert.equal(all[0], 1)
    assert.equal(all[65534], 65535)
  })

  test('lists and ranges keep the given order and drop duplicates', () => {
    const p = parsePorts('22,80,8000-8100')
    assert.equal(p.length, 103)
    assert.deepEqual(p.slice(0, 4), [22, 80, 8000, 8001])
    assert.equal(p.at(-1), 8100)
    assert.deepEqual(parsePorts(' 443 , 80, 443, 79-81 '), [443, 80, 79, 81])
    assert.deepEqual(parsePorts('1,65535'), [1, 65535])
    assert.deepEqual(parsePorts('TOP100'), [...TOP_100])
  })

  test('bad specs fail with a message naming the problem', () => {
    assert.throws(() => parsePorts('0'), /0 is out of range \(ports are 1\.\.65535\)/)
    assert.throws(() => parsePorts('22,65536'), /65536 is out of range/)
    assert.throws(() => parsePorts('100-90'), /range 100-90 ends before it starts/)
    assert.throws(() => parsePorts('22,ssh'), /"ssh" is not a port or a range/)
    assert.throws(() => parsePorts('22,,80'), /"" is not a port or a range/)
    assert.throws(() => parsePorts(''), /ports is empty/)
  })

  test('the params schema applies defaults and rejects bad members before a scan is queued', () => {
    const ok = resolveToolParams(portScanner.params, {})
    assert.deepEqual(ok, { ok: true, value: { ports: 'top1000', service_detection: true, scan_method: 'auto' } })
    assert.equal(resolveToolParams(portScanner.params, { scan_method: 'connect' }).ok, true)
    const method = resolveToolParams(portScanner.params, { scan_method: 'stealth' })
    assert.equal(method.ok, false)
    assert.match((method as { message: string }).message, /tool_params\.scan_method/)
    assert.equal(resolveToolParams(portScanner.params, { ports: '22,80,8000-8100', timeout_ms: 500, concurrency: 200 }).ok, true)
    const bad = resolveToolParams(portScanner.params, { ports: 'everything' })
    assert.equal(bad.ok, false)
    assert.match((bad as { message: string }).message, /tool_params\.ports/)
    assert.equal(resolveToolParams(portScanner.params, { extra: 1 }).ok, false)
    assert.equal(resolveToolParams(portScanner.params, { concurrency: 0 }).ok, false)
    assert.equal(resolveToolParams(portScanner.params, { timeout_ms: 1.5 }).ok, false)
  })
})

describe('banner recognition (recorded replies)', () => {
  const id = (probe: string, reply: string | Buffer) => identify(probe, typeof reply === 'string' ? Buffer.from(reply, 'latin1') : reply)

  test('ssh: OpenSSH and Dropbear with versions', () => {
    assert.deepEqual(id('null', 'SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6\r\n'), {
      service: 'ssh',
      product: 'OpenSSH',
      version: '8.9p1',
      banner: 'SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6',
      facts: {},
    })
    const d = id('null', 'SSH-2.0-dropbear_2020.81\r\n')
    assert.equal(d?.product, 'Dropbear sshd')
    assert.equal(d?.version, '2020.81')
  })

  test('http: the Server header gives product and version', () => {
    const apache = id(
      'http-get',
      'HTTP/1.1 200 OK\r\nDate: Sat, 21 Nov 2026 01:00:00 GMT\r\nServer: Apache/2.4.49 (Unix)\r\nContent-Length: 0\r\n\r\n',
    )
    assert.equal(apache?.service, 'http')
    assert.equal(apache?.product, 'Apache')
    assert.equal(apache?.version, '2.4.49')
    assert.equal(apache?.banner, 'HTTP/1.1 200 OK | Server: Apache/2.4.49 (Unix)')
    const iis = id('http-get', 'HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nServer: Microsoft-IIS/10.0\r\n\r\n')
    assert.deepEqual([iis?.product, iis?.version], ['Microsoft-IIS', '10.0'])
    const docker = id(
      'http-get',
      'HTTP/1.1 404 Not Found\r\nApi-Version: 1.43\r\nContent-Type: application/json\r\nOstype: linux\r\nServer: Docker/24.0.7 (linux)\r\n\r\n',
    )
    assert.deepEqual([docker?.product, docker?.version], ['Docker', '24.0.7'])
    const bare = id('http-get', 'HTTP/1.0 302 Found\r\nLocation: /login\r\n\r\n')
    assert.deepEqual([bare?.service, bare?.product, bare?.version], ['http', null, null])
  })

  test('ftp and smtp 220 greetings are told apart, with products', () => {
    assert.deepEqual(id('null', '220 (vsFTPd 3.0.3)\r\n'), {
      service: 'ftp',
      product: 'vsftpd',
      version: '3.0.3',
      banner: '220 (vsFTPd 3.0.3)',
      facts: {},
    })
    const pro = id('null', '220 ProFTPD 1.3.5e Server (Debian) [::ffff:10.0.0.5]\r\n')
    assert.deepEqual([pro?.service, pro?.product, pro?.version], ['ftp', 'ProFTPD', '1.3.5e'])
    const fz = id(
      'null',
      '220-FileZilla Server 0.9.60 beta\r\n220-written by Tim Kosse\r\n220 Please visit https://filezilla-project.org/\r\n',
    )
    assert.deepEqual([fz?.service, fz?.product, fz?.version], ['ftp', 'FileZilla Server', '0.9.60'])
    const exim = id('null', '220 mx.example.com ESMTP Exim 4.94.2 Ubuntu Sat, 21 Nov 2026 01:00:00 +0000\r\n')
    assert.deepEqual([exim?.service, exim?.product, exim?.version], ['smtp', 'Exim smtpd', '4.94.2'])
    const postfix = id('null', '220 mail.example.org ESMTP Postfix (Debian/GNU)\r\n')
    assert.deepEqual([postfix?.service, postfix?.product], ['smtp', 'Postfix smtpd'])
  })

  test('pop3 and imap greetings', () => {
    const pop = id('null', '+OK Dovecot (Ubuntu) ready.\r\n')
    assert.deepEqual([pop?.service, pop?.product], ['pop3', 'Dovecot'])
    const imap = id(
      'null',
      '* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot ready.\r\n',
    )
    assert.deepEqual([imap?.service, imap?.product, imap?.facts], ['imap', 'Dovecot', { starttls: true }])
  })

  test('redis: INFO without auth, NOAUTH, protected mode', () => {
    const info = '# Server\r\nredis_version:7.2.4\r\nredis_git_sha1:00000000\r\nredis_mode:standalone\r\n'
    const open = id('redis-info', `$${info.length}\r\n${info}\r\n`)
    assert.deepEqual(
      [open?.service, open?.product, open?.version, open?.facts],
      ['redis', 'Redis key-value store', '7.2.4', { unauthenticated: true }],
    )
    const auth = id('redis-info', '-NOAUTH Authentication required.\r\n')
    assert.deepEqual([auth?.service, auth?.version, auth?.facts], ['redis', null, { authRequired: true }])
    const denied = id('redis-info', '-DENIED Redis is running in protected mode because protected mode is enabled\r\n')
    assert.deepEqual(denied?.facts, { refused: true })
    // The redis rule only reads replies to its own probe.
    assert.equal(id('null', '-NOAUTH Authentication required.\r\n'), null)
  })

  test('mysql and mariadb handshakes, and the "not allowed to connect" error packet', () => {
    const my = id('null', wire.mysqlHandshake('8.0.36-0ubuntu0.22.04.1'))
    assert.deepEqual([my?.service, my?.product, my?.version], ['mysql', 'MySQL', '8.0.36-0ubuntu0.22.04.1'])
    const maria = id('null', wire.mysqlHandshake('5.5.5-10.6.12-MariaDB-0ubuntu0.22.04.1'))
    assert.deepEqual([maria?.service, maria?.product, maria?.version], ['mysql', 'MariaDB', '10.6.12'])
    const msg = "Host '172.17.0.1' is not allowed to connect to this MySQL server"
    const err = Buffer.concat([Buffer.from([msg.length + 3, 0, 0, 0, 0xff, 0x6a, 0x04]), Buffer.from(msg, 'latin1')])
    const refused = id('null', err)
    assert.deepEqual([refused?.service, refused?.facts], ['mysql', { refused: true }])
  })

  test('postgresql: password request, SCRAM, trust with server_version, FATAL error', () => {
    const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])
    const md5 = id('postgres-startup', wire.pgMessage('R', Buffer.concat([u32(5), Buffer.from([1, 2, 3, 4])])))
    assert.deepEqual([md5?.service, md5?.banner, md5?.facts], ['postgresql', 'authentication: MD5 password', { authRequired: true }])
    const scram = id('postgres-startup', wire.pgMessage('R', Buffer.concat([u32(10), Buffer.from('SCRAM-SHA-256\0\0', 'latin1')])))
    assert.equal(scram?.banner, 'authentication: SASL')
    const trust = id(
      'postgres-startup',
      Buffer.concat([
        wire.pgMessage('R', u32(0)),
        wire.pgMessage('S', Buffer.from('server_version\x0016.2 (Debian 16.2-1.pgdg120+2)\0', 'latin1')),
      ]),
    )
    // The version alone (it makes the CPE); the distribution's build goes to info.
    assert.deepEqual([trust?.version, trust?.info, trust?.facts], ['16.2', 'Debian 16.2-1.pgdg120+2', { unauthenticated: true }])
    const fatal = id(
      'postgres-startup',
      wire.pgMessage(
        'E',
        Buffer.from(
          'SFATAL\0VFATAL\0C28000\0Mno pg_hba.conf entry for host "10.0.0.5", user "postgres", database "postgres", no encryption\0\0',
          'latin1',
        ),
      ),
    )
    assert.equal(fatal?.service, 'postgresql')
    assert.match(fatal?.banner ?? '', /no pg_hba\.conf entry/)
  })

  test('mongodb isMaster reply, rdp connection confirm, telnet negotiation, vnc, memcached', () => {
    const mongo = id('mongodb-ismaster', wire.mongoIsMasterReply(21))
    assert.deepEqual([mongo?.service, mongo?.product, mongo?.version], ['mongodb', 'MongoDB', '7.0'])
    const rdp = id('rdp-x224', Buffer.from([3, 0, 0, 0x13, 0x0e, 0xd0, 0, 0, 0x12, 0x34, 0, 2, 0x1f, 8, 0, 2, 0, 0, 0]))
    assert.deepEqual([rdp?.service, rdp?.banner], ['rdp', 'X.224 Connection Confirm, selected protocol 2'])
    const telnet = id(
      'null',
      Buffer.concat([Buffer.from([255, 253, 24, 255, 253, 32, 255, 251, 1]), Buffer.from('\r\nrouter login: ', 'latin1')]),
    )
    assert.deepEqual([telnet?.service, telnet?.banner], ['telnet', 'router login:'])
    assert.deepEqual([id('null', 'RFB 003.008\n')?.service, id('null', 'RFB 003.008\n')?.version], ['vnc', '3.8'])
    const mc = id('memcached-stats', 'STAT pid 1234\r\nSTAT uptime 55\r\nSTAT version 1.6.14\r\nEND\r\n')
    assert.deepEqual([mc?.service, mc?.version], ['memcached', '1.6.14'])
  })

  test('unknown bytes are not recognised; TLS records are spotted; banners are printable', () => {
    assert.equal(id('null', 'hello there\r\n'), null)
    assert.equal(id('http-get', Buffer.alloc(0)), null)
    assert.equal(looksLikeTls(Buffer.from([0x15, 3, 1, 0, 2, 2, 0x46])), true)
    assert.equal(looksLikeTls(Buffer.from('HTTP/1.1 400', 'latin1')), false)
    assert.equal(printable(Buffer.from([0x41, 0x00, 0x01, 0x42, 0x0d, 0x0a, 0x43])), 'A..B')
    assert.equal(printable('x'.repeat(300)).length, 200)
    assert.deepEqual(splitProductToken('nginx/1.18.0 (Ubuntu)'), { product: 'nginx', version: '1.18.0' })
    assert.deepEqual(splitProductToken('cloudflare'), { product: 'cloudflare', version: null })
  })

  test('probes are data: each port gets every probe once, its hinted ones first; port-only probes only on their ports', () => {
    assert.deepEqual(probeOrder(6379).map((p) => p.id)[0], 'redis-info')
    assert.deepEqual(probeOrder(443).map((p) => p.id)[0], 'tls')
    assert.deepEqual(probeOrder(22).map((p) => p.id)[0], 'null')
    const general = PROBES.filter((p) => !p.onlyOnPorts).length
    for (const port of [1, 22, 443, 5432, 40000]) assert.equal(new Set(probeOrder(port)).size, general)
    assert.deepEqual(probeOrder(53).map((p) => p.id)[0], 'dns-version-bind')
    assert.equal(new Set(probeOrder(53)).size, general + 1)
  })
})

describe('risk rules', () => {
  const port = (o: Partial<OpenPort> & { port: number }): OpenPort => ({
    service: null,
    product: null,
    version: null,
    banner: null,
    tls: false,
    facts: {},
    identified: true,
    ...o,
  })
  const failing: Record<string, OpenPort> = {
    'tcp.exposure.telnet': port({ port: 23, service: 'telnet' }),
    'tcp.exposure.ftp-cleartext': port({ port: 21, service: 'ftp' }),
    'tcp.exposure.ftp-anonymous': port({ port: 21, service: 'ftp', ftpAnonymous: true }),
    'tcp.exposure.redis-unauthenticated': port({ port: 6379, service: 'redis', facts: { unauthenticated: true } }),
    'tcp.exposure.postgresql-no-password': port({ port: 5432, service: 'postgresql', facts: { unauthenticated: true } }),
    'tcp.exposure.database': port({ port: 3306, service: 'mysql' }),
    'tcp.exposure.rdp': port({ port: 3389, service: 'rdp' }),
    'tcp.exposure.vnc': port({ port: 5900, service: 'vnc' }),
    'tcp.exposure.smb': port({ port: 445, service: 'microsoft-ds', identified: false }),
    'tcp.exposure.docker-api': port({ port: 2375, service: 'http', product: 'Docker', version: '24.0.7' }),
    'backdoor.hostile-service': port({ port: 1524, service: null, banner: 'root@metasploitable:/# ' }),
  }
  const passing: Record<string, OpenPort> = {
    'tcp.exposure.telnet': port({ port: 22, service: 'ssh' }),
    'tcp.exposure.ftp-cleartext': port({ port: 990, service: 'ftps', tls: true }),
    'tcp.exposure.ftp-anonymous': port({ port: 21, service: 'ftp', ftpAnonymous: false }),
    'tcp.exposure.redis-unauthenticated': port({ port: 6379, service: 'redis', facts: { authRequired: true } }),
    'tcp.exposure.postgresql-no-password': port({ port: 5432, service: 'postgresql', facts: { authRequired: true } }),
    'tcp.exposure.database': port({ port: 80, service: 'http' }),
    'tcp.exposure.rdp': port({ port: 443, service: 'https' }),
    'tcp.exposure.vnc': port({ port: 22, service: 'ssh' }),
    'tcp.exposure.smb': port({ port: 139, service: 'netbios-ssn' }),
    'tcp.exposure.docker-api': port({ port: 80, service: 'http', product: 'nginx' }),
    'backdoor.hostile-service': port({ port: 22, service: 'ssh', banner: 'SSH-2.0-OpenSSH_9.6' }),
  }

  for (const rule of RISK_RULES) {
    test(`${rule.check.id} fails on a matching port and passes otherwise`, () => {
      const bad = failing[rule.check.id]
      const good = passing[rule.check.id]
      assert.ok(bad && good, `cases exist for ${rule.check.id}`)
      const hits = hitsOf(rule, [bad, good])
      assert.equal(hits.length, 1)
      assert.equal(hits[0].port, bad.port)
      assert.equal(hits[0].check, rule.check)
      assert.equal(hits[0].evidence.type, 'table')
      assert.equal(hitsOf(rule, [good]).length, 0)
    })
  }

  test('a service name guessed from the port number is not "confirmed"', () => {
    const rule = RISK_RULES.find((r) => r.check.id === 'tcp.exposure.smb')!
    assert.equal(hitsOf(rule, [failing['tcp.exposure.smb']])[0].confirmed, false)
  })
})

describe('ports catalogue', () => {
  test('ids are unique and stable, CWE/OWASP/references well formed, open_port is info', () => {
    const ids = portScannerChecks.map((c) => c.id)
    assert.equal(new Set(ids).size, ids.length)
    assert.ok(ids.includes('open_port'))
    for (const c of portScannerChecks) {
      if (c.id !== 'open_port') assert.match(c.id, /^tcp\.exposure\.[a-z0-9-]+$/)
      for (const w of c.cwe) assert.match(w, /^CWE-\d+$/)
      for (const [year, v] of Object.entries(c.owasp)) assert.match(v as string, new RegExp(`^A\\d{1,2}:${year}-`))
      assert.ok(c.references.length > 0 && c.references.every((r) => r.startsWith('https://')))
      assert.ok(c.description && c.impact && c.recommendation)
    }
    assert.equal(portScannerChecks.find((c) => c.id === 'open_port')!.risk, 'info')
    // Every risk rule reports a check of this catalogue (or the shared hostile-service check of
    // tools/lib/services), and every risk check has a rule.
    const SHARED = ['backdoor.hostile-service']
    assert.deepEqual(
      RISK_RULES.map((r) => r.check.id)
        .filter((i) => !SHARED.includes(i))
        .sort(),
      ids.filter((i) => i !== 'open_port').sort(),
    )
  })
})
