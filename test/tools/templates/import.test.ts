// `ward admin templates import|list|remove` into the real database, GET /api/v2/templates[/{id}] and
// the Templates page: imported templates beside Ward's shipped library (synced at start).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { zipSync, strToU8 } from 'fflate'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { runAdmin, UsageError } from '../../../src/cli/admin.js'
import { syncShippedTemplates } from '../../../src/cli/shipped-templates.js'
import { createTemplateSource } from '../../../src/engine/template-source.js'
import { SHIPPED_DIR, shippedSummaries } from '../../../src/tools/lib/templates/shipped.js'
import { setPassword, signIn } from '../../helpers/web.js'

const SHIPPED = shippedSummaries()
type Listed = { id: string; source: string; severity: string }
const ids = (rows: Listed[]) => rows.map((t) => t.id)
const imported = (rows: Listed[]) => ids(rows.filter((t) => t.source === 'imported'))

const tpl = (id: string, o: { severity?: string; tags?: string; word?: string; extra?: string } = {}) => `id: ${id}
info:
  name: ${id} name
  author: ward,tester
  severity: ${o.severity ?? 'high'}
  tags: ${o.tags ?? 'exposure,config'}
  description: Finds ${id}.
  reference:
    - https://example.invalid/${id}
  remediation: Remove ${id}.
  classification:
    cve-id: CVE-2099-0${id.length}
    cwe-id: CWE-200
    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N
    cvss-score: 7.5
http:
  - method: GET
    path: ["{{BaseURL}}/${id}"]
${o.extra ?? ''}    matchers:
      - type: word
        words: ["${o.word ?? id}"]
`

let w: TestWard
let dir: string
before(async () => {
  w = await startWard({ worker: false })
  dir = fs.mkdtempSync(path.join(w.dir, 'tpl-'))
})
after(() => w.close())

async function admin(args: string[], flags: Record<string, string> = {}): Promise<string> {
  let out = ''
  const options = Object.entries(flags).flatMap(([k, v]) => (v === 'true' ? [`--${k}`] : [`--${k}`, v]))
  await runAdmin([...args, ...options], w.h, w.config, (s) => (out += s + '\n'))
  return out
}

function writeTree(root: string, files: Record<string, string>) {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
    fs.writeFileSync(path.join(root, rel), text)
  }
}

test('import of a directory: loaded, skipped by reason, payload files from the tree; re-import is unchanged; changes update; --prune removes', async () => {
  const tree = path.join(dir, 'tree')
  writeTree(tree, {
    'http/a-one.yaml': tpl('a-one'),
    'http/b-two.yaml': tpl('b-two', { severity: 'critical', tags: 'cve,kev' }),
    'http/c-pay.yaml': tpl('c-pay', { extra: '    payloads:\n      word: ../lists/words.txt\n' }),
    'lists/words.txt': 'x\ny\n',
    'code/d-code.yaml': 'id: d-code\ninfo: {name: d, author: w, severity: low}\ncode:\n  - engine: [sh]\n    source: id\n',
    'headless/e.yaml': 'id: e-head\ninfo: {name: e, author: w, severity: low}\nheadless:\n  - steps: []\n',
    'headless/f.yaml': 'id: f-head\ninfo: {name: f, author: w, severity: low}\nheadless:\n  - steps: []\n',
    'http/dup.yaml': tpl('a-one'),
    'README.md': '# not a template',
    '.github/workflows/ci.yaml': 'on: push\n',
  })
  const first = JSON.parse(await admin(['templates', 'import', tree], { json: 'true' }))
  assert.deepEqual({ loaded: first.loaded, updated: first.updated, unchanged: first.unchanged }, { loaded: 3, updated: 0, unchanged: 0 })
  assert.deepEqual(first.skipped.map((s: { file: string; reason: string }) => [s.file.replace(tree + ':', ''), s.reason]).sort(), [
    ['code/d-code.yaml', 'code protocol (runs local code) is not supported'],
    ['headless/e.yaml', 'headless (browser) protocol is not supported'],
    ['headless/f.yaml', 'headless (browser) protocol is not supported'],
    ['http/dup.yaml', `duplicate id a-one (first in ${tree}:http/a-one.yaml)`],
  ])
  const again = await admin(['templates', 'import', tree])
  assert.match(again, /^loaded 0, updated 0, unchanged 3, skipped 4\n/)
  assert.match(again, /skipped 2: headless \(browser\) protocol is not supported\n {2}.*headless\/e.yaml\n {2}.*headless\/f.yaml/)
  fs.writeFileSync(path.join(tree, 'http/a-one.yaml'), tpl('a-one', { word: 'changed' }))
  fs.rmSync(path.join(tree, 'http/b-two.yaml'))
  const pruned = JSON.parse(await admin(['templates', 'import', tree], { json: 'true', prune: 'true' }))
  assert.deepEqual(
    { loaded: pruned.loaded, updated: pruned.updated, unchanged: pruned.unchanged, pruned: pruned.pruned },
    { loaded: 0, updated: 1, unchanged: 1, pruned: 1 },
  )
  assert.doesNotMatch(await admin(['templates', 'list']), /b-two/)
})

