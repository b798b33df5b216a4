// Find Virtual Hosts (160) through the API against the loopback vhost beds: names from the certificate,
// reverse DNS (the bed's DNS server as the scan's resolver), the workspace (a target and a Subdomain
// Finder result), the shipped prefixes and tool_params.wordlist; catch-all servers give no noise;
// internal-looking names are findings; the hardened twin gives nothing above info.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { scanThroughApi } from '../../helpers/api-scan.js'
import { startDnsServer, type DnsTestServer } from '../../testbed/dns-server.js'
import { startVhostBed, vhostDnsZones, VHOST_ADDR, VHOST_TRUTH, type VhostBed } from '../../testbed/vhost-site.js'

const DNS_PORT = 5371
let w: TestWard
let dns: DnsTestServer
before(async () => {
  dns = await startDnsServer({ host: VHOST_ADDR.dns, port: DNS_PORT, zones: vhostDnsZones() })
  w = await startWard({ env: { WARD_DNS_RESOLVER: `${VHOST_ADDR.dns}:${DNS_PORT}` } })
})
after(async () => {
  await w.close()
  await dns.close()
})

const scan = (tool_id: number, target_name: string, tool_params: Record<string, unknown> = {}) =>
  scanThroughApi(w, tool_id, target_name, tool_params)

const names = (vhosts: any[]) => [...new Set(vhosts.map((v) => v.name))].sort()

describe('Find Virtual Hosts through the API', { concurrency: false }, () => {
  let bed: VhostBed
  before(async () => {
    bed = await startVhostBed('catchall')
  })
  after(() => bed.close())

  test('every site behind the catch-all address is found through its source, and nothing else', async () => {
    // Names Ward knows in the workspace: a target, and what a Subdomain Finder scan found.
    assert.equal((await w.req('POST', '/api/v2/targets', { form: { name: 'crm-legacy.vhost-bed.example' } })).statusCode, 201)
    const sub = await scan(20, 'vhost-bed.example', { wordlist: ['billing', 'nothing-here'] })
    assert.ok(
      sub.output.subdomains.some((x: any) => x.hostname === 'billing.vhost-bed.example'),
      'the Subdomain Finder found billing',
    )

    const { s, output, raw } = await scan(160, VHOST_ADDR.catchall, { ports: [bed.httpPort, bed.httpsPort], wordlist: ['secret-app'] })
    assert.equal(s.status_name, 'finished', s.status_message)
    const truth = Object.keys(VHOST_TRUTH.catchall).sort()
    // Exactly the planted sites, over HTTP and HTTPS: the wildcard shop front and the echoing default
    // page answered every other candidate, and none of those is reported.
    for (const scheme of ['http', 'https']) assert.deepEqual(names(output.vhosts.filter((v: any) => v.scheme === scheme)), truth, scheme)
    const dev = output.vhosts.find((v: any) => v.name === 'dev.vhost-bed.example' && v.scheme === 'https')
    assert.deepEqual(Object.keys(dev).sort(), ['name', 'port', 'redirect', 'scheme', 'size', 'status', 'title'])
    assert.deepEqual(
      { port: dev.port, status: dev.status, title: dev.title, redirect: dev.redirect },
      { port: bed.httpsPort, status: 200, title: 'Dev build 4711', redirect: null },
    )
    assert.ok(dev.size > 50)
    const staging = output.vhosts.find((v: any) => v.name === 'staging.vhost-bed.example' && v.scheme === 'http')
    assert.equal(staging.redirect, 'https://staging.vhost-bed.example/login')

    // Each source was used: the raw log names where each name came from.
    const log = raw.map((l: any) => l.line ?? l).join('\n')
    for (const [name, t] of Object.entries(VHOST_TRUTH.catchall)) {
      const via = t.via === 'subdomain-finder' ? 'workspace' : t.via
      assert.match(
        log,
        new RegExp(`vhost ${name.replace(/\./g, '\\.')}:\\d+ on https: .*from [a-z_, -]*${via}`),
        `${name} found through ${via}`,
      )
    }
    // SNI followed the Host over HTTPS.
    assert.ok(bed.sniSeen.includes('dev.vhost-bed.example'), 'the candidate name was sent as SNI')

    const findings = output.findings as any[]
    const internal = findings.filter((f) => f.vuln_id === 'vhost.internal-exposed')
    const expected = Object.entries(VHOST_TRUTH.catchall).filter(([, t]) => 'internal' in t)
    for (const [name, t] of expected) {
      const f = internal.filter((x) => x.vuln_evidence?.data?.rows?.[0]?.[0] === name)
      assert.equal(f.length, 2, `${name}: one finding per endpoint`)
      assert.ok(
        f.every((x) => x.risk_level === ((t as { internal: string }).internal === 'medium' ? 2 : 1)),
        `${name} risk`,
      )
    }
    assert.equal(internal.length, expected.length * 2, 'no other internal finding')
    assert.equal(findings.filter((f) => f.vuln_id === 'vhost.discovered').length, truth.length * 2)
  })
})

test('a server without catch-all: the sites it has are found, its 404 for other names is not a site', async () => {
  const bed = await startVhostBed('strict')
  try {
    const { s, output } = await scan(160, VHOST_ADDR.strict, { ports: [bed.httpPort] })
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(names(output.vhosts), Object.keys(VHOST_TRUTH.strict).sort())
    assert.ok(output.findings.some((f: any) => f.vuln_id === 'vhost.internal-exposed' && f.risk_level === 2))
  } finally {
    await bed.close()
  }
})

test('the hardened twin: its public sites are listed, nothing above info', async () => {
  const bed = await startVhostBed('hardened')
  try {
    const { s, output } = await scan(160, `http://${VHOST_ADDR.hardened}:${bed.httpPort}/`)
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(names(output.vhosts), Object.keys(VHOST_TRUTH.hardened).sort())
    assert.deepEqual(
      output.findings.filter((f: any) => f.risk_level > 0).map((f: any) => f.vuln_id),
      [],
    )
  } finally {
    await bed.close()
  }
})

test('tool 160 is listed with its parameters; bad parameters are a 400 naming them', async () => {
  const t = (await w.req('GET', '/api/v2/tools')).json().data.find((x: any) => x.id === 160)
  assert.equal(t.name, 'Find Virtual Hosts')
  assert.deepEqual(Object.keys(t.tool_params.properties).sort(), [
    'concurrency',
    'domains',
    'known_names',
    'ports',
    'rate_limit',
    'wordlist',
  ])
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 160, target_name: VHOST_ADDR.catchall, tool_params: { wordlist: ['bad name'] } },
  })
  assert.equal(r.statusCode, 400)
  assert.match(r.json().message, /tool_params\.wordlist/)
})
