import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import dgram from 'node:dgram'
import { decodeMessage, encodeMessage, RCODE } from '../../../src/tools/lib/dns/message.js'
import { runTool, vulnIds, type HarnessResult } from '../../helpers/tool-harness.js'
import { subdomainFinder } from '../../../src/tools/subdomain-finder/run.js'
import { analyzeDmarc, analyzeSpf } from '../../../src/tools/subdomain-finder/detect/email-policy.js'
import { takeoverService } from '../../../src/tools/subdomain-finder/detect/takeover.js'
import { chooseResolver } from '../../../src/tools/lib/dns/resolver.js'
import { DEEP_WORDS, LIGHT_WORDS } from '../../../src/tools/subdomain-finder/data/wordlists.js'
import { subdomainFinderChecks } from '../../../src/tools/subdomain-finder/checks.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import type { Egress } from '../../../src/toolkit/egress.js'
import { resolveToolParams } from '../../../src/toolkit/params.js'
import { TargetUnreachableError, ToolStartError } from '../../../src/toolkit/errors.js'
import { DNS_HOST, startDnsServer, TRUTH, type DnsTestServer } from '../../testbed/dns-server.js'

let server: DnsTestServer
before(async () => {
  server = await startDnsServer()
})
after(async () => {
  await server?.close()
})

const resolver = DNS_HOST // port 53: name servers are asked for AXFR on 53, like real ones
const hostnames = (r: HarnessResult) => (r.output.subdomains as Array<{ hostname: string }>).map((s) => s.hostname)
const scan = (target: string, params: Record<string, unknown> = {}, egress?: Egress) =>
  runTool(subdomainFinder, { target, params: { resolver, ...params }, egress })

test('ward-test.example: zone transfer, weak SPF, no DMARC and dangling CNAMEs are reported', async () => {
  const r = await scan('ward-test.example')
  assert.equal(r.error, undefined, r.error?.message)
  const truth = TRUTH['ward-test.example']
  assert.deepEqual(vulnIds(r), [...truth.checks])
  assert.deepEqual(hostnames(r), [...truth.subdomains])

  const axfr = r.findings.filter((f) => f.check.id === 'subdomain.dns.axfr-allowed')
  assert.deepEqual(
    axfr.map((f) => f.location),
    [DNS_HOST],
    'ns2 has nothing listening: no finding',
  )
  assert.match(axfr[0]!.detail!, /^ns1\.ward-test\.example \(127\.0\.5\.53\) transferred/)
  assert.equal(axfr[0]!.evidence?.type, 'table')
  assert.ok(JSON.stringify(axfr[0]!.evidence).includes('internal-build-7.ward-test.example'))
  assert.deepEqual(axfr[0]!.check.cve, ['CVE-1999-0532'])

  const dangling = Object.fromEntries(
    r.findings.filter((f) => f.check.id === 'subdomain.dns.dangling-cname').map((f) => [f.location, f.risk]),
  )
  assert.deepEqual(dangling, truth.dangling)
  assert.equal(r.findings.find((f) => f.check.id === 'subdomain.dns.spf-weak')!.risk, 'high', '+all')

  const subs = r.output.subdomains as Array<{ hostname: string; ip_address: string | null; resolved: boolean }>
  assert.deepEqual(
    subs.find((s) => s.hostname === 'www.ward-test.example'),
    { hostname: 'www.ward-test.example', ip_address: '127.0.5.60', resolved: true },
  )
  assert.deepEqual(
    subs.find((s) => s.hostname === 'shop.ward-test.example'),
    { hostname: 'shop.ward-test.example', ip_address: null, resolved: false },
  )
  const found = r.findings.filter((f) => f.check.id === 'subdomain.dns.subdomain-found').map((f) => f.location)
  assert.deepEqual(found, [...truth.subdomains], 'one info finding per subdomain, location = hostname')
  const records = r.output.records as Array<{ name: string; type: string; data: string }>
  assert.ok(records.some((x) => x.name === 'www.ward-test.example' && x.type === 'AAAA' && x.data === 'fd00:5::60'))
  assert.ok(records.some((x) => x.name === 'ward-test.example' && x.type === 'MX'))
  assert.ok(
    r.tests.every((t) => t.status === 'finished'),
    JSON.stringify(r.tests.map((t) => [t.name, t.status, t.message])),
  )
  assert.equal(r.progress, 100)
})

