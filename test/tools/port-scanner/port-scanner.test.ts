// TCP Port Scanner (tool 70) against the TCP test bed: lists of ports on our loopback addresses
// (127.0.1.x), and full 1-65535 scans inside private network namespaces.
import { test, describe, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { portScanner } from '../../../src/tools/port-scanner/run.js'
import { RISK_RULES } from '../../../src/tools/port-scanner/detect/risk-rules.js'
import { detectService } from '../../../src/tools/lib/services/services.js'
import { discoverTcpPorts } from '../../../src/tools/lib/ports/scan.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { nativeScanUnavailable } from '../../../src/engine/net/native-scan.js'
import { createSocks5Egress } from '../../../src/engine/net/socks5.js'
import { startSocks5Proxy } from '../../testbed/proxies.js'
import { runTool, vulnIds, type HarnessResult } from '../../helpers/tool-harness.js'
import { startTcpServices } from '../../testbed/tcp-services.js'
import { callInNetns, netnsUnavailable, withNetns } from '../../helpers/netns.js'
import type { ScanTestBedResult, abortFullScan, firewalledScan, localhostScan, unreachableScan } from '../../../bench/port-scan.js'
import { ToolStartError } from '../../../src/toolkit/errors.js'

/** Ports of `host` that nothing listens on: bound by us, then released. */
async function freePorts(host: string, n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const s = net.createServer().once('error', reject)
          s.listen(0, host, () => resolve(s))
        }),
    ),
  )
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port)
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  return ports
}

type PortRow = {
  port: number
  protocol: string
  state: string
  service: string | null
  product: string | null
  version: string | null
  banner: string | null
  tls: boolean
}
const rows = (r: HarnessResult) => (r.output.ports ?? []) as PortRow[]
const testNamed = (r: HarnessResult, name: string) => r.tests.find((t) => t.name === name)
const riskTest = (r: HarnessResult, id: string) => testNamed(r, RISK_RULES.find((x) => x.check.id === id)!.check.name)

describe('discoverTcpPorts', () => {
  test('states of a port list, callbacks, duplicates, bad ports, and an already aborted signal', async () => {
    const host = '127.0.1.6'
    const bed = await startTcpServices(host, [
      { service: 'ssh', port: 0 },
      { service: 'http', port: 0 },
    ])
    const egress = createDirectEgress()
    try {
      const closed = await freePorts(host, 2)
      const open = bed.ports.map((p) => p.port)
      const seen: number[] = []
      let last: [number, number] = [0, 0]
      const list = [closed[0], ...open, closed[1], open[0]]
      const r = await discoverTcpPorts(egress, host, list, {
        signal: new AbortController().signal,
        onOpen: (p) => seen.push(p),
        onProgress: (d, t) => (last = [d, t]),
      })
      const expected = [...open.map((port) => ({ port, state: 'open' })), ...closed.map((port) => ({ port, state: 'closed' }))].sort(
        (a, b) => a.port - b.port,
      )
      assert.deepEqual(r, expected)
      assert.deepEqual(seen.sort(), [...open].sort())
      assert.deepEqual(last, [4, 4])
      await assert.rejects(
        discoverTcpPorts(egress, host, [22, 70000], { signal: new AbortController().signal }),
        /port 70000 is not in 1\.\.65535/,
      )
      assert.deepEqual(await discoverTcpPorts(egress, host, open, { signal: AbortSignal.abort() }), [])
    } finally {
      await egress.close()
      await bed.close()
    }
  })
})

