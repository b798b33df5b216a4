// The one version → CVE catalogue (tools/lib/versions): well-formed data, one family per CVE, the
// ranges of each family, banners → products, and both the network and the website scanner matching
// through it with the same shared checks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { CATALOGUE, parseCatalogue } from '../../src/tools/lib/versions/catalogue.js'
import { matchEol, matchFamilies, riskFromCvss, normalizeVersion } from '../../src/tools/lib/versions/match.js'
import { productsInBanner, productFromName } from '../../src/tools/lib/versions/fingerprint.js'
import { parseRange } from '../../src/tools/lib/versions/version.js'
import { versionChecks, checkForFamily, familyCheckId } from '../../src/tools/lib/versions/checks.js'
import { netvulnManifest } from '../../src/tools/netvuln/manifest.js'
import { websiteScannerManifest } from '../../src/tools/website-scanner/manifest.js'
import { netvulnChecks } from '../../src/tools/netvuln/checks.js'
import { detectVulnerableVersions } from '../../src/tools/website-scanner/detect/disclosure.js'
import { productKey, type ProductKey } from '../../src/tools/lib/services/products.js'

const cvesOf = (product: ProductKey, version: string, families?: string[]) =>
  matchFamilies(product, version)
    .filter((m) => !families || families.includes(m.family.id))
    .flatMap((m) => m.cves.map((c) => c.id))
    .sort()

