// docs/vulnerabilities.md, generated from the shipped catalogue (src/tools/lib/versions/catalogue.json)
// so the page cannot drift from the data: test/tools/vulnerability-docs.test.ts compares the two.
//
//   node --import tsx scripts/vuln-table.ts          rewrites docs/vulnerabilities.md
//   node --import tsx scripts/vuln-table.ts --check  exits 1 when the page is stale
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CATALOGUE, type Catalogue, type CveFamily, type EolBranch } from '../src/tools/lib/versions/catalogue.js'
import { PRODUCTS, type ProductKey } from '../src/tools/lib/services/products.js'
import { compareVersions } from '../src/tools/lib/versions/version.js'

export const DOC_PATH = fileURLToPath(new URL('../docs/vulnerabilities.md', import.meta.url))

/** The products issue 18 names as the most exposed, in its order: the coverage table lists each, covered or not. */
export const EXPOSED_PRODUCTS: readonly ProductKey[] = [
  'vsftpd', 'proftpd', 'openssh', 'dropbear', 'exim', 'postfix', 'dovecot', 'bind', 'apache-httpd', 'nginx', 'microsoft-iis',
  'jetty', 'tomcat', 'werkzeug', 'elasticsearch', 'mysql', 'mariadb', 'postgresql', 'redis', 'memcached', 'mongodb', 'samba',
  'openssl', 'php', 'wordpress', 'drupal', 'sharepoint', 'joomla', 'jquery',
]

/**
 * What the review left out on purpose, with the reason: data a reader needs to trust the table, kept
 * here so the page stays one generated file.
 */
const NOT_SHIPPED: ReadonlyArray<[string, string]> = [
  ['OpenSSH: Terrapin (CVE-2023-48795)', 'the distributions backported strict key exchange into the OpenSSH releases they ship (security updates of December 2023), so a version match would mostly be wrong; the server\'s KEXINIT proves it (chacha20-poly1305 or an -etm MAC offered without kex-strict-s-v00@openssh.com), which makes it an active check for netvuln rather than a catalogue row.'],
  ['MongoDB: MongoBleed (CVE-2025-14847)', 'Ward usually learns MongoDB\'s branch only (the first release of its maxWireVersion, "7.0"), and every branch has fixed patch releases, so the row would flag patched servers; an imported NVD feed reports it where Ward reads an exact version.'],
  ['PHP: CVE-2024-4577 (CGI argument injection)', 'affects PHP-CGI on Windows with certain code pages only; X-Powered-By does not say either, so most matches would be false.'],
  ['Apache httpd: CVE-2023-25690 (mod_proxy request smuggling, 2.4.0 to 2.4.55)', 'needs mod_proxy with a RewriteRule or ProxyPassMatch that re-inserts user data, so most 2.4 servers are not exposed; a candidate to add once the exact expectations of the Apache 2.4.49 beds (website scanner, version catalogue, port scanner, netvuln tests) can change with it.'],
  ['OpenSSL: CVE-2022-0778 (BN_mod_sqrt loop)', 'its 1.0.2 range ends at 1.0.2zc; the catalogue\'s version order reads "zc" as a word and "k" as a letter, so 1.0.2k would sort above 1.0.2zd. Needs a version-order change first.'],
  ['ProFTPD: CVE-2019-12815 (mod_copy again, up to 1.3.5b)', 'NVD and the researcher disagree on whether 1.3.6 is affected.'],
  ['Joomla: CVE-2015-8562', 'NVD scored it with CVSS v2 only; the catalogue carries v3.1 scores.'],
  ['End of life: nginx, ProFTPD, Dovecot, Postfix', 'the vendors support only the newest branches and publish no end dates; every distribution nginx would be flagged. Postfix and Dovecot banners rarely carry a version anyway.'],
  ['End of life: Dropbear, Werkzeug, BIND 9.12 to 9.15 and 9.18, Samba 4.19 and later, Jetty 9.4, MySQL innovation releases', 'no vendor date found that the review could confirm (Samba\'s planning page gives 4.19\'s end as approximate; Jetty 9.4: community support ended 2022-06 but releases went on to 2025; MySQL 8.1 to 9.x: sources disagree).'],
]

const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
const code = (s: string) => `\`${esc(s)}\``
const label = (p: ProductKey) => PRODUCTS[p].label

function familiesOf(c: Catalogue, p: ProductKey): CveFamily[] {
  return c.families.filter((f) => f.product === p)
}

/** The lowest version of a branch ('>=10.6 <10.7' -> '10.6'; '<5.5' -> '0'), to list branches oldest first. */
const lowest = (b: EolBranch) => />=(\S+)/.exec(b.versions)?.[1] ?? '0'

/** End-of-life branches, oldest release first. */
function eolOf(c: Catalogue, p: ProductKey): EolBranch[] {
  return c.eol.filter((b) => b.product === p).sort((a, b) => compareVersions(lowest(a), lowest(b)))
}

