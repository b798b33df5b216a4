// Every tool started through the API, as a user would, against its loopback test bed: the scan
// finishes and its findings, output, tests and raw log come back through the API.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startTcpServices } from '../testbed/tcp-services.js'
import { startWeakWeb, startHardenedWeb, WEAK_TRUTH } from '../testbed/weak-web.js'
import { startFuzzSite, PLANTED } from '../testbed/fuzz-site.js'
import { startUdpServices } from '../testbed/udp-services.js'
import { startVulnServices } from '../testbed/vuln-services.js'
import { startDnsServer } from '../testbed/dns-server.js'

// This file's own loopback addresses.
const A = {
  tcp: '127.0.11.2',
  web: '127.0.11.3',
  hard: '127.0.11.4',
  fuzz: '127.0.11.5',
  udp: '127.0.11.6',
  vuln: '127.0.11.7',
  dns: '127.0.11.8',
}

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w.close())

async function scan(tool_id: number, target_name: string, tool_params: Record<string, unknown> = {}) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id, target_name, tool_params } })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id
  const s = await waitForScan(w, id, isTerminal, 90000)
  const output = (await w.req('GET', `/api/v2/scans/${id}/output`)).json().data
  const tests = (await w.req('GET', `/api/v2/scans/${id}/tests`)).json().data
  const raw = (await w.req('GET', `/api/v2/scans/${id}/raw`)).json().data
  const ids = new Set<string>(output.output_data.findings.map((f: any) => f.vuln_id))
  assert.ok(tests.length > 0 && raw.length > 0, 'tests and raw log are recorded')
  assert.equal(s.num_finished_tests, s.num_tests)
  return { s, output, ids, tests }
}