describe('scan of test-bed ports on 127.0.1.x', () => {
  test('finds exactly the open ports, with their services, products and versions, and flags the risky ones', async () => {
    const host = '127.0.1.1'
    const bed = await startTcpServices(host, [
      'ssh',
      'http',
      'https',
      'ftp',
      'smtp',
      'pop3',
      'imap',
      'redis',
      'mysql',
      'postgresql',
      'mongodb',
      'rdp',
      'telnet',
      'vnc',
      { service: 'ssh', port: 0 },
      { service: 'http', port: 0 },
    ])
    try {
      const closed = await freePorts(host, 3)
      const open = bed.ports.map((p) => p.port)
      const r = await runTool(portScanner, { target: host, params: { ports: [...open, ...closed].join(',') } })
      assert.equal(r.error, undefined)

      // Exactly the open ports, each named right.
      assert.deepEqual(
        rows(r).map((p) => p.port),
        [...open].sort((a, b) => a - b),
      )
      for (const expected of bed.ports) {
        const row = rows(r).find((p) => p.port === expected.port)!
        assert.equal(row.service, expected.service, `service on ${expected.port}`)
        assert.equal(row.state, 'open')
        assert.equal(row.protocol, 'tcp')
        if (expected.product) assert.equal(row.product, expected.product, `product on ${expected.port}`)
        if (expected.version) assert.equal(row.version, expected.version, `version on ${expected.port}`)
      }
      assert.equal(rows(r).find((p) => p.service === 'https')!.tls, true)
      assert.match(rows(r).find((p) => p.port === 22)!.banner ?? '', /^SSH-2\.0-OpenSSH_8\.9p1/)

      // One open_port finding per open port, none for the closed ones.
      const openFindings = r.findings.filter((f) => f.check.id === 'open_port')
      assert.deepEqual(
        openFindings.map((f) => f.port).sort((a, b) => a! - b!),
        [...open].sort((a, b) => a - b),
      )
      assert.ok(openFindings.every((f) => f.protocol === 'tcp' && f.service))
      assert.equal(openFindings.find((f) => f.port === 3306)!.service, 'mysql')

      // Risk checks: the bed's telnet, redis without auth, cleartext ftp, databases, rdp and vnc fail.
      // Versions: Apache 2.4.49, nginx 1.18.0, OpenSSH 8.9p1, Redis 6.0.16 have catalogue CVEs; MySQL 8.0 and MongoDB 6.0 are past their end of life.
      assert.deepEqual(vulnIds(r), [
        'cve.apache-httpd-mod-lua-multipart',
        'cve.apache-httpd-path-traversal',
        'cve.nginx-resolver-off-by-one',
        'cve.openssh-regresshion',
        'cve.redis-cjson-heap-overflow',
        'cve.redis-lua-use-after-free',
        'eol.mongodb',
        'eol.mysql',
        'open_port',
        'tcp.exposure.database',
        'tcp.exposure.ftp-cleartext',
        'tcp.exposure.rdp',
        'tcp.exposure.redis-unauthenticated',
        'tcp.exposure.telnet',
        'tcp.exposure.vnc',
      ])
      const redis = r.findings.find((f) => f.check.id === 'tcp.exposure.redis-unauthenticated')!
      assert.deepEqual([redis.port, redis.protocol, redis.service, redis.confirmed], [6379, 'tcp', 'redis', true])
      assert.equal(r.findings.find((f) => f.check.id === 'tcp.exposure.telnet')!.port, 23)
      assert.deepEqual(
        r.findings
          .filter((f) => f.check.id === 'tcp.exposure.database')
          .map((f) => f.port)
          .sort((a, b) => a! - b!),
        [3306, 5432, 6379, 27017],
      )

      // One test record per phase and per check.
      assert.deepEqual(
        r.tests.map((t) => t.name),
        ['Port discovery', 'Service detection', ...RISK_RULES.map((x) => x.check.name), 'Known vulnerabilities by version'],
      )
      const regresshion = r.findings.find((f) => f.check.id === 'cve.openssh-regresshion')!
      assert.deepEqual(
        [regresshion.port, regresshion.cve, regresshion.risk, regresshion.confirmed, regresshion.cvss?.score],
        [22, ['CVE-2024-6387'], 'high', false, 8.1],
      )
      assert.match(r.findings.find((f) => f.check.id === 'eol.mysql')!.name!, /^MySQL 8\.0 is past end of life \(2026-04\)$/)
      assert.deepEqual([testNamed(r, 'Port discovery')!.status, testNamed(r, 'Port discovery')!.result], ['finished', 'failed'])
      assert.deepEqual([testNamed(r, 'Service detection')!.status, testNamed(r, 'Service detection')!.result], ['finished', 'passed'])
      assert.equal(riskTest(r, 'tcp.exposure.ftp-anonymous')!.result, 'passed')
      assert.equal(riskTest(r, 'tcp.exposure.postgresql-no-password')!.result, 'passed')

      // Raw log lines as the scan goes, and full progress.
      assert.ok(r.logs.includes(`Discovered open port 22/tcp on ${host}`))
      assert.ok(r.logs.some((l) => /^Service on 80\/tcp \(http Apache 2\.4\.49\)/.test(l)))
      assert.ok(
        r.logs.some((l) => /^Port discovery done in [\d.]+ s: 16 open, 3 closed, 0 filtered$/.test(l)),
        r.logs.join('\n'),
      )
      assert.deepEqual(r.output.ports_summary, {
        requested: 19,
        scanned: 19,
        open: 16,
        closed: 3,
        filtered: 0,
        method: nativeScanUnavailable('syn') ? 'connect' : 'syn',
      })
      assert.equal(r.progress, 100)
    } finally {
      await bed.close()
    }
  })

  test('risk checks pass when services are protected, and catch anonymous FTP and passwordless PostgreSQL', async () => {
    const host = '127.0.1.2'
    const bed = await startTcpServices(host, [
      { service: 'ssh' },
      { service: 'redis', auth: true },
      { service: 'postgresql', auth: false },
      { service: 'ftp', anonymous: true },
    ])
    try {
      const r = await runTool(portScanner, { target: host, params: { ports: bed.ports.map((p) => p.port).join(',') } })
      assert.equal(r.error, undefined)
      assert.equal(riskTest(r, 'tcp.exposure.redis-unauthenticated')!.result, 'passed')
      assert.equal(riskTest(r, 'tcp.exposure.telnet')!.result, 'passed')
      assert.equal(riskTest(r, 'tcp.exposure.rdp')!.result, 'passed')
      assert.equal(riskTest(r, 'tcp.exposure.postgresql-no-password')!.result, 'failed')
      assert.equal(riskTest(r, 'tcp.exposure.ftp-anonymous')!.result, 'failed')
      assert.equal(rows(r).find((p) => p.port === 5432)!.version, '14.10')
      assert.equal(r.findings.find((f) => f.check.id === 'tcp.exposure.ftp-anonymous')!.port, 21)
    } finally {
      await bed.close()
    }
  })

  test('a URL target scans its host, its own port included; without service detection names are guesses and auth checks are skipped', async () => {
    const host = '127.0.1.3'
    const bed = await startTcpServices(host, [{ service: 'http', port: 0 }, { service: 'telnet' }])
    try {
      const web = bed.ports[0].port
      const r = await runTool(portScanner, { target: `http://${host}:${web}/app?x=1`, params: { ports: '23', service_detection: false } })
      assert.equal(r.error, undefined)
      assert.deepEqual(
        rows(r).map((p) => [p.port, p.service]),
        [
          [23, 'telnet'],
          [web, null],
        ].sort((a, b) => (a[0] as number) - (b[0] as number)),
      )
      assert.equal(testNamed(r, 'Service detection'), undefined)
      assert.equal(riskTest(r, 'tcp.exposure.redis-unauthenticated')!.status, 'skipped')
      const telnet = r.findings.find((f) => f.check.id === 'tcp.exposure.telnet')!
      assert.equal(telnet.confirmed, false, 'a port-number guess is not confirmed')
    } finally {
      await bed.close()
    }
  })

  test('detection gives up quickly on a port that hangs up at once (tcpwrapped), and finds HTTP inside TLS on an unusual port', async () => {
    const host = '127.0.1.5'
    const hangup = net.createServer((s) => s.destroy())
    await new Promise<void>((r) => hangup.listen(0, host, r))
    const bed = await startTcpServices(host, [{ service: 'https', port: 0 }])
    const egress = createDirectEgress()
    try {
      const port = (hangup.address() as net.AddressInfo).port
      const t0 = performance.now()
      const info = await detectService(egress, host, port, { signal: new AbortController().signal, timeoutMs: 5000 })
      assert.ok(performance.now() - t0 < 1500, `took ${Math.round(performance.now() - t0)} ms`)
      // nmap's name for it: the service accepts and drops us (tcpd, a filtering proxy).
      assert.deepEqual([info.service, info.banner, info.identified], ['tcpwrapped', null, true])
      const tls = await detectService(egress, host, bed.ports[0].port, { signal: new AbortController().signal })
      assert.deepEqual([tls.service, tls.product, tls.tls, tls.identified], ['https', 'nginx', true, true])
    } finally {
      await egress.close()
      await new Promise((r) => hangup.close(r))
      await bed.close()
    }
  })

  test('through a SOCKS5 VPN profile: same open ports and services, closed ports reported closed by the proxy', async () => {
    const host = '127.0.1.7'
    const bed = await startTcpServices(host, [
      { service: 'ssh', port: 0 },
      { service: 'redis', port: 0 },
    ])
    const proxy = await startSocks5Proxy({ host: '127.0.1.40', outboundAddress: '127.0.1.41' })
    const egress = createSocks5Egress({ host: proxy.host, port: proxy.port })
    try {
      const closed = await freePorts(host, 2)
      const open = bed.ports.map((p) => p.port)
      const r = await runTool(portScanner, { target: host, params: { ports: [...open, ...closed].join(',') }, egress })
      assert.equal(r.error, undefined)
      assert.deepEqual(
        rows(r).map((p) => [p.port, p.service]),
        bed.ports.map((p) => [p.port, p.service]).sort((a, b) => (a[0] as number) - (b[0] as number)),
      )
      assert.deepEqual(r.output.ports_summary, { requested: 4, scanned: 4, open: 2, closed: 2, filtered: 0, method: 'connect' })
      assert.ok(
        proxy.connections.some((c) => c.port === open[0] && c.localAddress === '127.0.1.41'),
        'the target saw the proxy',
      )
      assert.ok(vulnIds(r).includes('tcp.exposure.redis-unauthenticated'))
    } finally {
      await egress.close()
      await proxy.close()
      await bed.close()
    }
  })

  test('a port list the schema lets through but that is out of range ends the scan "failed to start"', async () => {
    const r = await runTool(portScanner, { target: '127.0.1.8', params: { ports: '22,70000' } })
    assert.ok(r.error instanceof ToolStartError)
    assert.match(r.error.message, /70000 is out of range/)
    assert.equal(r.tests.length, 0)
  })

  test('a stop during service detection returns within 1 s, keeping the open ports found', async () => {
    const host = '127.0.1.4'
    const sockets = new Set<net.Socket>()
    const silent = net.createServer((s) => {
      sockets.add(s) // accepts and never speaks: every probe waits for its timeout
      s.on('error', () => {})
    })
    await new Promise<void>((r) => silent.listen(0, host, r))
    const bed = await startTcpServices(host, [{ service: 'ssh', port: 0 }])
    after(async () => {
      for (const s of sockets) s.destroy()
      await new Promise((r) => silent.close(r))
      await bed.close()
    })
    const silentPort = (silent.address() as net.AddressInfo).port
    const ac = new AbortController()
    const run = runTool(portScanner, {
      target: host,
      params: { ports: `${silentPort},${bed.ports[0].port}`, timeout_ms: 20_000 },
      signal: ac.signal,
    })
    await new Promise((r) => setTimeout(r, 500))
    const t0 = performance.now()
    ac.abort(new Error('stop requested'))
    const r = await run
    const took = performance.now() - t0
    assert.ok(took < 1000, `returned ${Math.round(took)} ms after the stop`)
    assert.equal(r.error, undefined)
    assert.deepEqual(
      rows(r)
        .map((p) => p.port)
        .sort(),
      [silentPort, bed.ports[0].port].sort(),
    )
    assert.equal(r.findings.filter((f) => f.check.id === 'open_port').length, 2)
    assert.equal(testNamed(r, 'Service detection')!.status, 'error')
  })
})