/** CVSS v3.1 base score of a vector (the specification's formulas), to check the catalogue's pairs. */
function cvss31(vector: string): number {
  const m = Object.fromEntries(
    vector
      .replace(/^CVSS:3\.[01]\//, '')
      .split('/')
      .map((p) => p.split(':') as [string, string]),
  )
  const w = {
    AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
    AC: { L: 0.77, H: 0.44 },
    UI: { N: 0.85, R: 0.62 },
    CIA: { H: 0.56, L: 0.22, N: 0 },
  } as const
  const changed = m.S === 'C'
  const pr = ({ N: 0.85, L: changed ? 0.68 : 0.62, H: changed ? 0.5 : 0.27 } as Record<string, number>)[m.PR!]!
  const cia = (k: string) => w.CIA[m[k] as 'H' | 'L' | 'N']
  const iss = 1 - (1 - cia('C')) * (1 - cia('I')) * (1 - cia('A'))
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 : 6.42 * iss
  const expl = 8.22 * w.AV[m.AV as 'N'] * w.AC[m.AC as 'L'] * pr * w.UI[m.UI as 'N']
  if (impact <= 0) return 0
  const roundUp = (x: number) => {
    const i = Math.round(x * 100000)
    return i % 10000 === 0 ? i / 100000 : (Math.floor(i / 10000) + 1) / 10
  }
  return roundUp(Math.min((changed ? 1.08 : 1) * (impact + expl), 10))
}

test('catalogue families are well formed: unique ids, parseable ranges, CVE ids, CVSS 0-10 matching the vector, NVD reference', () => {
  const ids = new Set<string>()
  for (const f of CATALOGUE.families) {
    assert.ok(!ids.has(f.id), `duplicate id ${f.id}`)
    ids.add(f.id)
    assert.match(f.id, /^[a-z0-9-]+$/)
    assert.match(f.cwe, /^CWE-\d+$/)
    for (const c of f.cves) {
      assert.doesNotThrow(() => parseRange(c.versions), c.id)
      assert.match(c.id, /^CVE-\d{4}-\d{4,}$/)
      assert.ok(f.references.includes(`https://nvd.nist.gov/vuln/detail/${c.id}`), `${f.id} cites NVD for ${c.id}`)
      assert.ok(c.cvss > 0 && c.cvss <= 10)
      if (c.vector) assert.equal(cvss31(c.vector), c.cvss, `${c.id}: ${c.vector}`)
    }
  }
})

test('one family per CVE: no CVE id appears in two families (one vuln_id per CVE family)', () => {
  const owner = new Map<string, string>()
  for (const f of CATALOGUE.families)
    for (const c of f.cves) {
      assert.ok(!owner.has(c.id), `${c.id} is in ${owner.get(c.id)} and ${f.id}`)
      owner.set(c.id, f.id)
    }
  assert.equal(owner.get('CVE-2021-41773'), owner.get('CVE-2021-42013'), 'CVE-2021-41773 and its incomplete fix are one family')
})

test('a bad catalogue is refused with the place of the problem', () => {
  const good = {
    id: 'x',
    product: 'nginx',
    cwe: 'CWE-1',
    title: 't',
    description: 'd',
    impact: 'i',
    fixed: 'f',
    references: [],
    cves: [{ id: 'CVE-2020-0001', versions: '<1', cvss: 5, vector: null }],
  }
  assert.equal(parseCatalogue({ families: [good] }).families.length, 1)
  assert.throws(() => parseCatalogue({ families: [{ ...good, product: 'nope' }] }), /families\[0\]\.product/)
  assert.throws(() => parseCatalogue({ families: [{ ...good, cves: [{ ...good.cves[0], versions: '~1' }] }] }), /bad comparator/)
  assert.throws(() => parseCatalogue({ families: [{ ...good, cves: [{ ...good.cves[0], cvss: 11 }] }] }), /cves\[0\]\.cvss/)
})

test('the network and the website scanner match Apache 2.4.49 through the one catalogue, to the same check', async () => {
  const families = matchFamilies('apache-httpd', '2.4.49')
  assert.deepEqual(
    families.map((m) => m.family.id),
    ['apache-httpd-path-traversal', 'apache-httpd-mod-lua-multipart'],
  )
  const check = checkForFamily(families[0]!.family)
  assert.equal(check.id, 'cve.apache-httpd-path-traversal')
  assert.ok(netvulnManifest.checks.includes(check), 'tool 350 carries the shared check')
  assert.ok(websiteScannerManifest.checks.includes(check), 'tool 170 carries the shared check')
  const hits = await detectVulnerableVersions({
    url: 'http://127.0.24.1/',
    status: 200,
    headers: { server: 'Apache/2.4.49 (Unix)' },
    setCookies: [],
    body: '',
  })
  assert.deepEqual(
    hits.map((h) => h.check),
    [check, checkForFamily(families[1]!.family)],
  )
  assert.deepEqual(hits[0]!.cve, ['CVE-2021-41773', 'CVE-2021-42013'])
  assert.equal(hits[0]!.risk, 'critical')
})

test('risk follows the CVSS bands', () => {
  assert.equal(riskFromCvss(9.8), 'critical')
  assert.equal(riskFromCvss(9.0), 'critical')
  assert.equal(riskFromCvss(8.9), 'high')
  assert.equal(riskFromCvss(7.0), 'high')
  assert.equal(riskFromCvss(6.9), 'medium')
  assert.equal(riskFromCvss(4.0), 'medium')
  assert.equal(riskFromCvss(3.9), 'low')
  assert.equal(riskFromCvss(0.1), 'low')
  assert.equal(riskFromCvss(0), 'info')
})

test('OpenSSH: regreSSHion for 8.5p1-9.7p1, user enumeration up to 7.7, nothing for 9.8p1 and later', () => {
  assert.deepEqual(cvesOf('openssh', '7.4p1'), ['CVE-2018-15473'])
  assert.deepEqual(cvesOf('openssh', '7.7p1'), ['CVE-2018-15473'])
  assert.deepEqual(cvesOf('openssh', '7.8p1'), [])
  assert.deepEqual(cvesOf('openssh', '8.4p1'), [])
  assert.deepEqual(cvesOf('openssh', '8.5p1'), ['CVE-2024-6387'])
  assert.deepEqual(cvesOf('openssh', '8.9p1'), ['CVE-2024-6387'])
  assert.deepEqual(cvesOf('openssh', '9.7p1'), ['CVE-2024-6387'])
  assert.deepEqual(cvesOf('openssh', '9.8p1'), [])
  assert.deepEqual(cvesOf('openssh', '9.8'), [], 'OpenBSD 9.8 is the same release as portable 9.8p1')
  assert.deepEqual(cvesOf('openssh', '9.9p2'), [])
  assert.equal(normalizeVersion('openssh', '8.9p1'), '8.9')
})

test('Apache httpd: 2.4.49 has both path traversals, 2.4.50 the second, 2.4.48 and earlier the mod_proxy SSRF, mod_lua up to 2.4.51, 2.4.52 none', () => {
  assert.deepEqual(cvesOf('apache-httpd', '2.4.49'), ['CVE-2021-41773', 'CVE-2021-42013', 'CVE-2021-44790'])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.50'), ['CVE-2021-42013', 'CVE-2021-44790'])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.48'), ['CVE-2021-40438', 'CVE-2021-44790'])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.41', ['apache-httpd-mod-proxy-ssrf']), ['CVE-2021-40438'])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.38'), ['CVE-2019-0211', 'CVE-2021-40438', 'CVE-2021-44790'])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.52'), [])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.51'), ['CVE-2021-44790'])
})

