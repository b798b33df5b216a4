// Docs that cannot go stale: every path of src/ that a doc under docs/ names exists (the rule is at the
// top of docs/architecture.md), and the layer list that the layers test enforces is the one the doc
// shows (import-graph.ts reads it from the doc's `layers` block).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { docPaths, markdownFiles, pathExists } from './doc-paths.js'
import { LAYERS, APART, layersFromDoc } from './import-graph.js'

const ROOT = join(import.meta.dirname, '../..')
const SRC = join(ROOT, 'src')
const layerFolders = readdirSync(SRC, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)

test('every file or folder of src/ that a doc under docs/ names exists', (t) => {
  const docs = markdownFiles(join(ROOT, 'docs'), 'docs')
  const named = docs.flatMap((d) => docPaths(d, readFileSync(join(ROOT, d), 'utf8'), layerFolders))
  t.diagnostic(`${docs.length} docs name ${named.length} paths of src/`)
  assert.ok(named.filter((p) => p.doc === 'docs/architecture.md').length >= 50, 'docs/architecture.md names the code it describes')
  const missing = named.filter((p) => !pathExists(SRC, p.path)).map((p) => `${p.doc}:${p.line}: src/${p.path}`)
  assert.deepEqual(missing, [], `docs name paths of src/ that do not exist (moved or renamed?):\n${missing.join('\n')}`)
})

test('the layers of docs/architecture.md are exactly the folders of src/', () => {
  assert.deepEqual([...LAYERS.flat()].sort(), [...layerFolders].sort())
  assert.ok(APART.length > 0, 'api/web and engine are kept apart')
  assert.deepEqual(LAYERS[0], ['cli'])
  assert.deepEqual(LAYERS.at(-1), ['config'])
})

test('the path rule: backticked words starting with src/ or a layer folder; placeholders; code blocks skipped', () => {
  const text = [
    'See `engine/run-scan.ts` `runScan` and `src/store/db.ts:12`, `store/scans.ts queueScan`.',
    'Not paths: `ward admin`, `../shared/DESIGN.md`, `GET /api/v2/scans`, `run-scan.ts`, `engine`.',
    '```',
    '`engine/in-a-code-block.ts`',
    '```',
    'A pattern: `tools/<tool>/manifest.ts`, a folder: `reports/formats/`.',
  ].join('\n')
  assert.deepEqual(
    docPaths('x.md', text, ['engine', 'store', 'tools', 'reports']).map((p) => `${p.line} ${p.path}`),
    ['1 engine/run-scan.ts', '1 store/db.ts', '1 store/scans.ts', '6 tools/<tool>/manifest.ts', '6 reports/formats/'],
  )
  const dir = mkdtempSync(join(tmpdir(), 'ward-docpaths-'))
  try {
    mkdirSync(join(dir, 'tools/a'), { recursive: true })
    mkdirSync(join(dir, 'tools/b'), { recursive: true })
    writeFileSync(join(dir, 'tools/b/run.ts'), '')
    assert.equal(pathExists(dir, 'tools/b/run.ts'), true)
    assert.equal(pathExists(dir, 'tools/<tool>/run.ts'), true, 'one tool has it')
    assert.equal(pathExists(dir, 'tools/<tool>/probes/'), false)
    assert.equal(pathExists(dir, 'tools/a/'), true)
    assert.equal(pathExists(dir, 'tools/c/run.ts'), false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the layers block is read line by line: ranks, shared ranks, never-pairs; a malformed block is an error', () => {
  const doc = (block: string) => `# x\n\n\`\`\`layers\n${block}\n\`\`\`\n`
  assert.deepEqual(layersFromDoc(doc('cli        top\napi / web  middle, with  wide  spaces\nstore      bottom\nnever: api store')), {
    layers: [['cli'], ['api', 'web'], ['store']],
    apart: [['api', 'store']],
  })
  assert.throws(() => layersFromDoc('# no block'), /no ```layers block/)
  assert.throws(() => layersFromDoc(doc('cli  top\nnever: cli ghost')), /ghost/)
  assert.throws(() => layersFromDoc(doc('Cli Layer  top')), /layer name/)
})