test('depth.example: SRV, CAA, NAPTR, SSHFP, TLSA decoded; CNAME chains followed across answers, loops bounded; one AXFR finding per address', async () => {
  const r = await scan('depth.example')
  assert.equal(r.error, undefined, r.error?.message)
  const truth = TRUTH['depth.example']
  assert.deepEqual(vulnIds(r), [...truth.checks])
  assert.deepEqual(hostnames(r), [...truth.subdomains])

  const axfr = r.findings.filter((f) => f.check.id === 'subdomain.dns.axfr-allowed')
  assert.deepEqual(
    axfr.map((f) => f.location),
    [DNS_HOST],
    'ns1 and ns2 share one address: one finding',
  )
  assert.match(axfr[0]!.detail!, /^ns1\.depth\.example, ns2\.depth\.example \(127\.0\.5\.53\) transferred the zone depth\.example/)

  const records = r.output.records as Array<{ name: string; type: string; data: string }>
  const data = (name: string, type: string) => records.filter((x) => x.name === name && x.type === type).map((x) => x.data)
  assert.deepEqual(data('_sip._udp.depth.example', 'SRV'), ['10 5 5060 sip.depth.example'])
  assert.deepEqual(data('depth.example', 'CAA'), ['0 issue "letsencrypt.org"'])
  assert.deepEqual(data('depth.example', 'NAPTR'), ['100 10 "S" "SIP+D2U" "" _sip._udp.depth.example'])
  assert.deepEqual(data('www.depth.example', 'SSHFP'), ['4 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'])
  assert.equal(data('_443._tcp.www.depth.example', 'TLSA').length, 1)
  assert.ok(
    records.every((x) => !x.data.startsWith('\\#') && !/^TYPE\d+$/.test(x.type)),
    JSON.stringify(records.filter((x) => x.data.startsWith('\\#'))),
  )

  const subs = Object.fromEntries(
    (r.output.subdomains as Array<{ hostname: string; ip_address: string | null; resolved: boolean }>).map((s) => [s.hostname, s]),
  )
  // The server answers each CNAME alone: Ward asks again for the target, across zones and through two hops.
  assert.deepEqual(subs['app.depth.example'], { hostname: 'app.depth.example', ip_address: '127.0.27.42', resolved: true })
  assert.deepEqual(subs['api.depth.example'], { hostname: 'api.depth.example', ip_address: '127.0.27.42', resolved: true })
  assert.equal(subs['loop1.depth.example']!.resolved, false)
  const detail = (h: string) => r.findings.find((f) => f.check.id === 'subdomain.dns.subdomain-found' && f.location === h)!.detail!
  assert.match(detail('api.depth.example'), /CNAME app\.depth\.example → edge\.cdn-depth\.example → 127\.0\.27\.42/)
  assert.match(
    detail('loop1.depth.example'),
    /CNAME loop2\.depth\.example → loop1\.depth\.example \(the CNAME chain loops or is too long\)/,
  )
  assert.ok(
    r.logs.some((l) => /^loop1\.depth\.example → .*: the chain loops/.test(l)),
    'no dangling verdict for a loop',
  )
  assert.ok(
    r.tests.every((t) => t.status === 'finished'),
    JSON.stringify(r.tests.map((t) => [t.name, t.status, t.message])),
  )
})

test('healthy.example (the healthy twin): subdomains only, every check passes', async () => {
  const r = await scan('healthy.example')
  assert.equal(r.error, undefined)
  assert.deepEqual(vulnIds(r), [...TRUTH['healthy.example'].checks])
  assert.deepEqual(hostnames(r), [...TRUTH['healthy.example'].subdomains])
  const byName = new Map(r.tests.map((t) => [t.name, t]))
  for (const name of ['SPF record', 'DMARC record', 'Wildcard DNS', 'Zone transfer (AXFR)', 'Dangling CNAME records']) {
    assert.equal(byName.get(name)!.result, 'passed', name)
  }
  assert.ok(r.logs.some((l) => /AXFR ns1\.healthy\.example .*refused — server answered REFUSED/.test(l)))
})

test('wild.example: the wildcard is reported and names equal to its answer are discarded', async () => {
  const r = await scan('wild.example')
  assert.equal(r.error, undefined)
  assert.deepEqual(vulnIds(r), [...TRUTH['wild.example'].checks])
  assert.deepEqual(hostnames(r), [...TRUTH['wild.example'].subdomains])
  assert.equal(r.findings.find((f) => f.check.id === 'subdomain.dns.wildcard')!.location, '*.wild.example')
  assert.match(r.findings.find((f) => f.check.id === 'subdomain.dns.spf-weak')!.detail!, /\?all/)
  assert.match(r.findings.find((f) => f.check.id === 'subdomain.dns.dmarc-weak')!.detail!, /p=none/)
})

test('deep finds what light misses; a custom wordlist replaces the shipped one', async () => {
  const deep = await scan('healthy.example', { scan_type: 'deep' })
  assert.equal(deep.error, undefined)
  assert.ok(hostnames(deep).includes('dev-portal.healthy.example'))
  assert.ok(deep.elapsedMs < 30_000, `deep took ${deep.elapsedMs} ms`)
  const custom = await scan('healthy.example', { wordlist: ['dev-portal', 'nothing-here'] })
  assert.deepEqual(hostnames(custom), ['dev-portal.healthy.example', 'mail.healthy.example', 'ns1.healthy.example'])
})