test('nginx resolver: 0.6.18-1.20.0 affected, 1.20.1 and 1.21.0 fixed', () => {
  assert.deepEqual(cvesOf('nginx', '1.20.0'), ['CVE-2021-23017'])
  assert.deepEqual(cvesOf('nginx', '1.18.0'), ['CVE-2021-23017'])
  assert.deepEqual(
    cvesOf('nginx', '0.6.17', ['nginx-resolver-off-by-one']),
    [],
    'the range filter overflow (CVE-2017-7529) is its own family',
  )
  assert.deepEqual(cvesOf('nginx', '1.20.1'), [])
  assert.deepEqual(cvesOf('nginx', '1.21.0'), [])
  assert.deepEqual(cvesOf('nginx', '1.26.2'), [])
})

test('FTP servers: vsftpd 2.3.4 backdoor and ProFTPD 1.3.5 mod_copy, exact versions only', () => {
  assert.deepEqual(cvesOf('vsftpd', '2.3.4'), ['CVE-2011-2523'])
  assert.deepEqual(cvesOf('vsftpd', '2.3.5'), [])
  assert.deepEqual(cvesOf('vsftpd', '3.0.5'), [])
  assert.deepEqual(cvesOf('proftpd', '1.3.5'), ['CVE-2015-3306'])
  assert.deepEqual(cvesOf('proftpd', '1.3.5a'), [])
  assert.deepEqual(cvesOf('proftpd', '1.3.5rc3'), [])
  assert.deepEqual(cvesOf('proftpd', '1.3.6'), [])
})

test('Exim: 4.87-4.91 RCE, SNI overflow before 4.92.2', () => {
  // The 2019 families only: later Exim CVEs (21Nails, AUTH EXTERNAL) are covered by catalogue-rows.test.ts.
  const cvesOf2 = (product: ProductKey, version: string) =>
    cvesOf(product, version, ['exim-return-of-the-wizard', 'exim-tls-sni-backslash', 'exim-string-vformat-overflow'])
  assert.deepEqual(cvesOf2('exim', '4.89'), ['CVE-2019-10149', 'CVE-2019-15846'])
  assert.deepEqual(cvesOf2('exim', '4.86'), ['CVE-2019-15846'])
  assert.deepEqual(cvesOf2('exim', '4.92'), ['CVE-2019-15846', 'CVE-2019-16928'])
  assert.deepEqual(cvesOf2('exim', '4.92.1'), ['CVE-2019-15846', 'CVE-2019-16928'])
  assert.deepEqual(cvesOf2('exim', '4.92.2'), ['CVE-2019-16928'])
  assert.deepEqual(cvesOf2('exim', '4.92.3'), [])
  assert.deepEqual(cvesOf2('exim', '4.97'), [])
})