describe('every tool through the API', { concurrency: false }, () => {
  test('70 TCP port scanner: open ports with services, open_port and exposure findings', async () => {
    const bed = await startTcpServices(A.tcp, [
      { service: 'ssh', port: 0 },
      { service: 'http', port: 0 },
      { service: 'telnet', port: 0 },
      { service: 'redis', port: 0, auth: false },
    ])
    try {
      const ports = bed.ports.map((p) => p.port)
      const { s, output, ids } = await scan(70, A.tcp, { ports: ports.join(',') })
      assert.equal(s.status_name, 'finished', s.status_message)
      assert.deepEqual(output.output_data.ports.map((p: any) => p.port).sort(), [...ports].sort())
      const services = Object.fromEntries(output.output_data.ports.map((p: any) => [p.port, p.service]))
      for (const p of bed.ports) assert.equal(services[p.port], p.service, `port ${p.port}`)
      for (const id of ['open_port', 'tcp.exposure.telnet', 'tcp.exposure.redis-unauthenticated']) assert.ok(ids.has(id), id)
      const open = output.output_data.findings.filter((f: any) => f.vuln_id === 'open_port')
      assert.equal(open.length, ports.length)
      assert.ok(open.every((f: any) => f.protocol === 'tcp' && Number.isInteger(f.port) && f.risk_level === 0))
    } finally {
      await bed.close()
    }
  })

  test('170 website scanner: light scan of the weak app finds every planted light weakness; the hardened twin nothing above info', async () => {
    const weak = await startWeakWeb(A.web)
    const hard = await startHardenedWeb(A.hard)
    try {
      const { s, output, ids } = await scan(170, weak.httpUrl, { scan_type: 'light' })
      assert.equal(s.status_name, 'finished', s.status_message)
      for (const id of WEAK_TRUTH.lightHttp) assert.ok(ids.has(id), `missing ${id}`)
      const vuln = output.output_data.findings.find((f: any) => f.vuln_id === 'cve.apache-httpd-path-traversal')
      assert.ok(vuln.cve.length > 0 && vuln.in_cisa_catalog === true, 'the Apache 2.4.49 finding carries its CVEs and the KEV flag')
      assert.equal(vuln.owasp.owasp_2021.startsWith('A06:2021'), true)
      const h = await scan(170, hard.httpsUrl, { scan_type: 'light' })
      assert.equal(h.s.status_name, 'finished')
      assert.deepEqual(
        h.output.output_data.findings.filter((f: any) => f.risk_level > 0).map((f: any) => f.vuln_id),
        [],
      )
    } finally {
      await weak.close()
      await hard.close()
    }
  })

  test('90 URL fuzzer: every planted path is found', async () => {
    const site = await startFuzzSite({ host: A.fuzz })
    try {
      const { s, output, ids } = await scan(90, site.url, { wordlist: 'small' })
      assert.equal(s.status_name, 'finished', s.status_message)
      const found = new Set(output.output_data.urls.map((u: any) => new URL(u.url).pathname.slice(1)))
      for (const p of Object.keys(PLANTED)) assert.ok(found.has(p), `missing ${p}`)
      const missingKinds = [...new Set(Object.values(PLANTED).map((p) => p.kind ?? 'fuzzer.discovery.path'))].filter((k) => !ids.has(k))
      assert.deepEqual(missingKinds, [], 'every kind of planted path has its finding')
    } finally {
      await site.close()
    }
  })

  test('450 TLS scanner: a self-signed certificate on the weak app is reported with protocols and certificates', async () => {
    const weak = await startWeakWeb(A.web)
    try {
      const { s, output, ids } = await scan(450, A.web, { port: weak.httpsPort })
      assert.equal(s.status_name, 'finished', s.status_message)
      assert.ok(ids.has('tls.cert.self-signed'), [...ids].join(','))
      assert.ok(output.output_data.protocols.some((p: any) => p.accepted))
      assert.ok(output.output_data.certificates.length >= 1)
    } finally {
      await weak.close()
    }
  })

  test('80 UDP scanner: amplification-prone services are found', async () => {
    const bed = await startUdpServices(A.udp, 'vulnerable')
    try {
      const { s, output, ids } = await scan(80, A.udp, { ports: bed.ports.join(',') })
      assert.equal(s.status_name, 'finished', s.status_message)
      for (const t of bed.truth) {
        const row = output.output_data.ports.find((p: any) => p.port === t.port)
        if (t.state === 'closed') continue
        assert.equal(row?.state, t.state, `udp ${t.port}`)
        for (const c of t.checks) assert.ok(ids.has(c), `${c} on ${t.port}`)
      }
    } finally {
      await bed.close()
    }
  })

  test('350 network vulnerability scanner: version CVEs and active checks', async () => {
    const bed = await startVulnServices(A.vuln, { tls: false })
    try {
      const { s, output, ids } = await scan(350, A.vuln, { ports: bed.portList.join(',') })
      assert.equal(s.status_name, 'finished', s.status_message)
      const cves = new Set(output.output_data.findings.flatMap((f: any) => f.cve))
      for (const cve of ['CVE-2011-2523', 'CVE-2021-41773']) assert.ok(cves.has(cve), cve)
      assert.ok(
        [...ids].some((id) => id.includes('ftp') && id.includes('anonymous')),
        [...ids].join(','),
      )
      assert.ok(
        [...ids].some((id) => id.includes('redis')),
        [...ids].join(','),
      )
      assert.ok(
        bed.smtpCommands.every((c) => !/^DATA/i.test(c)),
        'the relay check never sends DATA',
      )
    } finally {
      await bed.close()
    }
  })

  test('20 subdomain finder: names, zone transfer and mail policy against the test bed DNS server', async () => {
    const dns = await startDnsServer({ host: A.dns, port: 5353 })
    try {
      const { s, output } = await scan(20, 'ward-test.example', { resolver: `${A.dns}:5353` })
      assert.equal(s.status_name, 'finished', s.status_message)
      assert.ok(output.output_data.subdomains.length >= 2, JSON.stringify(output.output_data.subdomains))
      assert.ok(output.output_data.subdomains.every((d: any) => d.hostname.endsWith('ward-test.example')))
    } finally {
      await dns.close()
    }
  })
})
