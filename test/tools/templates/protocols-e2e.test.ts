// End to end for the tcp, ssl and dns template protocols: templates imported by the real
// `ward admin templates import`, then scans of the Network Vulnerability Scanner (350), the SSL/TLS
// Scanner (450) and the Subdomain Finder (20) through the API find their findings on the positive
// site of each bed and none on its clean twin; the three tools pace their template requests by
// tool_params.rate_limit.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { startWard, waitForScan, isTerminal, TEST_BACKEND, type TestWard } from '../../helpers/ward.js'
import { runAdmin } from '../../../src/cli/admin.js'
import { loadTemplate } from '../../../src/tools/lib/templates/index.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { networkVulnScanner } from '../../../src/tools/netvuln/run.js'
import { tlsScanner } from '../../../src/tools/tls-scanner/run.js'
import { subdomainFinder } from '../../../src/tools/subdomain-finder/run.js'
import type { StoredTemplate } from '../../../src/toolkit/templates.js'
import { runTool } from '../../helpers/tool-harness.js'
import { DNS_ZONE, NET_BED, startNetTemplateBed, type NetTemplateBed } from '../../testbed/template-net-bed.js'

const info = (name: string, severity: string, tags: string) =>
  `info:\n  name: ${name}\n  author: ward\n  severity: ${severity}\n  tags: ${tags}\n  remediation: Fix it.\n`

export const TEMPLATES: Record<string, string> = {
  'network/tpl-acmemq-debug.yaml': `id: tpl-acmemq-debug
${info('AcmeMQ debug console without authentication', 'high', 'network,acme')}tcp:
  - inputs:
      - data: "STATUS\\r\\n"
    host: ["{{Hostname}}"]
    read-size: 2048
    matchers-condition: and
    matchers:
      - type: word
        words: ["AcmeMQ"]
      - type: regex
        regex: ["debug console: unauthenticated"]
    extractors:
      - type: regex
        regex: ["AcmeMQ [0-9.]+"]
`,
  'network/tpl-acmemq-hex.yaml': `id: tpl-acmemq-hex
${info('AcmeMQ banner (hex input)', 'info', 'network,acme')}network:
  - inputs:
      - data: "5354415455530d0a"
        type: hex
    host: ["{{Hostname}}"]
    matchers:
      - type: binary
        binary: ["41636d654d51"]
`,
  'ssl/tpl-expired-cert.yaml': `id: tpl-expired-cert
${info('Expired TLS certificate', 'medium', 'ssl,tls')}ssl:
  - address: "{{Host}}:{{Port}}"
    matchers:
      - type: dsl
        dsl: ["expired == true"]
    extractors:
      - type: dsl
        dsl: ["not_after"]
`,
  'ssl/tpl-self-signed.yaml': `id: tpl-self-signed
${info('Self-signed TLS certificate', 'low', 'ssl,tls')}ssl:
  - address: "{{Host}}:{{Port}}"
    min_version: tls12
    matchers-condition: and
    matchers:
      - type: dsl
        dsl: ["self_signed == true", "contains(subject_cn, 'ward.test')"]
        condition: and
      - type: word
        words: ['"tls_version":"tls1']
    extractors:
      - type: json
        json: [".subject_cn"]
`,
  'dns/tpl-azure-takeover.yaml': `id: tpl-azure-takeover
${info('Azure subdomain takeover', 'high', 'dns,takeover')}dns:
  - name: "{{FQDN}}"
    type: A
    class: inet
    recursion: true
    matchers-condition: and
    matchers:
      - type: word
        part: answer
        words: ["azurewebsites.net"]
      - type: word
        words: ["NXDOMAIN"]
    extractors:
      - type: regex
        part: answer
        regex: ["[a-z0-9-]+\\\\.azurewebsites\\\\.net"]
`,
}

let w: TestWard
let bed: NetTemplateBed
before(async () => {
  bed = await startNetTemplateBed()
  w = await startWard()
  const dir = fs.mkdtempSync(path.join(w.dir, 'templates-'))
  for (const [file, text] of Object.entries(TEMPLATES)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), text)
  }
  let out = ''
  await runAdmin(['templates', 'import', dir], w.h, w.config, (s) => (out += s))
  assert.match(out, /^loaded 5, updated 0, unchanged 0, skipped 0/, out)
})
after(async () => {
  await w?.close()
  await bed?.close()
})

