// Ward's shipped template library (templates/): every file loads and reads well (lint), every
// template fires on its site of the library bed and stays silent on the hardened twin, in both its
// plain-404 and soft-404 modes, and none repeats a check the Website Scanner already makes.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { LIBRARY_BED, startLibraryBed, type LibraryBed } from '../../testbed/template-library-site.js'
import {
  loadedShipped,
  mergeWithShipped,
  readShippedLibrary,
  shippedTemplates,
  SHIPPED_DIR,
  SHIPPED_INDEX,
  shippedIndexText,
  shippedSummaries,
  type ShippedTemplate,
} from '../../../src/tools/lib/templates/shipped.js'
import { SENSITIVE_FILES } from '../../../src/tools/website-scanner/detect/files.js'
import { mapLimit } from '../../../src/toolkit/limit.js'
import { egress, run } from './engine-helpers.js'

const library = readShippedLibrary()
const shipped: ShippedTemplate[] = library.templates

let bed: LibraryBed
let twin404: LibraryBed
let twinSoft: LibraryBed
before(async () => {
  bed = await startLibraryBed('127.0.112.1')
  twin404 = await startLibraryBed('127.0.112.2', { clean: 'not-found' })
  twinSoft = await startLibraryBed('127.0.112.3', { clean: 'soft-404' })
})
after(async () => {
  await Promise.all([bed.close(), twin404.close(), twinSoft.close()])
  await egress.close()
})

test('lint: every shipped file loads, ids are unique and name their files, and the info is complete', () => {
  assert.ok(SHIPPED_DIR.endsWith('/templates/'), SHIPPED_DIR)
  // The library is data beside the code: the npm package must carry it (no `files` list leaves it out).
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { files?: string[] }
  assert.ok(!pkg.files || pkg.files.some((f) => /^\/?templates\/?$/.test(f)), 'package.json `files` must list templates/')
  assert.deepEqual(library.problems, [], 'files that do not load')
  // The index lists show without parsing the library; a stale one would show old names and severities.
  assert.equal(readFileSync(join(SHIPPED_DIR, SHIPPED_INDEX), 'utf8'), shippedIndexText(library), 'run npm run templates:index')
  assert.deepEqual(
    shippedSummaries().map((s) => [s.id, s.severity, s.yaml.length]),
    shipped.map((t) => [t.id, t.template.info.severity, t.yaml.length]),
  )
  assert.ok(shipped.length >= 150, `${shipped.length} shipped templates`)
  const bad: string[] = []
  for (const { id, path, template: t } of shipped) {
    const say = (why: string) => bad.push(`${path}: ${why}`)
    if (basename(path) !== `${id}.yaml`) say(`file name is not ${id}.yaml`)
    if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(id)) say('id is not kebab-case')
    if (!['info', 'low', 'medium', 'high', 'critical'].includes(t.info.severity)) say(`severity ${t.info.severity}`)
    if (t.info.author.join() !== 'ward') say('author is not ward')
    if (!t.info.name || !t.info.description || !t.info.remediation) say('name, description or remediation missing')
    if (!t.info.tags.length || !t.info.reference.length) say('tags or reference missing')
    if (t.protocol !== 'http') say(`protocol ${t.protocol}`)
    for (const b of t.http) {
      if (!b.matchers.some((m) => m.type !== 'status' && !m.negative)) say('a request block has no positive matcher besides status')
      if (b.matchersCondition !== 'and') say('matchers-condition is not and')
    }
    if (path.startsWith('cves/')) {
      if (!t.info.classification.cveId.includes(id)) say('a CVE template is named by its CVE id, which its classification holds')
      if (!t.info.tags.includes('cve')) say('cve tag missing')
    }
  }
  assert.deepEqual(bad, [])
})

test('no shipped template requests a file the Website Scanner already checks (one check says it, not two)', () => {
  const builtIn = new Set(SENSITIVE_FILES.map((f) => f.path.toLowerCase()))
  const dup = shipped.flatMap(({ id, template: t }) =>
    t.http.flatMap((b) =>
      b.paths
        .map((p) => p.replace('{{BaseURL}}', '').toLowerCase())
        .filter((p) => builtIn.has(p) || /^\/\.(git|svn|hg|env)(\/|$)/.test(p))
        .map((p) => `${id}: ${p}`),
    ),
  )
  assert.deepEqual(dup, [])
})

test('every shipped template has a bed entry, and every bed entry a template', () => {
  const ids = new Set(shipped.map((t) => t.id))
  assert.deepEqual(
    shipped.filter((t) => !LIBRARY_BED[t.id]).map((t) => t.id),
    [],
    'shipped templates without a site in test/testbed/template-library-site.ts',
  )
  assert.deepEqual(
    Object.keys(LIBRARY_BED).filter((id) => !ids.has(id)),
    [],
    'bed entries of no shipped template',
  )
})

test('every shipped template fires on its bed site and stays silent on the clean twin (404 and soft-404)', async (t) => {
  const wrong: string[] = []
  await mapLimit(shipped, 8, new AbortController().signal, async ({ id, template }) => {
    const fire = await run(template, bed.base(id))
    if (fire.status !== 'matched') wrong.push(`${id}: bed ${fire.status} ${JSON.stringify(fire).slice(0, 300)}`)
    for (const [name, twin] of [
      ['twin (404)', twin404],
      ['twin (soft-404)', twinSoft],
    ] as const) {
      const o = await run(template, twin.base(id))
      if (o.status !== 'clean') wrong.push(`${id}: ${name} ${o.status} ${JSON.stringify(o).slice(0, 300)}`)
    }
  })
  t.diagnostic(`${shipped.length} templates, each against the bed and two twins`)
  assert.deepEqual(wrong, [])
})

test('an imported template with a shipped id replaces the shipped one; other ids add up', () => {
  const s = (id: string, yaml: string) => ({ id, path: `${id}.yaml`, yaml, files: {} })
  const merged = mergeWithShipped(
    [s('nginx-default-page', 'mine'), s('zz-team-check', 'ours')],
    [s('nginx-default-page', 'shipped'), s('apache-default-page', 'shipped')],
  )
  assert.deepEqual(
    merged.map((t) => [t.id, t.yaml]),
    [
      ['apache-default-page', 'shipped'],
      ['nginx-default-page', 'mine'],
      ['zz-team-check', 'ours'],
    ],
  )
})

test('the built dist/ finds the same library (data files resolved from the package root, not compiled)', async () => {
  const built = (await import(new URL('../../../dist/tools/lib/templates/shipped.js', import.meta.url).href)) as {
    SHIPPED_DIR: string
    readShippedLibrary: typeof readShippedLibrary
  }
  assert.equal(built.SHIPPED_DIR, SHIPPED_DIR)
  assert.equal(built.readShippedLibrary().templates.length, shipped.length)
})

test('a scan reuses the loaded shipped templates; an imported text under a shipped id is loaded afresh', () => {
  const stored = shippedTemplates('http')
  assert.equal(stored.length, shipped.length)
  const one = stored.find((s) => s.id === 'nginx-default-page')!
  assert.equal(loadedShipped(one)?.id, 'nginx-default-page')
  assert.equal(loadedShipped(one), loadedShipped({ ...one }), 'the same loaded object every time')
  assert.equal(loadedShipped({ ...one, yaml: one.yaml.replace('nginx default page', 'our nginx check') }), undefined)
  assert.equal(loadedShipped({ ...one, id: 'zz-team-check' }), undefined)
})
