// Every catalogue row added in the coverage review of issue 18, one table: for each CVE a version
// inside its range matches the family (with that CVE) and a version just outside does not; for each
// end-of-life branch a version of the branch matches it once its date has passed, and a version of
// the next branch does not.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { CATALOGUE } from '../../src/tools/lib/versions/catalogue.js'
import { matchEol, matchFamilies } from '../../src/tools/lib/versions/match.js'
import type { ProductKey } from '../../src/tools/lib/services/products.js'

type CveRow = { family: string; cve: string; inside: string[]; outside: string[] }

const CVE_ROWS: CveRow[] = [
  { family: 'dropbear-user-enumeration', cve: 'CVE-2018-15599', inside: ['2016.74', '2018.76'], outside: ['2019.77', '2022.83'] },
  { family: 'dropbear-listener-double-free', cve: 'CVE-2017-9078', inside: ['2016.74', '2017.74'], outside: ['2017.75', '2019.78'] },
  { family: 'exim-21nails', cve: 'CVE-2020-28017', inside: ['4.89', '4.94', '4.94.1'], outside: ['4.94.2', '4.95'] },
  { family: 'exim-auth-external-oob-write', cve: 'CVE-2023-42115', inside: ['4.94.2', '4.96'], outside: ['4.96.1', '4.97'] },
  {
    family: 'bind-buffer-assertion',
    cve: 'CVE-2016-2776',
    inside: ['9.9.4', '9.9.9-P2', '9.10.4-P2', '9.11.0rc1'],
    outside: ['9.9.9-P3', '9.10.4-P3', '9.11.0rc3', '9.11.0', '8.4.7'],
  },
  {
    family: 'bind-tsig-assertion',
    cve: 'CVE-2020-8617',
    inside: ['9.9.4', '9.11.18', '9.12.4-P2', '9.14.11', '9.16.2', '9.17.1'],
    outside: ['9.11.19', '9.14.12', '9.16.3', '9.17.2', '9.18.0'],
  },
  {
    family: 'tomcat-partial-put-rce',
    cve: 'CVE-2025-24813',
    inside: ['9.0.0.M1', '9.0.31', '9.0.98', '10.1.0-M1', '10.1.34', '11.0.2'],
    outside: ['8.5.100', '9.0.99', '10.1.35', '11.0.3'],
  },
  { family: 'werkzeug-multipart-dos', cve: 'CVE-2023-25577', inside: ['0.14.1', '2.2.2'], outside: ['2.2.3', '3.0.0'] },
  { family: 'werkzeug-debugger-rce', cve: 'CVE-2024-34069', inside: ['2.2.3', '3.0.2'], outside: ['3.0.3', '3.1.0'] },
  { family: 'elasticsearch-dynamic-scripting-rce', cve: 'CVE-2014-3120', inside: ['1.1.1'], outside: ['1.2', '1.2.0', '6.8.23'] },
  { family: 'elasticsearch-groovy-sandbox-escape', cve: 'CVE-2015-1427', inside: ['1.3.7', '1.4.2'], outside: ['1.3.8', '1.4.3', '1.5.0'] },
  {
    family: 'redis-cjson-heap-overflow',
    cve: 'CVE-2022-24834',
    inside: ['2.6.0', '5.0.7', '6.0.16', '6.2.12', '7.0.11'],
    outside: ['2.4.10', '6.0.20', '6.2.13', '7.0.12', '7.2.0'],
  },
  { family: 'memcached-udp-amplification', cve: 'CVE-2018-1000115', inside: ['1.4.15', '1.5.5'], outside: ['1.5.6', '1.6.21'] },
  {
    family: 'samba-vfs-fruit-oob',
    cve: 'CVE-2021-44142',
    inside: ['4.10.18', '4.13.16', '4.14.11', '4.15.4'],
    outside: ['4.13.17', '4.14.12', '4.15.5', '4.16.0'],
  },
  {
    family: 'wordpress-wp-query-sqli',
    cve: 'CVE-2022-21661',
    inside: ['3.7.36', '4.9.18', '5.8', '5.8.2'],
    outside: ['3.6.1', '4.9.19', '5.7.5', '5.8.3', '5.9'],
  },
  {
    family: 'drupal-rest-field-rce',
    cve: 'CVE-2019-6340',
    inside: ['8.5.0', '8.5.10', '8.6.9'],
    outside: ['8.4.8', '8.5.11', '8.6.10', '7.62'],
  },
  { family: 'drupal-drupalgeddon3', cve: 'CVE-2018-7602', inside: ['7.58', '8.4.7', '8.5.2'], outside: ['6.38', '7.59', '8.4.8', '8.5.3'] },
  {
    family: 'nginx-range-filter-overflow',
    cve: 'CVE-2017-7529',
    inside: ['0.5.6', '1.10.3', '1.12.0', '1.13.2'],
    outside: ['0.5.5', '1.12.1', '1.13.3', '1.18.0'],
  },
  {
    family: 'php-cgi-query-string-options',
    cve: 'CVE-2012-1823',
    inside: ['5.2.17', '5.3.11', '5.4.1'],
    outside: ['5.3.12', '5.4.2', '8.1.2'],
  },
  {
    family: 'jetty-encoded-dot-segments',
    cve: 'CVE-2021-34429',
    inside: ['9.4.37', '9.4.42.v20210604', '10.0.5', '11.0.1'],
    outside: ['9.4.36', '9.4.43.v20210629', '10.0.0', '10.0.6', '11.0.6'],
  },
]