describe('full 1-65535 scans in a private network namespace', () => {
  const why = netnsUnavailable()

  test('finds exactly the ports the test bed opened, with the right services; stops within 1 s; reports an unreachable target; resolves localhost; sees dropped ports as filtered', async () => {
    if (why) {
      console.log(`namespace scenarios not run: ${why}`)
      assert.equal(typeof why, 'string')
      return
    }
    await withNetns('ps-test', async (ns) => {
      const full = await callInNetns<ScanTestBedResult>(ns, 'bench/port-scan.ts', 'scanTestBed', [{ runs: 0, tool: true }])
      assert.equal(full.tool?.error, undefined)
      const ports = full.tool!.ports as PortRow[]
      assert.deepEqual(
        ports.map((p) => p.port),
        full.expected.map((p) => p.port),
        'open ports = test bed ports',
      )
      assert.deepEqual(
        ports.map((p) => p.service),
        full.expected.map((p) => p.service),
        'services',
      )
      assert.ok(full.expected.length >= 18)
      assert.ok(full.tool!.vulnIds.includes('tcp.exposure.telnet') && full.tool!.vulnIds.includes('tcp.exposure.redis-unauthenticated'))

      const stop = await callInNetns<Awaited<ReturnType<typeof abortFullScan>>>(ns, 'bench/port-scan.ts', 'abortFullScan', [
        { afterMs: 300 },
      ])
      assert.ok(stop.returnedMs < 1000, `returned ${stop.returnedMs} ms after the stop`)
      assert.equal(stop.error, null)
      assert.equal(stop.discovery?.status, 'error')
      assert.match(stop.discovery?.message ?? '', /scan stopped after \d+ of 65535 ports/)
      assert.ok(Array.isArray(stop.ports))
      assert.ok(stop.logs.some((l) => /^Scan of 127\.0\.1\.10 stopped/.test(l)))

      const gone = await callInNetns<Awaited<ReturnType<typeof unreachableScan>>>(ns, 'bench/port-scan.ts', 'unreachableScan', [
        { target: '10.99.0.1' },
      ])
      assert.equal(gone.errorName, 'TargetUnreachableError')
      assert.match(gone.error ?? '', /10\.99\.0\.1 is unreachable \(ENETUNREACH\)/)
      assert.deepEqual(gone.tests, [{ name: 'Port discovery', status: 'error' }])

      // A host name is resolved once and its address scanned (localhost is 127.0.0.1 inside the namespace).
      const lh = await callInNetns<Awaited<ReturnType<typeof localhostScan>>>(ns, 'bench/port-scan.ts', 'localhostScan', [])
      assert.equal(lh.error, null)
      assert.deepEqual(
        (lh.ports as PortRow[]).map((p) => [p.port, p.service]),
        [[2222, 'ssh']],
      )
      assert.deepEqual(lh.summary, { requested: 3, scanned: 3, open: 1, closed: 2, filtered: 0, method: 'syn' })

      // Ports behind a DROP (tc, inside the namespace) are filtered; the others keep their state.
      const fw = await callInNetns<Awaited<ReturnType<typeof firewalledScan>>>(ns, 'bench/port-scan.ts', 'firewalledScan', [
        { drop: [1000, 2000, 2500], upTo: 3000 },
      ])
      assert.deepEqual(fw.open, fw.expectedOpen)
      assert.deepEqual(fw.filtered, [1000, 2000, 2500])
      assert.equal(fw.closed, 3000 - 3 - 3)
    })
  })
})
