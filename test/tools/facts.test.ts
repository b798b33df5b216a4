// One fact, one id: a check two tools can report is one catalogue entry (one object, one vuln_id,
// so one dedup identity), and no two entries of the catalogues describe the same fact under two ids.
// "Same fact" is read from the catalogue data: the same kind of problem (logins without
// authentication: anonymous, no password, unauthenticated), on the same service (named in the
// title), over the same transport. Version checks (cve.*, eol.*) are one entry per CVE family and
// left out.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Check } from '../../src/toolkit/check.js'
import { TOOL_MANIFESTS } from '../../src/tools/registry.js'
import { diagnosticManifest } from '../../src/tools/diagnostic/manifest.js'

const SERVICES = [
  'ftp',
  'tftp',
  'ssh',
  'telnet',
  'smtp',
  'redis',
  'memcached',
  'mongodb',
  'elasticsearch',
  'postgresql',
  'mysql',
  'mssql',
  'rdp',
  'vnc',
  'smb',
  'docker',
  'dns',
  'ntp',
  'snmp',
  'ssdp',
  'netbios',
  'ldap',
  'wordpress',
  'drupal',
  'jenkins',
  'tomcat',
  'grafana',
]

/** Who lists a check: vuln_id → the check objects and the tools listing them. */
function catalogue() {
  const byId = new Map<string, { checks: Set<Check>; tools: Set<number> }>()
  for (const m of [...TOOL_MANIFESTS, diagnosticManifest])
    for (const c of m.checks) {
      const e = byId.get(c.id) ?? { checks: new Set(), tools: new Set() }
      e.checks.add(c)
      e.tools.add(m.id)
      byId.set(c.id, e)
    }
  return byId
}

/** The fact a check states, or null when its title names no service (generic checks). */
const NO_AUTH = /\banonymous\b|without (any )?(authentication|a password|password)|\bunauthenticated\b|\bno password\b|default community/i

export function factOf(c: Check): string | null {
  if (/^(cve|eol)\./.test(c.id)) return null
  const title = c.name.toLowerCase()
  const words = new Set(title.split(/[^a-z0-9]+/))
  const service = SERVICES.find((s) => words.has(s))
  const kind = NO_AUTH.test(`${c.name} ${c.id.replace(/[.-]/g, ' ')}`) ? 'no-authentication' : null
  if (!service || !kind) return null
  const transport = c.id.startsWith('udp.') || words.has('udp') ? 'udp' : 'tcp'
  return `${kind} ${service} ${transport}`
}

/** Pairs of distinct vuln_ids that state the same fact. */
export function sameFacts(checks: Iterable<Check>): string[][] {
  const byFact = new Map<string, Set<string>>()
  for (const c of checks) {
    const f = factOf(c)
    if (f) byFact.set(f, (byFact.get(f) ?? new Set()).add(c.id))
  }
  return [...byFact.values()].filter((ids) => ids.size > 1).map((ids) => [...ids].sort())
}

test('a vuln_id listed by two tools is one catalogue entry (one object)', () => {
  const split = [...catalogue()].filter(([, e]) => e.checks.size > 1).map(([id, e]) => `${id} (tools ${[...e.tools].join(', ')})`)
  assert.deepEqual(split, [])
})

test('no two vuln_ids state the same fact (same kind, same service, same transport)', () => {
  const all = [...catalogue().values()].flatMap((e) => [...e.checks])
  assert.deepEqual(sameFacts(all), [])
})

test('the fact check catches the pairs it was written for (anonymous FTP, Redis without authentication under two ids)', () => {
  const ftp = { id: 'tcp.exposure.ftp-anonymous', name: 'FTP anonymous login allowed', cwe: ['CWE-284'] } as unknown as Check
  const ftp2 = { id: 'netvuln.ftp.anonymous-login', name: 'Anonymous FTP login allowed', cwe: ['CWE-284'] } as unknown as Check
  const redis = {
    id: 'tcp.exposure.redis-unauthenticated',
    name: 'Redis accessible without authentication',
    cwe: ['CWE-306'],
  } as unknown as Check
  const redis2 = {
    id: 'netvuln.redis.no-auth',
    name: 'Redis accepts commands without authentication',
    cwe: ['CWE-306'],
  } as unknown as Check
  const udp = { id: 'udp.memcached.exposed', name: 'memcached answers over UDP', cwe: ['CWE-406'] } as unknown as Check
  const tcp = { id: 'netvuln.memcached.no-auth', name: 'memcached answers without authentication', cwe: ['CWE-306'] } as unknown as Check
  assert.deepEqual(sameFacts([ftp, ftp2, redis, redis2, udp, tcp]), [
    [ftp2.id, ftp.id],
    [redis2.id, redis.id],
  ])
})
