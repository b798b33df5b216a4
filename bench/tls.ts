// TLS scan benchmark: Ward's SSL/TLS Scanner beside `sslscan` and `testssl` (when installed) on the legacy
// server of the TLS test bed (127.0.4.2). Prints each tool's time and the agreement on accepted protocols,
// accepted suites, weak-suite classes and certificate problems. All three use their default trust store,
// which does not hold the test bed's CA.
// `npm run bench -- tls [--server <name>] [--no-testssl]` (or `node --import tsx bench/tls.ts`).
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir, cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runTool } from '../test/helpers/tool-harness.js'
import { tlsScanner } from '../src/tools/tls-scanner/run.js'
import { suiteByName, weakClasses, type Suite, type WeakClass } from '../src/tools/lib/tls/suites.js'
import { startTlsTestBed, type TlsServerName } from '../test/testbed/tls-servers.js'

const exec = promisify(execFile)
const PROTOCOLS = ['SSLv2', 'SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']

interface View {
  tool: string
  ms: number
  protocols: string[]
  ciphers: Record<string, string[]>
  weak: WeakClass[]
  /** Certificate problems as Ward names them; null = the tool does not check that one. */
  certProblems: Record<string, boolean | null>
  notes: string[]
}

const CERT_PROBLEMS = [
  'expired',
  'not-yet-valid',
  'expiring-soon',
  'self-signed',
  'untrusted',
  'hostname-mismatch',
  'weak-key',
  'weak-signature',
]

const has = (cmd: string) => spawnSync('which', [cmd]).status === 0

export async function run(args: string[]): Promise<void> {
  const server = (args.includes('--server') ? args[args.indexOf('--server') + 1] : 'legacy') as TlsServerName
  const withTestssl = !args.includes('--no-testssl')
  console.log(`# TLS scan benchmark — ${new Date().toISOString()} — ${cpus().length} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB`)
  const bed = await startTlsTestBed({ only: [server] })
  const s = bed.servers[server]
  const addr = `${s.host}:${s.port}`
  console.log(`server: ${server} at ${addr}; truth: protocols ${s.truth.protocols.join(' ')}`)
  const views: View[] = []
  try {
    views.push(await ward(s.host, s.port))
    if (has('sslscan')) views.push(await sslscan(addr, s.host))
    else console.log('sslscan is not installed')
    if (!withTestssl) console.log('testssl skipped (--no-testssl)')
    else if (has('testssl')) views.push(await testssl(addr))
    else console.log('testssl is not installed')
  } finally {
    await bed.close()
  }
  print(views)
}

async function ward(host: string, port: number): Promise<View> {
  const t0 = performance.now()
  const r = await runTool(tlsScanner, { target: host, params: { port } })
  const ms = performance.now() - t0
  if (r.error) throw r.error
  const protocols = r.output.protocols as { name: string; accepted: boolean; ciphers: { name: string }[] }[]
  const certs = r.output.certificates as { position: number; problems: string[] }[]
  const problems = new Set(certs.flatMap((c) => c.problems))
  return {
    tool: 'ward',
    ms,
    protocols: protocols.filter((p) => p.accepted).map((p) => p.name),
    ciphers: Object.fromEntries(protocols.filter((p) => p.accepted).map((p) => [p.name, p.ciphers.map((c) => c.name).sort()])),
    weak: [
      ...new Set(
        r.findings.filter((f) => f.check.id.startsWith('tls.cipher.')).map((f) => f.location!.replace('cipher:', '') as WeakClass),
      ),
    ].sort(),
    certProblems: Object.fromEntries(CERT_PROBLEMS.map((p) => [p, problems.has(p)])),
    notes: [`findings: ${[...new Set(r.findings.map((f) => f.check.id))].sort().join(', ')}`],
  }
}

function classesOf(ciphers: Record<string, string[]>): WeakClass[] {
  const out = new Set<WeakClass>()
  for (const [p, names] of Object.entries(ciphers))
    for (const n of names)
      for (const c of weakClasses(suiteByName(n) ?? ({ enc: '?', au: '?', export: false, tls13: false } as Suite), p)) out.add(c)
  return [...out].sort()
}