type EolRow = { product: ProductKey; branch: string; inside: string[]; outside: string[]; date: string }

const EOL_ROWS: EolRow[] = [
  { product: 'mariadb', branch: '5.3 and older', date: '2017-03-01', inside: ['5.3.12', '5.1.67'], outside: ['5.5.68'] },
  { product: 'mariadb', branch: '10.6', date: '2026-07-06', inside: ['10.6.0', '10.6.21'], outside: ['10.7.8', '10.5.27'] },
  { product: 'mariadb', branch: '10.7', date: '2023-02-09', inside: ['10.7.8'], outside: ['10.8.8'] },
  { product: 'mariadb', branch: '10.8', date: '2023-05-20', inside: ['10.8.8'], outside: ['10.9.8'] },
  { product: 'mariadb', branch: '10.9', date: '2023-08-22', inside: ['10.9.8'], outside: ['10.10.7'] },
  { product: 'mariadb', branch: '10.10', date: '2023-11-17', inside: ['10.10.7'], outside: ['10.11.10'] },
  { product: 'mariadb', branch: '11.0', date: '2024-06-06', inside: ['11.0.6'], outside: ['11.1.6'] },
  { product: 'mariadb', branch: '11.1', date: '2024-08-21', inside: ['11.1.6'], outside: ['11.2.6'] },
  { product: 'mariadb', branch: '11.2', date: '2024-11-21', inside: ['11.2.6'], outside: ['11.3.2'] },
  { product: 'mariadb', branch: '11.3', date: '2024-05-29', inside: ['11.3.2'], outside: ['11.4.4'] },
  { product: 'postgresql', branch: '14', date: '2026-11-12', inside: ['14.10', '14.19'], outside: ['15.8'] },
  { product: 'php', branch: '8.2', date: '2026-12-31', inside: ['8.2.0', '8.2.29'], outside: ['8.3.14'] },
  { product: 'openssl', branch: '3.4', date: '2026-10-22', inside: ['3.4.0', '3.4.1'], outside: ['3.5.1', '3.3.2'] },
  { product: 'mongodb', branch: '6.0', date: '2025-07', inside: ['6.0', '6.0.19'], outside: ['7.0.14'] },
  { product: 'elasticsearch', branch: '7.x', date: '2026-01-15', inside: ['7.17.25', '7.0.0'], outside: ['8.15.0', '6.8.23'] },
  { product: 'tomcat', branch: '10.0', date: '2022-10-31', inside: ['10.0.27'], outside: ['10.1.34', '9.0.98'] },
  { product: 'jetty', branch: '9.3 and older', date: '2020-12-07', inside: ['9.3.30.v20211001', '9.2.28'], outside: ['9.4.43.v20210629'] },
  { product: 'jetty', branch: '10 and 11', date: '2025-01-01', inside: ['10.0.7', '11.0.24'], outside: ['12.0.15', '9.4.56'] },
  { product: 'memcached', branch: '1.4 and older', date: '2017-07-21', inside: ['1.4.15', '1.2.8'], outside: ['1.5.22'] },
  { product: 'memcached', branch: '1.5', date: '2020-03', inside: ['1.5.22'], outside: ['1.6.21'] },
  { product: 'redis', branch: '5.0 and older', date: '2022-04-27', inside: ['5.0.7', '4.0.14'], outside: ['6.0.16'] },
  { product: 'redis', branch: '7.0', date: '2024-07-29', inside: ['7.0.15'], outside: ['7.2.4', '6.2.14'] },
  { product: 'samba', branch: '4.12 and older', date: '2021-09-20', inside: ['4.12.15', '4.6.2', '3.6.25'], outside: ['4.13.17'] },
  { product: 'samba', branch: '4.13', date: '2022-03-21', inside: ['4.13.17'], outside: ['4.14.12'] },
  { product: 'samba', branch: '4.14', date: '2022-09-13', inside: ['4.14.12'], outside: ['4.15.5'] },
  { product: 'samba', branch: '4.15', date: '2023-03-08', inside: ['4.15.13'], outside: ['4.16.11'] },
  { product: 'samba', branch: '4.16', date: '2023-09-04', inside: ['4.16.11'], outside: ['4.17.12'] },
  { product: 'samba', branch: '4.17', date: '2024-03-27', inside: ['4.17.12'], outside: ['4.18.11'] },
  { product: 'samba', branch: '4.18', date: '2024-09-02', inside: ['4.18.11'], outside: ['4.19.9'] },
  { product: 'exim', branch: '4.94 and older', date: '2021-09-28', inside: ['4.89', '4.94.2'], outside: ['4.95'] },
  { product: 'exim', branch: '4.95', date: '2022-06-25', inside: ['4.95'], outside: ['4.96'] },
  { product: 'exim', branch: '4.96', date: '2023-11-04', inside: ['4.96', '4.96.2'], outside: ['4.97'] },
  { product: 'exim', branch: '4.97', date: '2024-07-10', inside: ['4.97.1'], outside: ['4.98'] },
]

