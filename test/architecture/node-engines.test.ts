// The README says Ward runs on Node 20: every installed package must accept the Node it runs on.
// npm only warns (EBADENGINE) when one does not, so this test makes the promise checked.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Smallest major accepted by a simple `engines.node` range ("18 || 20 || >=22", ">=18.0", "^20.19"). */
function acceptsMajor(range: string, major: number): boolean {
  return range.split('||').some((part) => {
    const p = part.trim()
    const m = /^(>=|\^|~)?\s*v?(\d+)/.exec(p)
    if (!m) return true // a range we do not parse is not held against the package
    const n = Number(m[2])
    return m[1] === '>=' ? major >= n : m[1] === '^' || m[1] === '~' || !m[1] ? major === n : true
  })
}

function packages(dir: string): { name: string; engine: string }[] {
  const out: { name: string; engine: string }[] = []
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry)
    if (entry.startsWith('@')) {
      out.push(...packages(p))
      continue
    }
    const manifest = join(p, 'package.json')
    if (!existsSync(manifest)) continue
    const j = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string; engines?: { node?: string } }
    if (j.engines?.node) out.push({ name: `${j.name}@${j.version}`, engine: j.engines.node })
    if (existsSync(join(p, 'node_modules'))) out.push(...packages(join(p, 'node_modules')))
  }
  return out
}

test('every installed package accepts Node 20 (the version package.json engines and the README promise)', () => {
  const own = JSON.parse(readFileSync('package.json', 'utf8')) as { engines?: { node?: string } }
  assert.match(own.engines?.node ?? '', /^>=20/)
  const refusing = packages('node_modules').filter((p) => !acceptsMajor(p.engine, 20))
  assert.ok(packages('node_modules').length > 50, 'node_modules was walked')
  assert.deepEqual(refusing, [], 'packages whose engines.node excludes Node 20 (pin them in package.json overrides)')
})