async function scan(tool_id: number, target_name: string, tool_params: Record<string, unknown>) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id, target_name, tool_params } })
  assert.equal(r.statusCode, 201, r.body)
  const s = await waitForScan(w, r.json().data.created_id, isTerminal, 150_000)
  assert.equal(s.status_name, 'finished', s.status_message)
  const findings = (await w.req('GET', `/api/v2/findings?task_id=${s.id}`)).json().data as any[]
  const tests = (await w.req('GET', `/api/v2/scans/${s.id}/tests`)).json().data as any[]
  const testOf = (id: string) => tests.find((t) => JSON.stringify(t).includes(`Template ${id}:`))
  return { findings: findings.filter((f) => f.vuln_id.startsWith('template.')), testOf }
}

test('350: tcp/network templates match the banner service and not its clean twin', async () => {
  const { findings, testOf } = await scan(350, NET_BED.tcp, { ports: `${bed.bannerPort},${bed.cleanPort}` })
  const debug = findings.filter((f) => f.vuln_id === 'template.tpl-acmemq-debug')
  assert.equal(debug.length, 1, JSON.stringify(findings))
  assert.equal(debug[0].port, bed.bannerPort)
  assert.equal(debug[0].risk_level, 3)
  assert.match(JSON.stringify(debug[0].vuln_evidence), /STATUS.*AcmeMQ 2\.1\.3/)
  assert.equal(findings.filter((f) => f.vuln_id === 'template.tpl-acmemq-hex').length, 1)
  assert.ok(testOf('tpl-acmemq-debug'), 'one test per template')
  assert.ok(testOf('tpl-expired-cert'), 'the ssl templates have their test (no TLS port here: skipped)')
  assert.equal(findings.filter((f) => f.port === bed.cleanPort).length, 0)
})

test('450: ssl templates find the expired self-signed certificate and stay silent on the good one', async () => {
  const bad = await scan(450, NET_BED.expired, { port: bed.expiredPort })
  const ids = bad.findings.map((f) => f.vuln_id).sort()
  assert.deepEqual(ids, ['template.tpl-expired-cert', 'template.tpl-self-signed'])
  assert.match(JSON.stringify(bad.findings.find((f) => f.vuln_id === 'template.tpl-expired-cert').vuln_evidence), /2025-01-01/)
  const good = await scan(450, NET_BED.good, { port: bed.goodPort })
  assert.deepEqual(good.findings, [])
  assert.ok(good.testOf('tpl-self-signed'))
})

test('20: dns templates find the dangling CNAME to an unclaimed Azure name, not the clean names', async () => {
  const { findings } = await scan(20, DNS_ZONE, { resolver: `${NET_BED.dns}:${bed.dnsPort}`, wordlist: ['gone', 'www', 'blog'] })
  assert.equal(findings.length, 1, JSON.stringify(findings))
  assert.equal(findings[0].vuln_id, 'template.tpl-azure-takeover')
  assert.match(JSON.stringify(findings[0]), /gone\.tpl-test\.example/)
  assert.match(JSON.stringify(findings[0].vuln_evidence), /tpl-gone-app\.azurewebsites\.net/)
})

