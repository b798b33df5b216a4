// The tool catalogue as a whole: every manifest complete, tool ids and vuln_ids unique across tools,
// each tool's vuln_ids under its own prefix, every check reachable from code that records a finding,
// and the registry readable without loading a single scanner.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { ALL_MANIFESTS, TOOL_MANIFESTS, createToolCatalogue } from '../../src/tools/registry.js'
import { RISK_LEVEL } from '../../src/toolkit/check.js'

const ROOT = resolve(import.meta.dirname, '../..')
const TOOLS = join(ROOT, 'src/tools')

/**
 * Each tool's folder and its vuln_id prefixes. vuln_ids are a public contract, so the prefixes are
 * the shipped ones ('tcp.', 'subdomain.', ...) and stay even where they differ from the folder name;
 * the folder names the checks file (<folder>/checks.ts) and its list export (<folderInCamelCase>Checks).
 */
const LAYOUT: Record<number, { folder: string; prefixes: string[] }> = {
  20: { folder: 'subdomain-finder', prefixes: ['subdomain.'] },
  70: { folder: 'port-scanner', prefixes: ['tcp.', 'open_port', 'cve.', 'eol.', 'backdoor.'] },
  80: { folder: 'udp-scanner', prefixes: ['udp.'] },
  90: { folder: 'url-fuzzer', prefixes: ['fuzzer.'] },
  160: { folder: 'vhost-finder', prefixes: ['vhost.'] },
  170: { folder: 'website-scanner', prefixes: ['website.', 'cve.', 'eol.'] },
  260: { folder: 'sharepoint-scanner', prefixes: ['sharepoint.', 'cve.', 'eol.'] },
  270: { folder: 'wordpress-scanner', prefixes: ['wordpress.', 'cve.', 'eol.'] },
  280: { folder: 'drupal-scanner', prefixes: ['drupal.', 'cve.', 'eol.'] },
  350: { folder: 'netvuln', prefixes: ['netvuln.', 'tcp.exposure.', 'tls.', 'cve.', 'eol.', 'backdoor.'] },
  310: { folder: 'website-recon', prefixes: ['recon.', 'cve.', 'eol.'] },
  400: { folder: 'password-auditor', prefixes: ['password.', 'tcp.exposure.'] },
  450: { folder: 'tls-scanner', prefixes: ['tls.'] },
  9001: { folder: 'diagnostic', prefixes: ['diagnostic.'] },
}
const camel = (folder: string) => folder.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )

test('every manifest is complete and tool ids are unique', () => {
  const ids = new Set<number>()
  for (const m of ALL_MANIFESTS) {
    assert.ok(Number.isInteger(m.id) && m.id > 0, `${m.name}: id`)
    assert.ok(!ids.has(m.id), `tool id ${m.id} twice`)
    ids.add(m.id)
    assert.ok(m.name.trim(), `${m.id}: name`)
    assert.ok(m.description.trim().length > 20, `${m.id}: description`)
    assert.equal((m.params as { type?: string }).type, 'object', `${m.id}: params is an object schema`)
    assert.ok(m.checks.length > 0, `${m.id}: checks`)
    assert.equal(typeof m.supportsMaxScanTime, 'boolean', `${m.id}: supportsMaxScanTime`)
    assert.equal(typeof m.restartable, 'boolean', `${m.id}: restartable`)
    assert.equal(typeof m.needs, 'object', `${m.id}: needs`)
    assert.equal(typeof m.load, 'function', `${m.id}: load`)
    assert.ok(LAYOUT[m.id], `${m.id}: has a folder in LAYOUT`)
  }
  assert.deepEqual(
    createToolCatalogue({ diagnostic: false }).ids(),
    TOOL_MANIFESTS.map((m) => m.id).sort((a, b) => a - b),
  )
  assert.deepEqual(
    createToolCatalogue({ diagnostic: true }).ids(),
    ALL_MANIFESTS.map((m) => m.id).sort((a, b) => a - b),
  )
  assert.equal(createToolCatalogue({ diagnostic: false }).get(9001), undefined)
})

