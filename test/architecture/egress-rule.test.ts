// The egress rule: tools open no sockets of their own. Every connection goes through ctx.net (the
// egress), so a VPN profile carries all of a scan's traffic. This test parses every file under
// src/tools/ with the TypeScript compiler and fails on any VALUE use of a networking module:
// `import x from 'node:net'`, `import 'net'`, `export { x } from 'tls'`, `import x = require('dgram')`,
// `import('node:http')`, `require('https')`. Type-only imports (`import type`, or only `type` specifiers)
// are fine: they vanish at compile time.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

const FORBIDDEN = new Set(
  ['net', 'tls', 'dgram', 'http', 'https', 'http2', 'dns', 'dns/promises'].flatMap((m) => [m, `node:${m}`]).concat(['undici', 'socks']),
)
const isForbidden = (specifier: string) => FORBIDDEN.has(specifier) || specifier.startsWith('undici/') || specifier.startsWith('socks/')

export interface Violation {
  line: number
  text: string
}

/** Value uses of forbidden modules in one TypeScript/JavaScript source. */
export function egressViolations(fileName: string, source: string): Violation[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true)
  const found: Violation[] = []
  const report = (node: ts.Node) =>
    found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.getText(sf).split('\n')[0] })
  const literal = (n: ts.Node | undefined) => (n && ts.isStringLiteralLike(n) ? n.text : undefined)

  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier)
      if (spec && isForbidden(spec) && !typeOnlyImport(node.importClause)) report(node)
    } else if (ts.isExportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier)
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly))
      if (spec && isForbidden(spec) && !typeOnly) report(node)
    } else if (ts.isImportEqualsDeclaration(node)) {
      const ref = node.moduleReference
      if (!node.isTypeOnly && ts.isExternalModuleReference(ref) && isForbidden(literal(ref.expression) ?? '')) report(node)
    } else if (ts.isCallExpression(node)) {
      const first = literal(node.arguments[0])
      const callee = node.expression
      const isDynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword
      // require('net'), module.require('net'), or a createRequire()'d function named *require.
      const calleeName = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : ''
      const isRequire = /require$/i.test(calleeName)
      if ((isDynamicImport || isRequire) && first !== undefined && isForbidden(first)) report(node)
    } else if (ts.isImportTypeNode(node)) {
      return // `typeof import('node:net')` in a type position is fine
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

function typeOnlyImport(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false // `import 'net'`: a side-effect import is a value import
  if (clause.isTypeOnly) return true
  if (clause.name) return false // default import
  const b = clause.namedBindings
  if (!b || ts.isNamespaceImport(b)) return false
  return b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return /\.(?:[cm]?ts|[cm]?js|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : []
  })
}

test('no tool imports a networking module as a value (every connection goes through ctx.net)', () => {
  const root = join(import.meta.dirname, '../..')
  const files = sourceFiles(join(root, 'src/tools'))
  assert.ok(files.length > 0)
  const problems = files.flatMap((f) =>
    egressViolations(f, readFileSync(f, 'utf8')).map((v) => `${relative(root, f)}:${v.line}: ${v.text}`),
  )
  assert.deepEqual(problems, [], `tools must use ctx.net (src/toolkit/egress.ts) instead:\n${problems.join('\n')}`)
})

test('the rule catches value imports, side-effect imports, re-exports, require and import()', () => {
  const bad = [
    `import net from 'node:net'`,
    `import { connect } from 'tls'`,
    `import * as dgram from 'node:dgram'`,
    `import 'node:http'`,
    `import { type Agent, request } from 'https'`,
    `import dns from 'node:dns/promises'`,
    `import { request } from 'undici'`,
    `import { SocksClient } from 'socks'`,
    `export { Socket } from 'node:net'`,
    `export * from 'dgram'`,
    `import net = require('net')`,
    `const tls = await import('node:tls')`,
    `const dns = require('dns')`,
    `const r = createRequire(import.meta.url); const x = nodeRequire('http')`,
    `const m = module.require('undici')`,
  ]
  for (const src of bad) assert.equal(egressViolations('x.ts', src).length, 1, `not caught: ${src}`)
})

test('the rule allows type-only imports and unrelated modules', () => {
  const good = [
    `import type { Socket } from 'node:net'`,
    `import type tls from 'node:tls'`,
    `import { type Socket as S } from 'net'`,
    `export type { TLSSocket } from 'node:tls'`,
    `type T = typeof import('node:dgram')`,
    `let s: import('node:net').Socket`,
    `import { createHash } from 'node:crypto'`,
    `import { ipVersion } from '../../domain/ip.js'`,
    `const text = "import net from 'node:net'" // a string, not an import`,
    `// import tls from 'node:tls'`,
  ]
  for (const src of good) assert.deepEqual(egressViolations('x.ts', src), [], `wrongly flagged: ${src}`)
})