test('without UDP (a proxy egress) every query goes over TCP and the results are the same', async () => {
  const direct = createDirectEgress()
  const tcpOnly: Egress = {
    ...direct,
    kind: 'socks5',
    carriesUdp: false,
    udp: () => {
      throw new Error('no UDP')
    },
  }
  const udpBefore = server.stats.udp
  const tcpBefore = server.stats.tcp
  const r = await scan('ward-test.example', {}, tcpOnly)
  await direct.close()
  assert.equal(r.error, undefined)
  assert.equal(server.stats.udp, udpBefore, 'no UDP query reached the server')
  assert.ok(server.stats.tcp - tcpBefore > LIGHT_WORDS.length)
  assert.deepEqual(vulnIds(r), [...TRUTH['ward-test.example'].checks])
  assert.deepEqual(hostnames(r), [...TRUTH['ward-test.example'].subdomains])
  assert.ok(r.logs[0]!.includes('over TCP'))
})

test('targets: URL → its host; IP → failed to start; unknown domain or dead resolver → connection error', async () => {
  const url = await scan('https://healthy.example:8443/login')
  assert.equal(url.error, undefined)
  assert.deepEqual(hostnames(url), [...TRUTH['healthy.example'].subdomains])
  assert.ok((await scan('127.0.5.70')).error instanceof ToolStartError)
  const nx = await scan('does-not-exist.example')
  assert.ok(nx.error instanceof TargetUnreachableError)
  assert.match(nx.error!.message, /NXDOMAIN/)
  const dead = await scan('healthy.example', { resolver: '127.0.5.56:53' })
  assert.ok(dead.error instanceof TargetUnreachableError)
  assert.match(dead.error!.message, /does not answer/)
  // A resolver that refuses us (recursion closed to outsiders).
  const refusing = dgram.createSocket('udp4')
  refusing.on('message', (m, r) => {
    const q = decodeMessage(m)
    refusing.send(
      encodeMessage({
        id: q.id,
        flags: { qr: true, opcode: 0, aa: false, tc: false, rd: true, ra: false, rcode: RCODE.REFUSED },
        questions: q.questions,
      }),
      r.port,
      r.address,
    )
  })
  await new Promise<void>((ok) => refusing.bind(53, '127.0.5.57', () => ok()))
  try {
    const refused = await scan('healthy.example', { resolver: '127.0.5.57' })
    assert.ok(refused.error instanceof TargetUnreachableError)
    assert.match(refused.error!.message, /answers REFUSED/)
  } finally {
    refusing.close()
  }
})

test('email policy: skipped for a host without mail, inherited from the parent domain for a mail subdomain', async () => {
  const host = await scan('www.healthy.example', { wordlist: ['x'] })
  assert.equal(host.error, undefined)
  assert.deepEqual(vulnIds(host), [])
  assert.deepEqual(
    host.tests
      .filter((t) => t.status === 'skipped')
      .map((t) => t.name)
      .sort(),
    ['DMARC record', 'SPF record', 'Zone transfer (AXFR)'],
  )
  const lists = await scan('lists.healthy.example', { wordlist: ['x'] })
  assert.deepEqual(vulnIds(lists), [], 'p=reject of _dmarc.healthy.example applies')
  assert.equal(lists.tests.find((t) => t.name === 'DMARC record')!.result, 'passed')
  const dev = await scan('www.ward-test.example', { wordlist: ['x'] })
  assert.deepEqual(vulnIds(dev), [])
})

test('the resolver comes from tool_params, then WARD_DNS_RESOLVER, then resolv.conf', async () => {
  assert.deepEqual((await chooseResolver('127.0.5.53:5353')).server, { host: '127.0.5.53', port: 5353 })
  assert.deepEqual((await chooseResolver(undefined, { WARD_DNS_RESOLVER: '[::1]:53' })).server, { host: '::1', port: 53 })
  const conf = await chooseResolver(undefined, {}, '/etc/resolv.conf').catch(() => null)
  assert.ok(conf === null || conf.source === '/etc/resolv.conf')
  await assert.rejects(chooseResolver(undefined, {}, '/nonexistent/resolv.conf'), /no DNS resolver/)
  const saved = process.env.WARD_DNS_RESOLVER
  process.env.WARD_DNS_RESOLVER = resolver
  try {
    const r = await runTool(subdomainFinder, { target: 'healthy.example', params: { wordlist: ['www'] } })
    assert.equal(r.error, undefined)
    assert.ok(r.logs[0]!.includes('WARD_DNS_RESOLVER'))
  } finally {
    if (saved === undefined) delete process.env.WARD_DNS_RESOLVER
    else process.env.WARD_DNS_RESOLVER = saved
  }
  assert.equal(resolveToolParams(subdomainFinder.params, { resolver: 'dns.google' }).ok, false)
  assert.equal(resolveToolParams(subdomainFinder.params, { scan_type: 'full' }).ok, false)
  assert.deepEqual(resolveToolParams(subdomainFinder.params, {}), { ok: true, value: { scan_type: 'light', rate_limit: 100 } })
})