test('import of .tar.gz and .zip archives as users download them (a top folder, helpers at its root)', async () => {
  const src = path.join(dir, 'nuclei-templates-main')
  writeTree(src, {
    'http/t-tar.yaml': tpl('t-tar', { extra: '    payloads:\n      word: helpers/words.txt\n' }),
    'helpers/words.txt': 'one\n',
  })
  const tgz = path.join(dir, 'main.tar.gz')
  execFileSync('tar', ['czf', tgz, '-C', dir, 'nuclei-templates-main'])
  const r = JSON.parse(await admin(['templates', 'import', tgz], { json: 'true' }))
  assert.deepEqual([r.loaded, r.skipped], [1, []])
  const zip = path.join(dir, 'main.zip')
  fs.writeFileSync(
    zip,
    zipSync({
      'repo-main/http/z-zip.yaml': strToU8(tpl('z-zip', { severity: 'low', tags: 'panel' })),
      'repo-main/http/bad.yaml': strToU8(
        'id: bad\ninfo: {name: b, author: w, severity: low}\nflow: iterate(1) && http(1)\nhttp:\n  - path: ["{{BaseURL}}"]\n    matchers: [{type: status, status: [200]}]\n',
      ),
    }),
  )
  const z = JSON.parse(await admin(['templates', 'import', zip], { json: 'true' }))
  assert.equal(z.loaded, 1)
  assert.deepEqual(z.skipped, [
    { file: `${zip}:repo-main/http/bad.yaml`, reason: 'flow: only http(N) joined by && and || is supported (at "iterate(1) && http(1)")' },
  ])
  await assert.rejects(admin(['templates', 'import', path.join(dir, 'missing.zip')]), UsageError)
  await assert.rejects(admin(['templates', 'import', path.join(dir, 'main.tar.gz'.replace('tar.gz', 'rar'))]), UsageError)
})

test('list filters by tags and severity; remove deletes by id', async () => {
  const crit = await admin(['templates', 'list'], { severity: 'critical' })
  assert.doesNotMatch(crit, /a-one/)
  const panel = await admin(['templates', 'list'], { tags: 'panel' })
  assert.match(panel, /z-zip/)
  assert.doesNotMatch(panel, /a-one/)
  assert.match(await admin(['templates', 'remove', 'z-zip', 'no-such']), /removed 1 template\(s\)/)
  assert.doesNotMatch(await admin(['templates', 'list']), /z-zip/)
})

