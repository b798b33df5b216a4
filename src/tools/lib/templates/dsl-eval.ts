// Evaluates a parsed DSL tree against variables, with the helper functions of dsl-functions.ts.
// Values are strings, numbers, booleans, null and lists; comparisons coerce as govaluate does.
import { DslError, parseDsl, type EvalEnv, type Node, type Value, type Vars } from './dsl-parse.js'
import { DSL_FUNCTIONS, toStr } from './dsl-functions.js'

export type { EvalEnv, Vars } from './dsl-parse.js'

const lookup = (vars: Vars, name: string): Value | undefined =>
  vars instanceof Map ? vars.get(name) : (vars as Record<string, Value>)[name]

export const truthy = (v: Value): boolean =>
  Array.isArray(v) ? v.length > 0 : typeof v === 'string' ? v !== '' && v !== 'false' : Boolean(v)

const num = (v: Value): number => {
  if (typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  const n = Number(toStr(v).trim())
  if (Number.isNaN(n)) throw new DslError(`${JSON.stringify(toStr(v).slice(0, 40))} is not a number`)
  return n
}
const numeric = (v: Value) => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))

function equal(a: Value, b: Value): boolean {
  if (typeof a === 'number' || typeof b === 'number') return numeric(a) && numeric(b) ? num(a) === num(b) : toStr(a) === toStr(b)
  if (typeof a === 'boolean' || typeof b === 'boolean') return truthy(a) === truthy(b)
  return toStr(a) === toStr(b)
}

function order(a: Value, b: Value): number {
  if (numeric(a) && numeric(b)) return num(a) - num(b)
  const x = toStr(a)
  const y = toStr(b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function evaluate(n: Node, env: EvalEnv): Value {
  switch (n.k) {
    case 'lit':
      return n.v
    case 'arr':
      return n.items.map((i) => evaluate(i, env))
    case 'id': {
      const v = lookup(env.vars, n.name)
      if (v === undefined) throw new DslError(`unknown variable ${n.name}`)
      return v
    }
    case 'call': {
      const f = DSL_FUNCTIONS[n.name]
      if (!f) throw new DslError(`unknown function ${n.name}`)
      return f(
        n.args.map((a) => evaluate(a, env)),
        env,
      )
    }
    case 'un': {
      const a = evaluate(n.a, env)
      if (n.op === '!') return !truthy(a)
      if (n.op === '-') return -num(a)
      if (n.op === '~') return ~num(a)
      return num(a)
    }
    case 'tern':
      return truthy(evaluate(n.c, env)) ? evaluate(n.a, env) : evaluate(n.b, env)
    case 'bin': {
      if (n.op === '&&') return truthy(evaluate(n.a, env)) && truthy(evaluate(n.b, env))
      if (n.op === '||') return truthy(evaluate(n.a, env)) || truthy(evaluate(n.b, env))
      if (n.op === '??') {
        try {
          const v = evaluate(n.a, env)
          if (v !== null) return v
        } catch (e) {
          if (!(e instanceof DslError)) throw e
        }
        return evaluate(n.b, env)
      }
      const a = evaluate(n.a, env)
      const b = evaluate(n.b, env)
      switch (n.op) {
        case '==':
          return equal(a, b)
        case '!=':
          return !equal(a, b)
        case '<':
          return order(a, b) < 0
        case '>':
          return order(a, b) > 0
        case '<=':
          return order(a, b) <= 0
        case '>=':
          return order(a, b) >= 0
        case '=~':
          return env.regex.test(toStr(b), toStr(a))
        case '!~':
          return !env.regex.test(toStr(b), toStr(a))
        case '+':
          return typeof a === 'number' && typeof b === 'number' ? a + b : toStr(a) + toStr(b)
        case '-':
          return num(a) - num(b)
        case '*':
          return num(a) * num(b)
        case '/':
          return num(a) / num(b)
        case '%':
          return num(a) % num(b)
        case '**':
          return num(a) ** num(b)
        case '&':
          return num(a) & num(b)
        case '|':
          return num(a) | num(b)
        case '^':
          return num(a) ^ num(b)
        case '<<':
          return num(a) << num(b)
        case '>>':
          return num(a) >> num(b)
      }
      throw new DslError(`unknown operator ${n.op}`)
    }
  }
}

const cache = new Map<string, Node>()
/** Parses once per expression text (templates repeat the same expressions for every request). */
export function compileDsl(src: string): Node {
  let n = cache.get(src)
  if (!n) {
    n = parseDsl(src)
    if (cache.size > 5000) cache.clear()
    cache.set(src, n)
  }
  return n
}

export const evalDsl = (src: string, env: EvalEnv): Value => evaluate(compileDsl(src), env)