const familyOf = (id: string) => CATALOGUE.families.find((f) => f.id === id)

test('each new CVE row: a version inside its range matches its family with that CVE, one outside does not', () => {
  for (const row of CVE_ROWS) {
    const family = familyOf(row.family)
    assert.ok(family, row.family)
    const product = family.product
    const cve = family.cves.find((c) => c.id === row.cve)
    assert.ok(cve, `${row.family} carries ${row.cve}`)
    const hit = (v: string) =>
      matchFamilies(product, v)
        .find((m) => m.family.id === row.family)
        ?.cves.some((c) => c.id === row.cve) ?? false
    for (const v of row.inside) assert.equal(hit(v), true, `${product} ${v} is in ${row.cve} (${cve.versions})`)
    for (const v of row.outside) assert.equal(hit(v), false, `${product} ${v} is outside ${row.cve} (${cve.versions})`)
  }
})

test('each new end-of-life row: a version of the branch matches it from its date on, a version of another branch does not', () => {
  const dayAfter = (date: string) => {
    const d = new Date(`${date.padEnd(10, '-01')}T00:00:00Z`)
    d.setUTCDate(d.getUTCDate() + 1)
    return d.toISOString().slice(0, 10)
  }
  const dayBefore = (date: string) => {
    const d = new Date(`${date.padEnd(10, '-01')}T00:00:00Z`)
    d.setUTCDate(d.getUTCDate() - 1)
    return d.toISOString().slice(0, 10)
  }
  for (const row of EOL_ROWS) {
    const branch = CATALOGUE.eol.find((b) => b.product === row.product && b.branch === row.branch)
    assert.ok(branch, `${row.product} ${row.branch}`)
    assert.equal(branch.date, row.date, `${row.product} ${row.branch} date`)
    const after = dayAfter(row.date)
    for (const v of row.inside) {
      assert.equal(matchEol(row.product, v, after)?.branch, row.branch, `${row.product} ${v} after ${row.date}`)
      assert.equal(matchEol(row.product, v, dayBefore(row.date)), null, `${row.product} ${v} is supported before ${row.date}`)
    }
    for (const v of row.outside)
      assert.notEqual(matchEol(row.product, v, after)?.branch, row.branch, `${row.product} ${v} is not in ${row.branch}`)
  }
})

test("the nginx resolver family now carries NVD's vector, and every catalogue vector is a CVSS 3.x base vector", () => {
  const nginx = familyOf('nginx-resolver-off-by-one')!.cves[0]!
  assert.equal(nginx.vector, 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:L')
  for (const f of CATALOGUE.families)
    for (const c of f.cves)
      if (c.vector) assert.match(c.vector, /^CVSS:3\.1\/AV:[NALP]\/AC:[LH]\/PR:[NLH]\/UI:[NR]\/S:[UC]\/C:[NLH]\/I:[NLH]\/A:[NLH]$/, c.id)
})