// The pacing runs the tools without the database: once, in the SQLite pass.
const pacingSkip = TEST_BACKEND === 'postgres' ? 'runs the tools without a database: checked once, in the SQLite pass' : false
test('350, 450 and 20 pace their template requests per host by tool_params.rate_limit', { skip: pacingSkip }, async () => {
  const RATE = 3 // slots 333 ms apart; unpaced, the four requests of each run leave within a few ms
  const source = (protocol: string, texts: Record<string, string>) => ({
    forProtocol: async (p: string): Promise<StoredTemplate[]> =>
      p === protocol ? Object.entries(texts).map(([id, yaml]) => ({ id, path: `${id}.yaml`, yaml, files: {} })) : [],
  })
  const copies = (file: string, from: string, n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${from}-${i}`, TEMPLATES[file]!.replace(`id: ${from}`, `id: ${from}-${i}`)]))
  /**
   * At least `n` requests, spread over at least half the n-1 slots they take when paced: a loaded
   * machine may delay the first one past its slot, but unpaced they all arrive within a few ms.
   */
  const paced = (times: number[], n: number, what: string) => {
    assert.ok(times.length >= n, `${what}: ${times.length} requests`)
    const span = Math.max(...times) - Math.min(...times)
    assert.ok(span >= ((times.length - 1) * 1000) / RATE / 2, `${what}: ${times.length} requests in ${Math.round(span)} ms`)
  }

  // 350: four tcp templates (run side by side) on the banner port: four "STATUS" inputs to one host.
  const before350 = bed.statusAsked.length
  const net = await runTool(networkVulnScanner, {
    target: NET_BED.tcp,
    params: { ports: `${bed.bannerPort}`, checks: { tls: false, active: false }, rate_limit: RATE },
    templates: source('tcp', copies('network/tpl-acmemq-debug.yaml', 'tpl-acmemq-debug', 4)),
  })
  assert.equal(net.findings.filter((f) => f.check.id.startsWith('template.tpl-acmemq-debug-')).length, 4, net.logs.join('\n'))
  paced(bed.statusAsked.slice(before350), 4, '350 tcp templates')

  // 450: four ssl templates, one handshake each (told from the scanner's own by the templates' cipher list).
  const direct = createDirectEgress()
  const handshakes: number[] = []
  const egress = {
    ...direct,
    tlsConnect: (o: Parameters<typeof direct.tlsConnect>[0]) => {
      if (o.tls?.ciphers?.includes('!eNULL')) handshakes.push(performance.now())
      return direct.tlsConnect(o)
    },
  }
  const tls = await runTool(tlsScanner, {
    target: NET_BED.expired,
    params: { port: bed.expiredPort, rate_limit: RATE },
    templates: source('ssl', copies('ssl/tpl-expired-cert.yaml', 'tpl-expired-cert', 4)),
    egress,
  })
  await direct.close()
  assert.equal(tls.findings.filter((f) => f.check.id.startsWith('template.tpl-expired-cert-')).length, 4)
  paced(handshakes, 4, '450 ssl templates')

  // 20: four PTR templates (a type the finder never asks itself), side by side, on the domain and www.
  const ptr = (id: string) =>
    `id: ${id}\n${info(id, 'info', 'dns')}dns:\n  - name: "{{FQDN}}"\n    type: PTR\n    matchers:\n      - type: word\n        words: ["never-there"]\n`
  const beforeDns = bed.dns.questions.length
  await runTool(subdomainFinder, {
    target: DNS_ZONE,
    params: { resolver: `${NET_BED.dns}:${bed.dnsPort}`, wordlist: ['www'], rate_limit: RATE },
    templates: source('dns', Object.fromEntries(['a', 'b', 'c', 'd'].map((x) => [`tpl-ptr-${x}`, ptr(`tpl-ptr-${x}`)]))),
  })
  const ptrs = bed.dns.questions.slice(beforeDns).filter((q) => q.type === 12)
  paced(
    ptrs.map((q) => q.at),
    8,
    '20 dns templates',
  )
})

test('templates of the three protocols refuse what Ward cannot run, with the reason', () => {
  const base = `id: x\n${info('x', 'info', 'x')}`
  const reason = (body: string) => {
    const r = loadTemplate(base + body, { path: 'x.yaml' })
    return r.ok ? 'loaded' : r.reason
  }
  assert.match(
    reason('ssl:\n  - address: "{{Host}}:{{Port}}"\n    min_version: sslv3\n    matchers:\n      - type: dsl\n        dsl: ["true"]\n'),
    /SSLV3/,
  )
  assert.match(reason('ssl:\n  - tls_cipher_enum: true\n    matchers:\n      - type: dsl\n        dsl: ["true"]\n'), /tls_cipher_enum/)
  assert.match(reason('dns:\n  - name: "{{FQDN}}"\n    trace: true\n    matchers:\n      - type: word\n        words: [a]\n'), /trace/)
  assert.match(
    reason('tcp:\n  - inputs:\n      - data: "zz"\n        type: hex\n    matchers:\n      - type: word\n        words: [a]\n'),
    /hex/,
  )
  assert.equal(reason('dns:\n  - name: "{{FQDN}}"\n    type: CNAME\n    matchers:\n      - type: word\n        words: [a]\n'), 'loaded')
})
