// The compiled build: bin/ward.js runs dist/ (plain JavaScript, no tsx), and the files under src/
// that are not TypeScript (KEV snapshot, PDF fonts, fuzzer wordlists) are found from dist/ too.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
// @ts-expect-error: a plain JavaScript build script without type declarations
import { ensureBuilt, isStale, LOCK, lockHolderGone, ROOT } from '../../scripts/build.mjs'

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))

test('dist/ holds every source as JavaScript with a source map, and every other file under src/ byte for byte', async () => {
  await ensureBuilt({ quiet: true })
  assert.equal(isStale(), false)
  const src = join(ROOT, 'src')
  const dist = join(ROOT, 'dist')
  const built = new Set(files(dist).map((f) => relative(dist, f)))
  for (const f of files(src)) {
    const rel = relative(src, f)
    if (rel.endsWith('.ts')) {
      const js = rel.replace(/\.ts$/, '.js')
      assert.ok(built.has(js), `dist/${js}`)
      assert.ok(built.has(`${js}.map`), `dist/${js}.map`)
    } else assert.ok(readFileSync(join(dist, rel)).equals(readFileSync(f)), `dist/${rel} is a copy of src/${rel}`)
  }
})

test('the compiled modules find their data files, and bin/ward.js runs without tsx', async () => {
  await ensureBuilt({ quiet: true })
  const probe = `
    const { loadKevSnapshot } = await import('./dist/domain/kev.js')
    const { openWordlist } = await import('./dist/tools/url-fuzzer/probes/wordlist.js')
    const { registerFonts } = await import('./dist/reports/pdf/fonts.js')
    const { default: PDFDocument } = await import('pdfkit')
    registerFonts(new PDFDocument())
    const words = await openWordlist('small')
    console.log(JSON.stringify({ kev: loadKevSnapshot().size, words: words.total }))
  `
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: ROOT, encoding: 'utf8', timeout: 60000 })
  assert.equal(r.status, 0, r.stderr)
  const got = JSON.parse(r.stdout.trim().split('\n').pop()!)
  assert.ok(got.kev > 100, `KEV snapshot: ${got.kev} ids`)
  assert.ok(got.words > 100, `small wordlist: ${got.words} words`)

  const help = spawnSync(process.execPath, [join(ROOT, 'bin/ward.js'), 'help'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  assert.equal(help.status, 0, help.stderr)
  assert.match(help.stdout, /usage: ward/i)
  assert.doesNotMatch(readFileSync(join(ROOT, 'bin/ward.js'), 'utf8'), /tsx/)
})

test('a build lock left by a builder that is gone is taken over at once; a live holder keeps it', () => {
  // This test runs after the builds above; the lock is free now (a build in another process would hold it briefly).
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  const deadPid = Number(dead.stdout)
  assert.ok(deadPid > 0)
  mkdirSync(LOCK)
  try {
    assert.equal(lockHolderGone(), false, 'a lock without a pid is being taken')
    writeFileSync(join(LOCK, 'pid'), String(process.pid))
    assert.equal(lockHolderGone(), false, 'a live holder')
    writeFileSync(join(LOCK, 'pid'), String(deadPid))
    assert.equal(lockHolderGone(), true, 'the holder exited')
  } finally {
    rmSync(LOCK, { recursive: true, force: true })
  }
})