test('Redis Lua use-after-free: per-branch fixed releases', () => {
  const lua = ['redis-lua-use-after-free']
  for (const v of ['5.0.7', '6.2.19', '7.0.15', '7.2.10', '7.4.5', '8.0.3', '8.2.1'])
    assert.deepEqual(cvesOf('redis', v, lua), ['CVE-2025-49844'], v)
  for (const v of ['2.4.10', '6.2.20', '7.2.11', '7.4.6', '8.0.4', '8.2.2', '8.4.0']) assert.deepEqual(cvesOf('redis', v, lua), [], v)
})

test('OpenSSL Heartbleed: 1.0.1 to 1.0.1f and 1.0.2-beta1', () => {
  const hb = ['openssl-heartbleed']
  for (const v of ['1.0.1', '1.0.1a', '1.0.1f', '1.0.2-beta1']) assert.deepEqual(cvesOf('openssl', v, hb), ['CVE-2014-0160'], v)
  for (const v of ['1.0.0t', '1.0.1g', '1.0.2', '1.0.2k', '3.0.13']) assert.deepEqual(cvesOf('openssl', v, hb), [], v)
  assert.deepEqual(cvesOf('openssl', '3.0.6'), ['CVE-2022-3602', 'CVE-2022-3786'])
  assert.deepEqual(cvesOf('openssl', '1.0.2g'), ['CVE-2016-2107'])
  assert.deepEqual(cvesOf('openssl', '3.0.7'), [])
})

test('versions that are not versions match nothing', () => {
  assert.deepEqual(matchFamilies('openssh', ''), [])
  assert.deepEqual(matchFamilies('apache-httpd', 'unknown'), [])
})

test('banners name products and versions, several per banner', () => {
  const pv = (t: string) => productsInBanner(t).map((p) => `${p.product} ${p.version}`)
  assert.deepEqual(pv('SSH-2.0-OpenSSH_7.4p1 Debian-10+deb9u7'), ['openssh 7.4p1'])
  assert.deepEqual(pv('SSH-2.0-OpenSSH_9.8'), ['openssh 9.8'])
  assert.deepEqual(pv('220 (vsFTPd 2.3.4)'), ['vsftpd 2.3.4'])
  assert.deepEqual(pv('220 ProFTPD 1.3.5rc3 Server (Debian) [::ffff:10.0.0.1]'), ['proftpd 1.3.5rc3'])
  assert.deepEqual(pv('220 mx.example.com ESMTP Exim 4.89 Thu, 20 Nov 2026 10:00:00 +0000'), ['exim 4.89'])
  assert.deepEqual(pv('Apache/2.4.49 (Unix) OpenSSL/1.0.1f'), ['apache-httpd 2.4.49', 'openssl 1.0.1f'])
  assert.deepEqual(pv('nginx/1.20.0'), ['nginx 1.20.0'])
  assert.deepEqual(pv('# Server\r\nredis_version:7.2.4\r\nredis_git_sha1:00000000'), ['redis 7.2.4'])
  assert.deepEqual(pv('nginx'), [])
  assert.deepEqual(pv('Apache'), [])
})

test('product names from service detection map onto vocabulary products', () => {
  assert.equal(productFromName('OpenSSH'), 'openssh')
  assert.equal(productFromName('Apache httpd'), 'apache-httpd')
  assert.equal(productFromName('vsftpd'), 'vsftpd')
  assert.equal(productFromName('Exim smtpd'), 'exim')
  assert.equal(productFromName('Redis key-value store'), 'redis')
  assert.equal(productFromName('Microsoft IIS httpd'), 'microsoft-iis')
  assert.equal(productFromName('Pure-FTPd'), null)
  assert.equal(productFromName(null), null)
})

