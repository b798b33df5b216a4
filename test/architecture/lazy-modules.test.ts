// An idle `ward all` on SQLite must not load what only PostgreSQL, a scan or a report callback needs:
// each such driver costs megabytes of an idle process (docs/benchmarks.md, "Start-up and idle memory").
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
// @ts-expect-error: a plain JavaScript build script without type declarations
import { ensureBuilt } from '../../scripts/build.mjs'

const ROOT = resolve(import.meta.dirname, '../..')

// Started in a child: imports the compiled CLI as `ward all`, waits for the API's first answer, then
// lists the packages in the CommonJS module cache (ESM imports of CommonJS packages land there too).
const CHILD = `
import { createRequire } from 'node:module'
process.argv = [process.argv[0], 'ward', 'all']
await import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))})
for (let i = 0; i < 300; i++) {
  try { const r = await fetch('http://127.0.0.1:' + process.env.PORT + '/api/v2/openapi.json'); if (r.ok) break } catch {}
  await new Promise((r) => setTimeout(r, 50))
}
const cache = createRequire(import.meta.url).cache
const pkgs = new Set(Object.keys(cache).map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1]).filter(Boolean))
console.log(JSON.stringify([...pkgs]))
process.exit(0)
`

test('idle ward all on SQLite loads neither the PostgreSQL driver nor the scan/callback HTTP clients', async () => {
  await ensureBuilt()
  const dir = mkdtempSync(join(tmpdir(), 'ward-lazy-'))
  try {
    const port = 20000 + Math.floor(Math.random() * 20000)
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
      cwd: ROOT,
      env: {
        ...process.env,
        WARD_DATABASE_URL: `sqlite:${join(dir, 'ward.db')}`,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        WARD_INITIAL_API_KEY: 'ward_lazymodulestestkey00000000000000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c))
    const code = await new Promise<number | null>((r) => child.on('exit', r))
    assert.equal(code, 0)
    const loaded: string[] = JSON.parse(out.trim().split('\n').pop()!)
    assert.ok(loaded.includes('fastify'), `the API did load: ${loaded.join(', ')}`)
    for (const lazy of ['pg', 'undici', 'socks', 'pdfkit']) assert.ok(!loaded.includes(lazy), `${lazy} was loaded at start`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