function productSection(c: Catalogue, p: ProductKey): string[] {
  const fams = familiesOf(c, p)
  const eol = eolOf(c, p)
  const out = [`### ${label(p)}`, '']
  if (!fams.length && !eol.length) return [...out, 'Nothing shipped: see "Not shipped, and why" below, or import the NVD feeds.', '']
  if (fams.length) {
    out.push('| Check | Title | CVE | Affected versions | CVSS v3 | CWE | Fixed in |', '| --- | --- | --- | --- | --- | --- | --- |')
    for (const f of fams)
      for (const [i, cve] of f.cves.entries())
        out.push(`| ${i ? '' : code(`cve.${f.id}`)} | ${i ? '' : esc(f.title)} | [${cve.id}](https://nvd.nist.gov/vuln/detail/${cve.id}) | ${code(cve.versions)} | ${cve.cvss}${cve.vector ? ` ${code(cve.vector.replace(/^CVSS:3\.[01]\//, ''))}` : ''} | ${i ? '' : f.cwe} | ${i ? '' : esc(f.fixed)} |`)
    out.push('')
  }
  if (eol.length) {
    out.push(`End of life (check ${code(`eol.${p}`)}):`, '', '| Branch | Versions | End of life | Source |', '| --- | --- | --- | --- |')
    for (const b of eol) out.push(`| ${esc(b.branch)} | ${code(b.versions)} | ${b.date} | ${b.reference} |`)
    out.push('')
  }
  return out
}

/** The whole page for a catalogue. Pure: the test renders the shipped catalogue and compares. */
export function renderVulnerabilityTable(c: Catalogue = CATALOGUE): string {
  const cves = c.families.reduce((n, f) => n + f.cves.length, 0)
  const others = [...new Set([...c.families.map((f) => f.product), ...c.eol.map((b) => b.product)])].filter((p) => !EXPOSED_PRODUCTS.includes(p)).sort()
  const lines = [
    '# Vulnerability knowledge shipped with Ward',
    '',
    '<!-- Generated by scripts/vuln-table.ts from src/tools/lib/versions/catalogue.json: edit the catalogue, then run',
    '     `node --import tsx scripts/vuln-table.ts`. test/tools/vulnerability-docs.test.ts fails when this page is stale. -->',
    '',
    `The catalogue every tool matches product versions against (network, port and website scanners): ${c.families.length} CVE families with ${cves} CVEs, and ${c.eol.length} end-of-life branches of ${new Set(c.eol.map((b) => b.product)).size} products. It is the default that works with no import; \`ward admin cve import\` adds NVD's CVE API 2.0 feeds on top, and \`ward admin kev import\` / \`ward admin epss import\` enrich every finding (see docs/outputs.md).`,
    '',
    'How to read it:',
    '',
    '- A family is one problem, reported as one finding (`cve.<family>`), that may span several CVEs (an incomplete fix and its sequel); each CVE keeps its own range and score, and a finding carries the CVEs that match the version seen, with the highest of their scores as `cvss_score`.',
    '- Ranges use the grammar of src/tools/lib/versions/version.ts (`>=9.4.37 <9.4.43 || >=10.0.1 <10.0.6`): `||` separates alternatives, all comparators of one alternative must hold. Portable OpenSSH\'s `p1` is ignored (8.9p1 is 8.9).',
    '- Scores and vectors are NVD\'s CVSS v3 base metrics (v3.0 vectors are written as v3.1: the base metrics and the score are the same, which the tests recompute); where NVD did not score v3, the CNA\'s or CISA\'s score is used and the family\'s `note` says so.',
    '- Matches are inferred from a version in a banner or header: distributions backport fixes, so a finding says "check", not "exploited".',
    '- End of life is a finding of its own (`eol.<product>`, risk medium) from the branch\'s end date on; month-only dates count from the month\'s first day. Dates are the vendor\'s, cross-checked with endoflife.date.',
    '- Where a project maintains only its newest release or branches (Exim, memcached; Redis maintains the latest release, its previous minor and the previous major), a branch ends on the release date of the branch that superseded it, as the project\'s policy says; endoflife.date records the same dates.',
    '- CVE facts were checked against NVD\'s records (the fkie-cad/nvd-json-data-feeds mirror) during the review of 2026-11-25.',
    '',
    '## Coverage of the most exposed products',
    '',
    '| Product | CVE families | CVEs | End-of-life branches |',
    '| --- | --- | --- | --- |',
    ...EXPOSED_PRODUCTS.map((p) => {
      const fams = familiesOf(c, p)
      const eol = eolOf(c, p)
      const ids = fams.flatMap((f) => f.cves.map((x) => x.id))
      return `| ${label(p)} | ${fams.length ? fams.map((f) => code(f.id)).join(', ') : 'none'} | ${ids.length ? ids.join(', ') : '-'} | ${eol.length ? eol.map((b) => esc(b.branch)).join(', ') : 'none'} |`
    }),
    '',
    '## By product',
    '',
    ...EXPOSED_PRODUCTS.flatMap((p) => productSection(c, p)),
    '## Other products in the catalogue',
    '',
    'Client-side libraries the website scanner reads from script URLs and banners.',
    '',
    ...others.flatMap((p) => productSection(c, p)),
    '## Not shipped, and why',
    '',
    ...NOT_SHIPPED.map(([what, why]) => `- **${esc(what)}**: ${why}`),
    '',
  ]
  return lines.join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = renderVulnerabilityTable()
  if (process.argv.includes('--check')) {
    const current = readFileSync(DOC_PATH, 'utf8')
    if (current !== page) {
      console.error('docs/vulnerabilities.md is stale: run node --import tsx scripts/vuln-table.ts')
      process.exit(1)
    }
  } else {
    writeFileSync(DOC_PATH, page)
    console.log(`wrote ${DOC_PATH}`)
  }
}