test("every check is filled in, its vuln_id unique across tools and under its tool's prefix", () => {
  // Two tools may report one shared check (tools/lib/tls/checks.ts), never two checks with one vuln_id.
  const owner = new Map<string, { tool: number; check: object }>()
  for (const m of ALL_MANIFESTS) {
    const { prefixes } = LAYOUT[m.id]!
    const own = new Set<string>()
    for (const c of m.checks) {
      assert.ok(!own.has(c.id), `vuln_id ${c.id} twice in tool ${m.id}`)
      own.add(c.id)
      const seen = owner.get(c.id)
      assert.ok(!seen || seen.check === c, `vuln_id ${c.id} names different checks in tool ${m.id} and tool ${seen?.tool}`)
      owner.set(c.id, { tool: m.id, check: c })
      assert.ok(
        prefixes.some((p) => c.id.startsWith(p)),
        `${c.id} (tool ${m.id}) starts with one of ${prefixes.join(', ')}`,
      )
      for (const field of ['name', 'description', 'impact', 'recommendation'] as const) assert.ok(c[field]?.trim(), `${c.id}: ${field}`)
      assert.ok(c.risk in RISK_LEVEL, `${c.id}: risk`)
      assert.ok(Array.isArray(c.cwe), `${c.id}: cwe`)
      assert.ok(c.references.length > 0, `${c.id}: references`)
      assert.equal(typeof c.owasp, 'object', `${c.id}: owasp`)
    }
  }
})

test('each tool folder has checks.ts exporting <folder>Checks, the list its manifest carries', async () => {
  for (const m of ALL_MANIFESTS) {
    const { folder } = LAYOUT[m.id]!
    const mod = (await import(`../../src/tools/${folder}/checks.js`)) as Record<string, unknown>
    const list = mod[`${camel(folder)}Checks`] as readonly { id: string }[] | undefined
    assert.ok(list, `src/tools/${folder}/checks.ts exports ${camel(folder)}Checks`)
    for (const c of list)
      assert.ok(
        m.checks.some((x) => x.id === c.id),
        `${c.id} is in tool ${m.id}'s manifest`,
      )
  }
})

test('every check is reachable from code that records a finding', () => {
  const files = filesUnder(TOOLS)
  const isCatalogue = (f: string) => f.endsWith('/checks.ts') || f.endsWith('/manifest.ts')
  // export const <name> = { id: '<vuln_id>' ...: the identifier code uses for each check.
  const names = new Map<string, string>()
  // Checks built from data (one per CVE catalogue entry) are reached through their lookup function.
  const generated: string[] = []
  for (const f of files.filter((f) => f.endsWith('/checks.ts'))) {
    const text = readFileSync(f, 'utf8')
    for (const x of text.matchAll(/export const (\w+) = \{\s*id: '([^']+)'/g)) names.set(x[2]!, x[1]!)
    for (const x of text.matchAll(/export const (\w+) = \([^)]*\): Check =>/g)) generated.push(x[1]!)
  }
  const libCode = files.filter((f) => f.startsWith(join(TOOLS, 'lib')) && !isCatalogue(f)).map((f) => readFileSync(f, 'utf8'))
  for (const m of ALL_MANIFESTS) {
    const dir = join(TOOLS, LAYOUT[m.id]!.folder)
    const code = files
      .filter((f) => f.startsWith(dir + '/') && !isCatalogue(f))
      .map((f) => readFileSync(f, 'utf8'))
      .concat(libCode)
      .join('\n')
    const used = (name: string) => new RegExp(`\\b${name}\\b`).test(code)
    for (const c of m.checks) {
      const name = names.get(c.id)
      const reachable = name ? used(name) : generated.some(used)
      assert.ok(reachable, `${c.id} (tool ${m.id}${name ? `, ${name}` : ''}) is never used by the tool's code`)
    }
  }
})

test('the registry loads no scanner: its static imports reach only manifests, params, checks and the tool kit', () => {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    for (const st of sf.statements) {
      if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier))
        continue
      // `import type` / `export type` are erased by the compiler: they load nothing at run time.
      if (ts.isImportDeclaration(st) ? st.importClause?.isTypeOnly : st.isTypeOnly) continue
      const spec = st.moduleSpecifier.text
      if (!spec.startsWith('.')) continue
      visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
    }
  }
  visit(join(TOOLS, 'registry.ts'))
  // reports/evidence.ts: the evidence wire shape the tool kit re-exports (types and two constructors);
  // store/coverage.ts: the pure shape of what a scan covered, which the tool kit's recorder writes.
  const allowed =
    /^(src\/reports\/evidence\.ts|src\/store\/coverage\.ts|src\/tools\/registry\.ts|src\/tools\/[a-z-]+\/(manifest|params|checks|ports|top-ports|cve-catalogue|match|version|data\/[a-z-]+)\.ts|src\/tools\/lib\/.*|src\/toolkit\/.*)$/
  const reached = [...seen].map((f) => relative(ROOT, f))
  for (const f of reached) assert.match(f, allowed, `the registry imports ${f}`)
  assert.ok(!reached.some((f) => f.endsWith('/index.ts')), 'no tool index (scanner) is imported')
})
