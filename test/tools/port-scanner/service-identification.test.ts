// Service identification of the misses nmap -sV gets right: DNS over TCP asked version.bind (BIND and
// its version), Jetty's version inside "Jetty(…)", Elasticsearch's JSON banner, Tomcat behind
// Apache-Coyote (its error page), and a port that accepts and closes at once (tcpwrapped). Each
// open port's row carries the product's CPE and the probe that proved it. Bed on 127.0.36.30.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { runTool } from '../../helpers/tool-harness.js'
import { portScanner } from '../../../src/tools/port-scanner/run.js'
import { identify } from '../../../src/tools/lib/services/banners.js'
import { cpeOf } from '../../../src/tools/lib/services/products.js'

const HOST = '127.0.36.30'
const servers: net.Server[] = []
const ports: Record<string, number> = {}

const http = (headers: string, body: string) =>
  `HTTP/1.1 200 OK\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
const ES_BODY =
  '{\n  "name" : "node-1",\n  "cluster_name" : "elasticsearch",\n  "version" : {\n    "number" : "6.8.23",\n    "build_flavor" : "default",\n    "lucene_version" : "7.7.3"\n  },\n  "tagline" : "You Know, for Search"\n}\n'
const TOMCAT_404 =
  '<!doctype html><html lang="en"><head><title>HTTP Status 404 – Not Found</title></head><body><h1>HTTP Status 404 – Not Found</h1><hr class="line" /><h3>Apache Tomcat/9.0.31</h3></body></html>'

/** BIND's answer to the CHAOS TXT version.bind query over TCP: the question echoed, one TXT answer. */
function dnsAnswer(query: Buffer, txt: string): Buffer {
  const q = query.subarray(2)
  const question = q.subarray(12)
  const t = Buffer.from(txt)
  const answer = Buffer.concat([Buffer.from([0xc0, 0x0c, 0, 16, 0, 3, 0, 0, 0, 0]), Buffer.from([0, t.length + 1, t.length]), t])
  const header = Buffer.from([q[0]!, q[1]!, 0x84, 0x00, 0, 1, 0, 1, 0, 0, 0, 0])
  const msg = Buffer.concat([header, question, answer])
  const len = Buffer.alloc(2)
  len.writeUInt16BE(msg.length)
  return Buffer.concat([len, msg])
}

async function listen(name: string, port: number, onConn: (s: net.Socket) => void) {
  const srv = net.createServer(onConn)
  await new Promise<void>((r) => srv.listen(port, HOST, () => r()))
  servers.push(srv)
  ports[name] = (srv.address() as net.AddressInfo).port
}
const httpServer = (reply: (req: string) => string) => (s: net.Socket) => {
  s.on('error', () => {})
  s.once('data', (d) => s.end(reply(d.toString('latin1'))))
}

before(async () => {
  await listen('dns', 53, (s) => {
    s.on('error', () => {})
    s.once('data', (d) => s.end(dnsAnswer(d, '9.9.4-RedHat-9.9.4-61.el7')))
  })
  await listen(
    'jetty',
    0,
    httpServer(() => http('Server: Jetty(9.4.43.v20210629)\r\nContent-Type: text/html\r\n', '<html>ok</html>')),
  )
  await listen(
    'elasticsearch',
    0,
    httpServer(() => http('content-type: application/json; charset=UTF-8\r\n', ES_BODY)),
  )
  await listen(
    'tomcat',
    0,
    httpServer(() =>
      http('Server: Apache-Coyote/1.1\r\nContent-Type: text/html;charset=utf-8\r\n', TOMCAT_404).replace('200 OK', '404 Not Found'),
    ),
  )
  await listen('tcpwrapped', 0, (s) => s.destroy())
  await listen('ssh', 0, (s) => {
    s.on('error', () => {})
    s.write('SSH-2.0-dropbear_2019.78\r\n')
  })
})
after(async () => {
  for (const s of servers) await new Promise((r) => s.close(r))
})

test('named like nmap -sV names them: product, version, CPE and the probe that proved it', async () => {
  const list = Object.values(ports).join(',')
  const started = performance.now()
  const r = await runTool(portScanner, { target: HOST, params: { ports: list, timeout_ms: 500 } })
  assert.equal(r.error, undefined, r.error?.stack)
  const rows = new Map((r.output.ports as any[]).map((p) => [p.port, p]))
  const row = (name: string) => rows.get(ports[name])
  assert.deepEqual(
    [row('dns').service, row('dns').product, row('dns').version, row('dns').cpe, row('dns').probe],
    ['domain', 'ISC BIND', '9.9.4', 'cpe:/a:isc:bind:9.9.4', 'dns-version-bind'],
  )
  assert.deepEqual(
    [row('jetty').service, row('jetty').product, row('jetty').version, row('jetty').cpe],
    ['http', 'Jetty', '9.4.43', 'cpe:/a:eclipse:jetty:9.4.43'],
  )
  assert.deepEqual(
    [row('elasticsearch').product, row('elasticsearch').version, row('elasticsearch').cpe],
    ['Elasticsearch', '6.8.23', 'cpe:/a:elastic:elasticsearch:6.8.23'],
  )
  assert.deepEqual(
    [row('tomcat').product, row('tomcat').version, row('tomcat').cpe],
    ['Apache Tomcat', '9.0.31', 'cpe:/a:apache:tomcat:9.0.31'],
  )
  assert.equal(row('tcpwrapped').service, 'tcpwrapped')
  assert.deepEqual(
    [row('ssh').service, row('ssh').product, row('ssh').version, row('ssh').probe, row('ssh').cpe],
    ['ssh', 'Dropbear sshd', '2019.78', 'null', 'cpe:/a:dropbear_ssh_project:dropbear_ssh:2019.78'],
  )
  // Versions now reach the catalogue: Elasticsearch 6.x and BIND 9.9 are past end of life.
  const ids = new Set(r.findings.map((f) => f.check.id))
  for (const id of ['eol.elasticsearch', 'eol.bind']) assert.ok(ids.has(id), `${id}: ${[...ids].join(', ')}`)
  assert.ok(performance.now() - started < 20000)
})

test('pure recognisers', () => {
  assert.equal(identify('http-get', Buffer.from(http('Server: Werkzeug/2.0.1 Python/3.9.5\r\n', 'hi')))?.product, 'Werkzeug')
  assert.equal(identify('http-get', Buffer.from(http('Server: Jetty(10.0.7)\r\n', 'hi')))?.version, '10.0.7')
  assert.equal(identify('dns-version-bind', Buffer.from('not dns at all')), null)
  assert.equal(cpeOf('OpenSSH', '8.9p1'), 'cpe:/a:openbsd:openssh:8.9p1')
  assert.equal(cpeOf('Unknown thing', '1.0'), null)
})
