// The template DSL (nuclei's govaluate expressions) as data: a tokenizer and a Pratt parser that
// build a small syntax tree. Nothing here evaluates; dsl-eval.ts walks the tree. No eval/Function.
import type { RegexRunner } from './regex.js'

export type Node =
  | { k: 'lit'; v: Value }
  | { k: 'id'; name: string }
  | { k: 'call'; name: string; args: Node[] }
  | { k: 'un'; op: string; a: Node }
  | { k: 'bin'; op: string; a: Node; b: Node }
  | { k: 'tern'; c: Node; a: Node; b: Node }
  | { k: 'arr'; items: Node[] }

export type Value = string | number | boolean | null | Value[]

export type Vars = ReadonlyMap<string, Value> | Record<string, Value>

/** What an expression sees: its variables and the (bounded) regex engine. */
export interface EvalEnv {
  vars: Vars
  regex: RegexRunner
}

export class DslError extends Error {
  override name = 'DslError'
}

type Tok = { t: 'num'; v: number } | { t: 'str'; v: string } | { t: 'id'; v: string } | { t: 'op'; v: string } | { t: 'end' }

const OPS = [
  '<<',
  '>>',
  '==',
  '!=',
  '>=',
  '<=',
  '&&',
  '||',
  '=~',
  '!~',
  '??',
  '**',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '!',
  '(',
  ')',
  ',',
  '?',
  ':',
  '&',
  '|',
  '^',
  '~',
  '[',
  ']',
]
const MAX_EXPR = 20_000

function tokenize(src: string): Tok[] {
  if (src.length > MAX_EXPR) throw new DslError(`expression longer than ${MAX_EXPR} characters`)
  const out: Tok[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:0x[0-9a-f]+|[0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)/i.exec(src.slice(i))!
      out.push({ t: 'num', v: Number(m[0]) })
      i += m[0].length
      continue
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1
      let s = ''
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length && c !== '`') {
          const n = src[j + 1]!
          s += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'r' ? '\r' : n === c || n === '\\' ? n : '\\' + n
          j += 2
        } else s += src[j++]
      }
      if (j >= src.length) throw new DslError('unterminated string')
      out.push({ t: 'str', v: s })
      i = j + 1
      continue
    }
    if (/[A-Za-z_$]/.test(c)) {
      // Names may hold dashes and dots as nuclei's do (interactsh-url, header names): a dash is part
      // of a name only when a letter follows without spaces, which `a - b` never has.
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*(?:-[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i))!
      out.push({ t: 'id', v: m[0] })
      i += m[0].length
      continue
    }
    const op = OPS.find((o) => src.startsWith(o, i))
    if (!op) throw new DslError(`unexpected character ${JSON.stringify(c)} at ${i}`)
    out.push({ t: 'op', v: op })
    i += op.length
  }
  out.push({ t: 'end' })
  return out
}

// Binding powers, loosest first (govaluate's order).
const INFIX: Record<string, number> = {
  '??': 1,
  '||': 2,
  '&&': 3,
  '==': 5,
  '!=': 5,
  '=~': 5,
  '!~': 5,
  '<': 5,
  '>': 5,
  '<=': 5,
  '>=': 5,
  '|': 6,
  '^': 7,
  '&': 8,
  '<<': 9,
  '>>': 9,
  '+': 10,
  '-': 10,
  '*': 11,
  '/': 11,
  '%': 11,
  '**': 12,
}
const MAX_DEPTH = 200

export function parseDsl(src: string): Node {
  const toks = tokenize(src)
  let p = 0
  let depth = 0
  const peek = () => toks[p]!
  const next = () => toks[p++]!
  const expect = (v: string) => {
    const t = next()
    if (t.t !== 'op' || t.v !== v) throw new DslError(`expected "${v}"`)
  }
  const isOp = (v: string) => peek().t === 'op' && (peek() as { v: string }).v === v

  const expr = (rbp: number): Node => {
    if (++depth > MAX_DEPTH) throw new DslError('expression nested too deeply')
    let left = prefix()
    for (;;) {
      const t = peek()
      if (t.t !== 'op') break
      if (t.v === '?' && rbp < 1) {
        next()
        const a = expr(0)
        expect(':')
        const b = expr(0)
        left = { k: 'tern', c: left, a, b }
        continue
      }
      const bp = INFIX[t.v]
      if (bp === undefined || bp <= rbp) break
      next()
      // ** is right-associative; the rest are left-associative.
      left = { k: 'bin', op: t.v, a: left, b: expr(t.v === '**' ? bp - 1 : bp) }
    }
    depth--
    return left
  }
  const prefix = (): Node => {
    const t = next()
    if (t.t === 'num' || t.t === 'str') return { k: 'lit', v: t.v }
    if (t.t === 'id') {
      if (t.v === 'true' || t.v === 'false') return { k: 'lit', v: t.v === 'true' }
      if (t.v === 'nil' || t.v === 'null') return { k: 'lit', v: null }
      if (isOp('(')) {
        next()
        const args: Node[] = []
        if (!isOp(')')) {
          do args.push(expr(0))
          while (isOp(',') && next())
        }
        expect(')')
        return { k: 'call', name: t.v, args }
      }
      return { k: 'id', name: t.v }
    }
    if (t.t === 'op') {
      if (t.v === '(') {
        const e = expr(0)
        expect(')')
        return e
      }
      if (t.v === '[') {
        const items: Node[] = []
        if (!isOp(']')) {
          do items.push(expr(0))
          while (isOp(',') && next())
        }
        expect(']')
        return { k: 'arr', items }
      }
      if (t.v === '!' || t.v === '-' || t.v === '~' || t.v === '+') return { k: 'un', op: t.v, a: expr(13) }
    }
    throw new DslError(t.t === 'end' ? 'unexpected end of expression' : `unexpected ${JSON.stringify((t as { v?: unknown }).v)}`)
  }
  const tree = expr(0)
  if (peek().t !== 'end') throw new DslError(`unexpected ${JSON.stringify((peek() as { v: unknown }).v)} after the expression`)
  return tree
}

/** Function names an expression calls (to refuse unknown helpers at load time). */
export function callsOf(n: Node, out = new Set<string>()): Set<string> {
  switch (n.k) {
    case 'call':
      out.add(n.name)
      n.args.forEach((a) => callsOf(a, out))
      break
    case 'un':
      callsOf(n.a, out)
      break
    case 'bin':
      callsOf(n.a, out)
      callsOf(n.b, out)
      break
    case 'tern':
      callsOf(n.c, out)
      callsOf(n.a, out)
      callsOf(n.b, out)
      break
    case 'arr':
      n.items.forEach((a) => callsOf(a, out))
      break
    case 'lit':
    case 'id':
      break
  }
  return out
}