async function sslscan(addr: string, host: string): Promise<View> {
  const t0 = performance.now()
  const { stdout } = await exec('sslscan', ['--no-colour', addr], { timeout: 300_000, maxBuffer: 8 << 20 })
  const ms = performance.now() - t0
  const protocols = [...stdout.matchAll(/^(SSLv[23]|TLSv1\.[0-3])\s+enabled/gm)].map((m) => m[1]!)
  const ciphers: Record<string, string[]> = {}
  for (const m of stdout.matchAll(/^(?:Preferred|Accepted)\s+(\S+)\s+\d+\s+bits\s+(\S+)/gm)) (ciphers[m[1]!] ??= []).push(m[2]!)
  for (const k of Object.keys(ciphers)) ciphers[k]!.sort()
  const field = (name: string) => stdout.match(new RegExp(`^${name}:\\s*(.+)$`, 'm'))?.[1]?.trim() ?? ''
  const notAfter = Date.parse(field('Not valid after'))
  const notBefore = Date.parse(field('Not valid before'))
  const keyBits = Number(field('RSA Key Strength') || '0')
  const sig = field('Signature Algorithm')
  const alt = field('Altnames')
  const noCert = !field('Subject')
  return {
    tool: 'sslscan',
    ms,
    protocols,
    ciphers,
    weak: classesOf(ciphers),
    certProblems: noCert
      ? Object.fromEntries(CERT_PROBLEMS.map((p) => [p, null]))
      : {
          expired: notAfter < Date.now(),
          'not-yet-valid': notBefore > Date.now(),
          'expiring-soon': notAfter >= Date.now() && notAfter - Date.now() < 30 * 86_400_000,
          'self-signed': field('Subject') !== '' && field('Subject') === field('Issuer'),
          untrusted: null,
          'hostname-mismatch': !alt.split(/,\s*/).some((a) => a === `IP Address:${host}` || a === `DNS:${host}`),
          'weak-key': keyBits > 0 && keyBits < 2048,
          'weak-signature': /sha1|md5/i.test(sig),
        },
    notes: [
      `weak classes derived from sslscan's suite list with Ward's classifier; sslscan does not verify the chain`,
      ...(noCert
        ? ['sslscan could not retrieve the certificate (it lets the server pick an anonymous suite); certificate problems not compared']
        : []),
    ],
  }
}