test('stopping: an abort during a deep scan returns within a second with what was found', async () => {
  const ac = new AbortController()
  const slow = createDirectEgress()
  // Over TCP the deep list takes long enough to be stopped midway.
  const tcpOnly: Egress = {
    ...slow,
    carriesUdp: false,
    udp: () => {
      throw new Error('no UDP')
    },
  }
  setTimeout(() => ac.abort(new Error('stopped by user')), 400)
  const r = await runTool(subdomainFinder, {
    target: 'ward-test.example',
    params: { resolver, scan_type: 'deep' },
    signal: ac.signal,
    egress: tcpOnly,
  })
  await slow.close()
  assert.equal(r.error, undefined)
  // Timers and performance.now() disagree by a millisecond or so: "ran until the abort" is >= ~400 ms.
  assert.ok(r.elapsedMs >= 380 && r.elapsedMs < 1500, `took ${r.elapsedMs} ms`)
  const enumeration = r.tests.find((t) => t.name === 'Subdomain enumeration')
  assert.equal(enumeration?.status, 'error', 'stopped midway through the wordlist')
  assert.match(enumeration!.message!, /stopped after \d+ of \d+ names/)
})

test('SPF and DMARC policies', () => {
  assert.equal(analyzeSpf([]).kind, 'missing')
  assert.equal(analyzeSpf(['google-site-verification=x']).kind, 'missing')
  assert.deepEqual(analyzeSpf(['v=spf1 mx -all']), { kind: 'ok', record: 'v=spf1 mx -all' })
  assert.equal(analyzeSpf(['v=spf1 include:x ~all']).kind, 'ok')
  assert.equal(analyzeSpf(['v=spf1 redirect=_spf.example']).kind, 'ok')
  const plus = analyzeSpf(['v=spf1 +all'])
  assert.equal(plus.kind === 'weak' && plus.risk, 'high')
  assert.equal(analyzeSpf(['v=spf1 all']).kind, 'weak')
  assert.equal(analyzeSpf(['v=spf1 ?all']).kind, 'weak')
  assert.equal(analyzeSpf(['v=spf1 mx']).kind, 'weak')
  assert.equal(analyzeSpf(['v=spf1 -all', 'v=spf1 mx -all']).kind, 'weak')
  assert.equal(analyzeDmarc([]).kind, 'missing')
  assert.equal(analyzeDmarc(['v=DMARC1; p=reject']).kind, 'ok')
  assert.equal(analyzeDmarc(['v=DMARC1; p=quarantine; pct=100']).kind, 'ok')
  assert.equal(analyzeDmarc(['v=DMARC1; p=none']).kind, 'weak')
  assert.equal(analyzeDmarc(['v=DMARC1; rua=mailto:a@b']).kind, 'weak')
  assert.equal(analyzeDmarc(['v=DMARC1; p=reject; pct=20']).kind, 'weak')
  assert.equal(analyzeDmarc(['v=DMARC1; p=reject', 'v=DMARC1; p=none']).kind, 'weak')
})

test('takeover-prone suffixes and wordlists', () => {
  assert.equal(takeoverService('ward-shop-gone.herokuapp.com.'), 'Heroku')
  assert.equal(takeoverService('x.s3.amazonaws.com'), 'Amazon S3')
  assert.equal(takeoverService('notherokuapp.com'), undefined)
  assert.ok(LIGHT_WORDS.length >= 180 && LIGHT_WORDS.length <= 260)
  assert.ok(DEEP_WORDS.length >= 2000)
  assert.equal(new Set(DEEP_WORDS).size, DEEP_WORDS.length)
})

test('dns checks: stable ids, CWE and OWASP formats, references', () => {
  const ids = subdomainFinderChecks.map((c) => c.id)
  assert.equal(new Set(ids).size, ids.length)
  for (const c of subdomainFinderChecks) {
    assert.match(c.id, /^subdomain\.dns\.[a-z0-9-]+$/)
    assert.ok(c.cwe.every((w) => /^CWE-\d+$/.test(w)))
    if (c.risk !== 'info') assert.ok(c.cwe.length > 0, c.id)
    for (const [year, v] of Object.entries(c.owasp)) assert.match(v, new RegExp(`^A\\d{1,2}:${year}-`))
    assert.ok(c.references.length > 0 && c.references.every((u) => u.startsWith('https://')))
  }
})