test('GET /api/v2/templates filters by tags, severity and q, pages; GET /templates/{id} has the YAML; bad input is a 400, unknown a 404', async () => {
  const all: Listed[] = (await w.req('GET', '/api/v2/templates?limit=1000')).json().data
  assert.deepEqual(imported(all), ['a-one', 'c-pay', 't-tar'])
  assert.equal(all.length, 3 + SHIPPED.length, 'the shipped library is listed too')
  assert.deepEqual(ids(all), [...ids(all)].sort(), 'ordered by id')
  const byTag: Listed[] = (await w.req('GET', '/api/v2/templates?tags=config&limit=1000')).json().data
  assert.deepEqual(imported(byTag), ['a-one', 'c-pay', 't-tar'])
  assert.equal(byTag.length, 3 + SHIPPED.filter((t) => t.tags.includes('config')).length)
  assert.deepEqual(ids((await w.req('GET', '/api/v2/templates?q=C-PAY')).json().data), ['c-pay'])
  assert.deepEqual((await w.req('GET', '/api/v2/templates?q=%25')).json().data, [])
  const lowMedium: Listed[] = (await w.req('GET', '/api/v2/templates?severity=low,medium&limit=1000')).json().data
  assert.deepEqual(imported(lowMedium), [])
  assert.equal(lowMedium.length, SHIPPED.filter((t) => ['low', 'medium'].includes(t.severity)).length)
  // "finds" is in the imported descriptions only.
  assert.deepEqual(ids((await w.req('GET', '/api/v2/templates?q=finds&limit=2&page=2')).json().data), ['t-tar'])
  const one = await w.req('GET', '/api/v2/templates/a-one')
  assert.equal(one.statusCode, 200)
  const d = one.json().data
  assert.equal(d.name, 'a-one name')
  assert.equal(d.source, 'imported')
  assert.deepEqual(d.author, ['ward', 'tester'])
  assert.deepEqual(d.classification, {
    cve_id: ['CVE-2099-05'],
    cwe_id: ['CWE-200'],
    cvss_metrics: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    cvss_score: 7.5,
    epss_score: null,
    cpe: null,
  })
  assert.match(d.yaml, /words: \["changed"\]/)
  const missing = await w.req('GET', '/api/v2/templates/nope')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.json().status, 404)
  for (const bad of ['/api/v2/templates?severity=urgent', '/api/v2/templates?limit=0', '/api/v2/templates/a%20b']) {
    const r = await w.req('GET', bad)
    assert.equal(r.statusCode, 400, bad)
    assert.equal(r.json().status, 400)
  }
  assert.equal((await w.req('GET', '/api/v2/templates', { key: null })).statusCode, 401)
  const spec = (await w.req('GET', '/api/v2/openapi.json')).json()
  assert.ok(spec.paths['/api/v2/templates'] && spec.paths['/api/v2/templates/{id}'], Object.keys(spec.paths).join(' '))
})