test('checks: netvuln keeps its active checks; one shared version check per family, risk of its worst CVE', () => {
  assert.ok(netvulnChecks.every((c) => /^netvuln\.[a-z]+\.[a-z0-9-]+$/.test(c.id)))
  assert.equal(versionChecks.length, CATALOGUE.families.length + new Set(CATALOGUE.eol.map((b) => b.product)).size)
  for (const f of CATALOGUE.families) {
    const c = checkForFamily(f)
    assert.equal(c.id, familyCheckId(f))
    assert.match(c.id, /^cve\.[a-z0-9-]+$/)
    assert.equal(c.risk, riskFromCvss(Math.max(...f.cves.map((x) => x.cvss))))
    assert.deepEqual(c.cwe, [f.cwe])
    for (const r of c.references) assert.match(r, /^https?:\/\//)
  }
})

test('end of life: the branch of a version once its date has passed, month-only dates from the first of the month', () => {
  const eol = (product: ProductKey, version: string, today: string) => matchEol(product, version, today)?.branch ?? null
  assert.equal(eol('mysql', '5.5.62-0ubuntu0.14.04.1', '2026-11-24'), '5.5')
  assert.equal(eol('mysql', '8.4.3', '2026-11-24'), null)
  assert.equal(eol('mysql', '8.0.40', '2026-03-31'), null, 'MySQL 8.0 ends in April 2026')
  assert.equal(eol('mysql', '8.0.40', '2026-04-01'), '8.0')
  assert.equal(eol('php', '7.4.33', '2026-11-24'), '7.4')
  assert.equal(eol('php', '8.3.1', '2026-11-24'), null)
  assert.equal(eol('openssl', '1.0.2k', '2026-11-24'), '1.0.2')
  assert.equal(eol('openssl', '1.0.1f', '2026-11-24'), '1.0.1 and older')
  assert.equal(eol('openssl', '3.0.13', '2026-09-06'), null)
  assert.equal(eol('openssl', '3.0.13', '2026-09-07'), '3.0')
  assert.equal(eol('openssl', '3.5.1', '2026-11-24'), null)
  assert.equal(eol('postgresql', '9.6.24', '2026-11-24'), '9.6')
  assert.equal(eol('postgresql', '16.4', '2026-11-24'), null)
  assert.equal(eol('microsoft-iis', '6.0', '2026-11-24'), '6.0 (Windows Server 2003)')
  assert.equal(eol('microsoft-iis', '10.0', '2026-11-24'), null)
  for (const b of CATALOGUE.eol) assert.doesNotThrow(() => parseRange(b.versions), b.branch)
})

test('service detection spellings map to the catalogue products (nmap-style and Ward names)', () => {
  const cases: Record<string, string> = {
    OpenSSH: 'openssh',
    'Dropbear sshd': 'dropbear',
    vsftpd: 'vsftpd',
    ProFTPD: 'proftpd',
    'Exim smtpd': 'exim',
    'Postfix smtpd': 'postfix',
    'Dovecot pop3d': 'dovecot',
    'Dovecot imapd': 'dovecot',
    'ISC BIND': 'bind',
    'Apache httpd': 'apache-httpd',
    nginx: 'nginx',
    'Microsoft IIS httpd': 'microsoft-iis',
    Jetty: 'jetty',
    'Eclipse Jetty': 'jetty',
    'Apache Tomcat': 'tomcat',
    'Werkzeug httpd': 'werkzeug',
    'Elasticsearch REST API': 'elasticsearch',
    MySQL: 'mysql',
    MariaDB: 'mariadb',
    'PostgreSQL DB': 'postgresql',
    'Redis key-value store': 'redis',
    Memcached: 'memcached',
    MongoDB: 'mongodb',
    'Samba smbd': 'samba',
    OpenSSL: 'openssl',
    PHP: 'php',
    WordPress: 'wordpress',
    Drupal: 'drupal',
    'Joomla!': 'joomla',
  }
  for (const [name, key] of Object.entries(cases)) assert.equal(productKey(name), key, name)
  assert.equal(productKey('Werkzeug/0.14.1 Python/3.6'), null, 'a whole banner is not a name')
  assert.deepEqual(
    productsInBanner('Werkzeug/2.2.2 Python/3.11.2').map((p) => [p.product, p.version]),
    [['werkzeug', '2.2.2']],
  )
})
