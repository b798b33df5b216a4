// Function lengths in src/, read with the TypeScript parser (no type checking, no module loading),
// so "no function over 100 lines" can be checked in a test and counted in a report.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'

export interface FunctionSpan {
  file: string // src-relative path, e.g. "cli/scan/index.ts"
  name: string // the declared name, the variable or property it is assigned to, or "<anonymous>"
  line: number // 1-based line of its first token
  lines: number // from the line of its first token to the line of its last, both included
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return /\.[cm]?ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : []
  })
}

type FunctionNode = ts.FunctionLikeDeclaration

const isFunction = (n: ts.Node): n is FunctionNode =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n)

/** What a reader would call the function: its own name, else what it is assigned to or passed as. */
function nameOf(n: FunctionNode, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(n)) return 'constructor'
  if (n.name) return n.name.getText(sf)
  const p = n.parent
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name.getText(sf)
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText(sf)
  if (ts.isCallExpression(p)) return `<callback of ${p.expression.getText(sf).slice(0, 40)}>`
  return '<anonymous>'
}

/** Every function, method, accessor and arrow of one source, nested ones included. */
export function functionsOf(fileName: string, source: string): FunctionSpan[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true)
  const found: FunctionSpan[] = []
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ file: fileName, name: nameOf(node, sf), line: first + 1, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

/** Every function of `srcDir` (paths relative to it), longest first. */
export function functionSpans(srcDir: string): FunctionSpan[] {
  const root = resolve(srcDir)
  return sourceFiles(root)
    .flatMap((file) => functionsOf(relative(root, file), readFileSync(file, 'utf8')))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line)
}

// `node --import tsx test/architecture/function-length.ts [min]`: the functions of src/ of at least
// `min` lines (default 80), longest first, and their count.
if (import.meta.filename === process.argv[1]) {
  const min = Number(process.argv[2] ?? 80)
  const long = functionSpans(join(import.meta.dirname, '../../src')).filter((f) => f.lines >= min)
  for (const f of long) console.log(`${String(f.lines).padStart(4)}  src/${f.file}:${f.line}  ${f.name}`)
  console.log(`${long.length} function(s) of ${min}+ lines`)
}