test('shipped templates: listed by the API, the CLI and the page as shipped; not removable; an imported one of the same id replaces it until removed or pruned', async () => {
  const ID = 'CVE-2021-43798'
  const file = fs.readFileSync(path.join(SHIPPED_DIR, 'cves', `${ID}.yaml`), 'utf8')
  const one = async () => (await w.req('GET', `/api/v2/templates/${ID}`)).json().data
  const listed = async (): Promise<Listed[]> => (await w.req('GET', `/api/v2/templates?q=${ID}`)).json().data
  const shipped = await one()
  assert.deepEqual([shipped.source, shipped.severity, shipped.file_path, shipped.yaml], ['shipped', 'high', `cves/${ID}.yaml`, file])
  assert.deepEqual(shipped.classification.cve_id, [ID])
  const cli = await admin(['templates', 'list'], { tags: 'grafana', severity: 'high' })
  assert.match(cli, new RegExp(`${ID} +high +http +shipped `))

  // Not removable, alone or among imported ones; nothing is removed.
  for (const args of [[ID], ['a-one', ID]])
    await assert.rejects(admin(['templates', 'remove', ...args]), (e: Error) => {
      assert.ok(e instanceof UsageError)
      assert.match(e.message, new RegExp(`^${ID} is shipped with Ward and cannot be removed: .*exclude_ids.*nothing was removed$`))
      return true
    })
  assert.equal((await w.req('GET', '/api/v2/templates/a-one')).statusCode, 200)

  // The operator's own version of the check: listed once, as imported; scans run it, not the shipped one.
  const tree = path.join(dir, 'override')
  writeTree(tree, { [`${ID}.yaml`]: tpl(ID, { severity: 'low', tags: 'grafana,ours' }) })
  const r = JSON.parse(await admin(['templates', 'import', tree], { json: 'true' }))
  assert.deepEqual([r.loaded, r.updated, r.unchanged], [1, 0, 0])
  assert.deepEqual(
    (await listed()).map((t) => [t.source, t.severity]),
    [['imported', 'low']],
  )
  const total = (await w.req('GET', '/api/v2/templates?limit=1000')).json().data.length
  const run = await createTemplateSource(w.h.db).forProtocol('http')
  assert.equal(run.length, total, 'every listed http template runs once')
  assert.match(run.find((t) => t.id === ID)!.yaml, /severity: low/)

  // Removing it gives the shipped one back; so does pruning it.
  assert.match(
    await admin(['templates', 'remove', ID]),
    new RegExp(`removed 1 template\\(s\\); Ward's shipped template is used again for ${ID}`),
  )
  assert.deepEqual(
    (await listed()).map((t) => [t.source, t.severity]),
    [['shipped', 'high']],
  )
  await admin(['templates', 'import', tree])
  assert.equal((await one()).source, 'imported')
  const pruned = JSON.parse(await admin(['templates', 'import', path.join(dir, 'nuclei-templates-main')], { json: 'true', prune: 'true' }))
  assert.ok(pruned.pruned >= 2, JSON.stringify(pruned))
  assert.deepEqual([(await one()).source, (await one()).yaml], ['shipped', file])
  const after: Listed[] = (await w.req('GET', '/api/v2/templates?limit=1000')).json().data
  assert.deepEqual(imported(after), ['t-tar'])
  assert.equal(after.length, 1 + SHIPPED.length, '--prune never prunes shipped templates')

  // The page: the source column and the template's source and text.
  await setPassword(w, w.userId)
  const web = await signIn(w)
  const list = await web.get(`/templates?q=${ID}`)
  assert.equal(list.statusCode, 200)
  assert.match(list.body, new RegExp(`<td><a href="/templates/${ID}">${ID}</a></td>.*<td>shipped</td></tr>`))
  const page = await web.get(`/templates/${ID}`)
  assert.match(page.body, /data-testid="template-source">shipped with Ward/)
  assert.ok(page.body.includes('compare_versions'), 'the shipped text')
  assert.match((await web.get('/templates?q=t-tar')).body, /<td>imported<\/td>/)
})

test('the start-up sync writes only what changed: nothing when current; a changed or removed library file is followed', async () => {
  assert.deepEqual(await syncShippedTemplates(w.h.db), { written: [], removed: 0 })
  // A library of one file, edited (not in the index, so it is parsed): the others go, that one changes.
  const lib = path.join(dir, 'library')
  writeTree(lib, { 'x/jenkins-panel.yaml': tpl('jenkins-panel', { severity: 'critical', tags: 'panel' }) })
  const one = await syncShippedTemplates(w.h.db, lib)
  assert.deepEqual([one.written, one.removed], [['jenkins-panel'], SHIPPED.length - 1])
  const rows: Listed[] = (await w.req('GET', '/api/v2/templates?limit=1000')).json().data
  assert.deepEqual(
    rows.map((t) => [t.id, t.source, t.severity]),
    [
      ['jenkins-panel', 'shipped', 'critical'],
      ['t-tar', 'imported', 'high'],
    ],
  )
  const back = await syncShippedTemplates(w.h.db)
  assert.deepEqual([back.written.length, back.removed], [SHIPPED.length, 0])
  assert.equal(
    (await w.req('GET', '/api/v2/templates/jenkins-panel')).json().data.severity,
    SHIPPED.find((t) => t.id === 'jenkins-panel')!.severity,
  )
})
