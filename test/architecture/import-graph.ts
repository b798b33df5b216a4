// The import graph of src/, read with the TypeScript parser (no type checking, no module loading),
// so the layer rules (the layers block of docs/architecture.md) can be checked in a test and counted.
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

/**
 * The layer list of docs/architecture.md: its fenced block marked `layers`. One line per rank, top to
 * bottom: the layer (or layers joined by " / ") in the first column, a description after two spaces;
 * a line "never: a b, c d" names pairs that never import each other. The doc is the one copy.
 */
export function layersFromDoc(text: string): { layers: string[][]; apart: [string, string][] } {
  const block = /^```layers\n([\s\S]*?)^```/m.exec(text)
  if (!block) throw new Error('docs/architecture.md has no ```layers block')
  const layers: string[][] = []
  const apart: [string, string][] = []
  for (const line of block[1]!
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const never = /^never:\s*(.*)$/.exec(line)
    if (never) {
      for (const pair of never[1]!.split(',')) {
        const [a, b, ...rest] = pair.trim().split(/\s+/)
        if (!a || !b || rest.length)
          throw new Error(`docs/architecture.md layers: "never:" takes pairs of two layers, got "${pair.trim()}"`)
        apart.push([a, b])
      }
      continue
    }
    const names = line
      .split(/\s{2,}/)[0]!
      .split('/')
      .map((n) => n.trim())
    if (names.some((n) => !/^[a-z][a-z0-9-]*$/.test(n)))
      throw new Error(`docs/architecture.md layers: "${line}" does not start with a layer name`)
    layers.push(names)
  }
  const known = layers.flat()
  const stray = apart.flat().filter((n) => !known.includes(n))
  if (stray.length) throw new Error(`docs/architecture.md layers: "never:" names ${stray.join(', ')}, not in the list`)
  return { layers, apart }
}

const fromDoc = layersFromDoc(readFileSync(join(import.meta.dirname, '../../docs/architecture.md'), 'utf8'))
/** Top to bottom: a file may import its own layer or any layer below it. */
export const LAYERS: readonly (readonly string[])[] = fromDoc.layers
/** Pairs that never import each other although their ranks would allow one direction. */
export const APART: readonly (readonly [string, string])[] = fromDoc.apart

export interface Edge {
  from: string // src-relative path, e.g. "engine/worker.ts"
  to: string
  typeOnly: boolean
  /** `import()` at run time (a manifest loading its scanner): no load-order dependency. */
  dynamic?: boolean
}

export function layerOf(file: string): string {
  return file.split('/')[0]
}

export function rankOf(layer: string): number {
  const i = LAYERS.findIndex((l) => l.includes(layer))
  if (i < 0) throw new Error(`src/${layer}/ is not a layer of docs/architecture.md; add it to the layers block there`)
  return i
}

/** Why an edge breaks the layering, or null when it is allowed. */
export function layerProblem(edge: Pick<Edge, 'from' | 'to'>): string | null {
  const a = layerOf(edge.from)
  const b = layerOf(edge.to)
  if (a === b) return null
  if (APART.some(([x, y]) => (x === a && y === b) || (x === b && y === a))) return `${a} and ${b} never import each other`
  if (rankOf(a) > rankOf(b)) return `${a} imports ${b}, a layer above it`
  return null
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return /\.[cm]?ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : []
  })
}

/** Relative module specifiers of one source, with whether each use is type-only. */
export function importsOf(fileName: string, source: string): { spec: string; typeOnly: boolean; dynamic?: boolean }[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true)
  const found: { spec: string; typeOnly: boolean; dynamic?: boolean }[] = []
  const literal = (n: ts.Node | undefined) => (n && ts.isStringLiteralLike(n) ? n.text : undefined)
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier)
      const c = node.importClause
      const typeOnly =
        !!c &&
        (c.isTypeOnly ||
          (!c.name &&
            !!c.namedBindings &&
            ts.isNamedImports(c.namedBindings) &&
            c.namedBindings.elements.length > 0 &&
            c.namedBindings.elements.every((e) => e.isTypeOnly)))
      if (spec) found.push({ spec, typeOnly })
    } else if (ts.isExportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier)
      const typeOnly =
        node.isTypeOnly ||
        (!!node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly))
      if (spec) found.push({ spec, typeOnly })
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const spec = literal(node.arguments[0])
      if (spec) found.push({ spec, typeOnly: false, dynamic: true })
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument
      const spec = ts.isLiteralTypeNode(arg) ? literal(arg.literal) : undefined
      if (spec) found.push({ spec, typeOnly: true })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found.filter((f) => f.spec.startsWith('.'))
}

/** Every import between two files of `srcDir` (paths relative to it). */
export function importGraph(srcDir: string): Edge[] {
  const root = resolve(srcDir)
  const edges: Edge[] = []
  for (const file of sourceFiles(root)) {
    for (const { spec, typeOnly, dynamic } of importsOf(file, readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec)
      const candidates = [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, join(target, 'index.ts')]
      const hit = candidates.find((c) => c.startsWith(root) && existsSync(c) && /\.[cm]?ts$/.test(c))
      if (!hit) continue // a non-TypeScript asset (JSON) or a path outside src/
      edges.push({ from: relative(root, file), to: relative(root, hit), typeOnly, ...(dynamic ? { dynamic } : {}) })
    }
  }
  return edges
}

/** Groups of files that import each other round in a circle (strongly connected, size > 1). */
export function cycles(edges: readonly Pick<Edge, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, string[]>()
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, [])
    if (!next.has(e.to)) next.set(e.to, [])
    next.get(e.from)!.push(e.to)
  }
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const out: string[][] = []
  for (const start of next.keys()) {
    if (index.has(start)) continue
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const top = work[work.length - 1]
      const succ = next.get(top.node)!
      if (top.i < succ.length) {
        const w = succ[top.i++]
        if (!index.has(w)) {
          index.set(w, counter)
          low.set(w, counter++)
          stack.push(w)
          onStack.add(w)
          work.push({ node: w, i: 0 })
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!))
        continue
      }
      work.pop()
      if (work.length) {
        const parent = work[work.length - 1].node
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!))
      }
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          group.push(w)
        } while (w !== top.node)
        if (group.length > 1) out.push(group.sort())
      }
    }
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]))
}

/**
 * Imports by which files reachable from `roots` (following value imports only: what a process
 * actually loads) step into a file of `layer`. Empty when loading the roots never loads that layer.
 */
export function entriesInto(edges: readonly Edge[], roots: (file: string) => boolean, layer: string): Edge[] {
  const next = new Map<string, Edge[]>()
  for (const e of edges) if (!e.typeOnly) next.set(e.from, [...(next.get(e.from) ?? []), e])
  const seen = new Set<string>()
  const queue = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter(roots)
  const found: Edge[] = []
  while (queue.length) {
    const f = queue.pop()!
    if (seen.has(f)) continue
    seen.add(f)
    for (const e of next.get(f) ?? []) {
      if (layerOf(e.to) === layer) {
        if (layerOf(e.from) !== layer) found.push(e)
        continue // what the layer loads in turn is its own business
      }
      queue.push(e.to)
    }
  }
  return found.sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`))
}