async function testssl(addr: string): Promise<View> {
  const dir = mkdtempSync(join(tmpdir(), 'ward-testssl-'))
  try {
    const json = join(dir, 'out.json')
    const t0 = performance.now()
    await exec('testssl', ['--nodns', 'none', '--quiet', '--color', '0', '--jsonfile', json, addr], {
      timeout: 900_000,
      maxBuffer: 32 << 20,
    }).catch((e) => {
      if (!readFileSync(json, 'utf8').length) throw e // testssl exits non-zero when it found problems
    })
    const ms = performance.now() - t0
    const items = JSON.parse(readFileSync(json, 'utf8')) as { id: string; severity: string; finding: string }[]
    const get = (id: string) => items.find((i) => i.id === id)
    const notes: string[] = []
    const ids: Record<string, string> = {
      SSLv2: 'SSLv2',
      SSLv3: 'SSLv3',
      TLS1: 'TLSv1.0',
      TLS1_1: 'TLSv1.1',
      TLS1_2: 'TLSv1.2',
      TLS1_3: 'TLSv1.3',
    }
    const protocols = Object.entries(ids)
      .filter(([id]) => /^offered/.test(get(id)?.finding ?? ''))
      .map(([, p]) => p)
    let ciphers: Record<string, string[]> = {}
    for (const [id, p] of Object.entries({
      cipherorder_SSLv3: 'SSLv3',
      cipherorder_TLSv1: 'TLSv1.0',
      cipherorder_TLSv1_1: 'TLSv1.1',
      cipherorder_TLSv1_2: 'TLSv1.2',
      cipherorder_TLSv1_3: 'TLSv1.3',
    })) {
      const f = get(id)?.finding
      if (f) ciphers[p] = f.split(/\s+/).filter(Boolean).sort()
    }
    if (!Object.keys(ciphers).length) {
      // No server cipher order, so the default run lists no suites per protocol: ask `-E` for them.
      const t1 = performance.now()
      ciphers = await testsslPerProtocol(addr, join(dir, 'e.json'))
      notes.push(
        `suites per protocol from a second run, testssl -E: ${((performance.now() - t1) / 1000).toFixed(1)} s (not in the time above)`,
      )
    }
    const bad = (id: string) => !!get(id) && !['OK', 'INFO'].includes(get(id)!.severity)
    const chain = get('cert_chain_of_trust')?.finding ?? ''
    const expStatus = get('cert_expirationStatus')?.finding ?? ''
    const notAfter = Date.parse((get('cert_notAfter')?.finding ?? '').replace(' ', 'T') + 'Z')
    const keyBits = Number((get('cert_keySize')?.finding ?? '').match(/(\d+) bits/)?.[1] ?? 0)
    const verdicts = [
      'cipherlist_NULL',
      'cipherlist_aNULL',
      'cipherlist_EXPORT',
      'cipherlist_LOW',
      'cipherlist_3DES_IDEA',
      'RC4',
      'BEAST_CBC_TLS1',
    ].map((id) => `${id}=${get(id)?.severity ?? '-'}`)
    // testssl's own weak-suite verdicts, in Ward's classes.
    const offered = (id: string) => /^offered/.test(get(id)?.finding ?? '')
    const own: WeakClass[] = []
    if (offered('cipherlist_NULL')) own.push('null')
    if (offered('cipherlist_aNULL')) own.push('anonymous')
    if (offered('cipherlist_EXPORT')) own.push('export')
    if (bad('RC4')) own.push('rc4')
    if (offered('cipherlist_3DES_IDEA')) own.push('des')
    if (bad('BEAST_CBC_TLS1')) own.push('cbc-tls10')
    return {
      tool: 'testssl',
      ms,
      protocols,
      ciphers,
      weak: classesOf(ciphers),
      certProblems: {
        expired: /expired/i.test(expStatus),
        'not-yet-valid': /not yet valid/i.test(expStatus + chain),
        'expiring-soon': !/expired/i.test(expStatus) && notAfter - Date.now() < 30 * 86_400_000,
        'self-signed': /self.signed/i.test(chain),
        untrusted: !/self.signed/i.test(chain) && bad('cert_chain_of_trust'),
        'hostname-mismatch': bad('cert_trust'),
        'weak-key': keyBits > 0 && keyBits < 2048,
        'weak-signature': /sha1|md5/i.test(get('cert_signatureAlgorithm')?.finding ?? ''),
      },
      notes: [...notes, `testssl verdicts: ${verdicts.join(' ')} → classes ${own.sort().join(' ') || '-'}`, `chain of trust: ${chain}`],
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function testsslPerProtocol(addr: string, json: string): Promise<Record<string, string[]>> {
  await exec('testssl', ['--nodns', 'none', '--quiet', '--color', '0', '-E', '--jsonfile', json, addr], {
    timeout: 600_000,
    maxBuffer: 32 << 20,
  }).catch(() => {})
  const items = JSON.parse(readFileSync(json, 'utf8')) as { id: string; finding: string }[]
  const names: Record<string, string> = { ssl3: 'SSLv3', tls1: 'TLSv1.0', tls1_1: 'TLSv1.1', tls1_2: 'TLSv1.2', tls1_3: 'TLSv1.3' }
  const out: Record<string, string[]> = {}
  for (const i of items) {
    const m = i.id.match(/^cipher-(ssl3|tls1(?:_[123])?)_x[0-9a-f]+$/)
    if (!m) continue
    // "TLS 1.2   xc02f   ECDHE-RSA-AES128-GCM-SHA256   ECDH 253 ...": the name follows the hex code.
    const tokens = i.finding.trim().split(/\s+/)
    const name = tokens[tokens.findIndex((t) => /^x[0-9a-f]+$/i.test(t)) + 1]
    if (name) (out[names[m[1]!]!] ??= []).push(name)
  }
  for (const k of Object.keys(out)) out[k]!.sort()
  return out
}

function print(views: View[]): void {
  const ward = views[0]!
  console.log('\n| tool | time | protocols | suites (per protocol) | weak classes | certificate problems |')
  console.log('|---|---|---|---|---|---|')
  for (const v of views) {
    const probs = Object.entries(v.certProblems)
      .filter(([, x]) => x)
      .map(([k]) => k)
    console.log(
      `| ${v.tool} | ${(v.ms / 1000).toFixed(2)} s | ${v.protocols.join(' ')} | ${PROTOCOLS.filter((p) => v.ciphers[p])
        .map((p) => `${p}:${v.ciphers[p]!.length}`)
        .join(' ')} | ${v.weak.join(' ') || '-'} | ${probs.join(' ') || '-'} |`,
    )
  }
  for (const v of views.slice(1)) {
    console.log(`\n## ward vs ${v.tool}`)
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
    console.log(
      `protocols: ${same(ward.protocols, v.protocols) ? 'agree' : `DIFFER (ward ${ward.protocols.join(' ')}; ${v.tool} ${v.protocols.join(' ')})`}`,
    )
    for (const p of PROTOCOLS) {
      const a = ward.ciphers[p] ?? []
      const b = v.ciphers[p] ?? []
      if (!a.length && !b.length) continue
      const onlyWard = a.filter((x) => !b.includes(x))
      const onlyPeer = b.filter((x) => !a.includes(x))
      console.log(
        `suites ${p}: ${!onlyWard.length && !onlyPeer.length ? `agree (${a.length})` : `DIFFER (only ward: ${onlyWard.join(' ') || '-'}; only ${v.tool}: ${onlyPeer.join(' ') || '-'})`}`,
      )
    }
    console.log(
      `weak classes: ${same(ward.weak, v.weak) ? `agree (${ward.weak.join(' ')})` : `DIFFER (ward ${ward.weak.join(' ')}; ${v.tool} ${v.weak.join(' ')})`}`,
    )
    const checked = CERT_PROBLEMS.filter((p) => v.certProblems[p] !== null)
    const diff = checked.filter((p) => ward.certProblems[p] !== v.certProblems[p])
    console.log(`certificate problems (${checked.length} compared): ${diff.length ? `DIFFER on ${diff.join(', ')}` : 'agree'}`)
    for (const n of v.notes) console.log(`note: ${n}`)
  }
  for (const n of ward.notes) console.log(`ward ${n}`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv.slice(2)).catch((e) => {
    console.error(e)
    process.exit(1)
  })
}
