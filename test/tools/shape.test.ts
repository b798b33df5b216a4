// Every tool folder has the same shape, so a newcomer finds the same things in the same places:
// manifest.ts (id, name, params, checks, lazy load of run.ts), params.ts, checks.ts (the catalogue),
// run.ts (the sequence), output.ts, probes/ (I/O) and detect/ (pure, each module tested).
// Allowed beside them: a data/ folder, .json data files and a wordlists/ folder.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')
const TOOLS = join(ROOT, 'src/tools')

/** Tools still being brought into the shape on another branch: checked, but only reported. */
const PENDING = new Set<string>([])

const FILES = ['manifest.ts', 'params.ts', 'checks.ts', 'run.ts', 'output.ts']
const FOLDERS = ['probes', 'detect']
const EXTRA_FOLDERS = ['data', 'wordlists']

const toolFolders = () => readdirSync(TOOLS).filter((n) => n !== 'lib' && statSync(join(TOOLS, n)).isDirectory())
const tsFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? tsFiles(p) : n.endsWith('.ts') ? [p] : []
  })

/** What is wrong with the shape of the tool folder `name` (empty: nothing). */
function shapeProblems(name: string, dir = join(TOOLS, name)): string[] {
  const entries = readdirSync(dir)
  const problems: string[] = []
  for (const f of FILES) if (!entries.includes(f)) problems.push(`no ${f}`)
  for (const d of FOLDERS) {
    if (!entries.includes(d) || !statSync(join(dir, d)).isDirectory()) problems.push(`no ${d}/`)
    else if (!tsFiles(join(dir, d)).length) problems.push(`${d}/ holds no module`)
  }
  for (const e of entries) {
    const isDir = statSync(join(dir, e)).isDirectory()
    const allowed = isDir ? [...FOLDERS, ...EXTRA_FOLDERS].includes(e) : FILES.includes(e) || e.endsWith('.json')
    if (!allowed) problems.push(`unexpected ${isDir ? 'folder' : 'file'} ${e}${isDir ? '/' : ''}`)
  }
  const manifest = entries.includes('manifest.ts') ? readFileSync(join(dir, 'manifest.ts'), 'utf8') : ''
  if (manifest && !/import\('\.\/run\.js'\)/.test(manifest)) problems.push("manifest.ts does not load './run.js' lazily")
  return problems
}

test('every tool folder has exactly the tool shape', () => {
  const folders = toolFolders()
  assert.ok(folders.length >= 13, `tool folders found: ${folders.join(', ')}`)
  const failures: string[] = []
  for (const name of folders) {
    const problems = shapeProblems(name)
    if (PENDING.has(name))
      console.log(
        `pending (not yet in the shape): ${name}${problems.length ? `: ${problems.join('; ')}` : ' — already in the shape, remove it from PENDING'}`,
      )
    else if (problems.length) failures.push(`${name}: ${problems.join('; ')}`)
  }
  assert.deepEqual(failures, [])
})

test('the shape check fails on a folder that lacks the shape (the test can fail)', () => {
  // The toolkit is no tool folder: checked as one, it must fail.
  const problems = shapeProblems('toolkit', join(ROOT, 'src/toolkit'))
  assert.ok(problems.includes('no run.ts') && problems.some((p) => p.startsWith('unexpected file')), problems.join('; '))
})

test('every detect/ module of a tool in the shape is imported by a test', () => {
  const tests = tsFiles(join(ROOT, 'test'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
  const untested: string[] = []
  for (const name of toolFolders()) {
    if (PENDING.has(name) || !statSync(join(TOOLS, name, 'detect'), { throwIfNoEntry: false })?.isDirectory()) continue
    for (const f of tsFiles(join(TOOLS, name, 'detect'))) {
      const path = relative(join(ROOT, 'src'), f).replace(/\.ts$/, '.js')
      if (!tests.includes(path)) untested.push(path)
    }
  }
  assert.deepEqual(untested, [])
})

test('run.ts opens no socket and parses nothing itself: no node:net/dgram/tls import, no Buffer reading', () => {
  const offenders: string[] = []
  for (const name of toolFolders()) {
    if (PENDING.has(name)) continue
    const run = readFileSync(join(TOOLS, name, 'run.ts'), 'utf8')
    if (/from 'node:(net|dgram|tls)'|\.connect\(|\.readUInt|JSON\.parse\(/.test(run)) offenders.push(name)
  }
  assert.deepEqual(offenders, [])
})
