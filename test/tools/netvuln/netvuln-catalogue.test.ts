import { test } from 'node:test'
import assert from 'node:assert/strict'
import { CVE_CATALOGUE } from '../../../src/tools/lib/versions/cve-catalogue.js'
import { matchCves, riskFromCvss, normalizeVersion } from '../../../src/tools/lib/versions/match.js'
import { productsInBanner, productFromName } from '../../../src/tools/lib/versions/fingerprint.js'
import { parseRange } from '../../../src/tools/lib/versions/version.js'
import { netvulnChecks, netvulnActiveChecks, checkForCve, cveCheckId } from '../../../src/tools/netvuln/checks.js'

const cvesOf = (product: Parameters<typeof matchCves>[0], version: string) => matchCves(product, version).flatMap((e) => e.cves).sort()

test('catalogue entries are well formed: unique ids, parseable ranges, CVE ids, CVSS 0-10, NVD reference', () => {
  const ids = new Set<string>()
  for (const e of CVE_CATALOGUE) {
    assert.ok(!ids.has(e.id), `duplicate id ${e.id}`)
    ids.add(e.id)
    assert.match(e.id, /^[a-z0-9-]+$/)
    assert.doesNotThrow(() => parseRange(e.versions), e.id)
    assert.ok(e.cves.length > 0)
    for (const c of e.cves) {
      assert.match(c, /^CVE-\d{4}-\d{4,}$/)
      assert.ok(e.references.includes(`https://nvd.nist.gov/vuln/detail/${c}`), `${e.id} cites NVD for ${c}`)
    }
    assert.ok(e.cvss > 0 && e.cvss <= 10)
    assert.match(e.cwe, /^CWE-\d+$/)
  }
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

test('Apache httpd: 2.4.49 has both path traversals, 2.4.50 the second, 2.4.48 and 2.4.51 none', () => {
  assert.deepEqual(cvesOf('apache-httpd', '2.4.49'), ['CVE-2021-41773', 'CVE-2021-42013'])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.50'), ['CVE-2021-42013'])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.48'), [])
  assert.deepEqual(cvesOf('apache-httpd', '2.4.51'), [])
})

test('nginx resolver: 0.6.18-1.20.0 affected, 1.20.1 and 1.21.0 fixed', () => {
  assert.deepEqual(cvesOf('nginx', '1.20.0'), ['CVE-2021-23017'])
  assert.deepEqual(cvesOf('nginx', '1.18.0'), ['CVE-2021-23017'])
  assert.deepEqual(cvesOf('nginx', '0.6.17'), [])
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
  assert.deepEqual(cvesOf('exim', '4.89'), ['CVE-2019-10149', 'CVE-2019-15846'])
  assert.deepEqual(cvesOf('exim', '4.86'), ['CVE-2019-15846'])
  assert.deepEqual(cvesOf('exim', '4.92'), ['CVE-2019-15846'])
  assert.deepEqual(cvesOf('exim', '4.92.1'), ['CVE-2019-15846'])
  assert.deepEqual(cvesOf('exim', '4.92.2'), [])
  assert.deepEqual(cvesOf('exim', '4.97'), [])
})

test('Redis Lua use-after-free: per-branch fixed releases', () => {
  for (const v of ['5.0.7', '6.2.19', '7.0.15', '7.2.10', '7.4.5', '8.0.3', '8.2.1']) assert.deepEqual(cvesOf('redis', v), ['CVE-2025-49844'], v)
  for (const v of ['2.4.10', '6.2.20', '7.2.11', '7.4.6', '8.0.4', '8.2.2', '8.4.0']) assert.deepEqual(cvesOf('redis', v), [], v)
})

test('OpenSSL Heartbleed: 1.0.1 to 1.0.1f and 1.0.2-beta1', () => {
  for (const v of ['1.0.1', '1.0.1a', '1.0.1f', '1.0.2-beta1']) assert.deepEqual(cvesOf('openssl', v), ['CVE-2014-0160'], v)
  for (const v of ['1.0.0t', '1.0.1g', '1.0.2', '1.0.2k', '3.0.13']) assert.deepEqual(cvesOf('openssl', v), [], v)
})

test('versions that are not versions match nothing', () => {
  assert.deepEqual(matchCves('openssh', ''), [])
  assert.deepEqual(matchCves('apache-httpd', 'unknown'), [])
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

test('product names from service detection map onto catalogue products', () => {
  assert.equal(productFromName('OpenSSH'), 'openssh')
  assert.equal(productFromName('Apache httpd'), 'apache-httpd')
  assert.equal(productFromName('vsftpd'), 'vsftpd')
  assert.equal(productFromName('Exim smtpd'), 'exim')
  assert.equal(productFromName('Redis key-value store'), 'redis')
  assert.equal(productFromName('Microsoft IIS httpd'), null)
  assert.equal(productFromName(null), null)
})

test('checks: unique ids under netvuln., CWE and OWASP formats, one check per catalogue entry', () => {
  const ids = netvulnChecks.map((c) => c.id)
  assert.equal(new Set(ids).size, ids.length)
  assert.equal(netvulnChecks.length, netvulnActiveChecks.length + CVE_CATALOGUE.length)
  for (const c of netvulnChecks) {
    assert.match(c.id, /^netvuln\.[a-z]+\.[a-z0-9-]+$/)
    assert.ok(c.cwe.length > 0)
    for (const w of c.cwe) assert.match(w, /^CWE-\d+$/)
    for (const [year, v] of Object.entries(c.owasp)) if (v) assert.match(v, new RegExp(`^A\\d{1,2}:${year}-.+`), c.id)
    assert.ok(c.references.length > 0)
    for (const r of c.references) assert.match(r, /^https?:\/\//)
    assert.ok(c.description && c.impact && c.recommendation)
  }
  for (const e of CVE_CATALOGUE) {
    const c = checkForCve(e)
    assert.equal(c.id, cveCheckId(e))
    assert.equal(c.risk, riskFromCvss(e.cvss))
    assert.deepEqual(c.cwe, [e.cwe])
  }
})
