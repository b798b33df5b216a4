// `flow:` as the community templates almost always write it: http(N) calls joined by && and ||, with
// parentheses — which request blocks run, in which order, each only when the condition so far asks
// for it (`http(1) && http(2)`: the second block only where the first matched). A flow with anything
// else (loops, set(), other protocols) is JavaScript, and is refused at load with its reason.
export type FlowNode = { k: 'http'; block: number | null } | { k: '&&' | '||'; a: FlowNode; b: FlowNode }

export class FlowError extends Error {
  override name = 'FlowError'
}

const TOKEN = /\s*(http\(\s*(\d*)\s*\)|&&|\|\||\(|\)|;)\s*/y

/** Parses a flow over `blocks` http blocks (numbered from 1; `http()` runs them all in order). */
export function parseFlow(src: string, blocks: number): FlowNode {
  const toks: Array<{ t: string; n?: string }> = []
  TOKEN.lastIndex = 0
  const text = src.trim().replace(/;\s*$/, '')
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex
    const m = TOKEN.exec(text)
    if (!m) throw new FlowError(`flow: only http(N) joined by && and || is supported (at ${JSON.stringify(text.slice(at, at + 30))})`)
    toks.push(m[1]!.startsWith('http') ? { t: 'http', n: m[2] } : { t: m[1]! })
  }
  let i = 0
  const atom = (): FlowNode => {
    const tok = toks[i++]
    if (tok?.t === 'http') {
      const n = tok.n ? Number(tok.n) : null
      if (n !== null && (n < 1 || n > blocks)) throw new FlowError(`flow: http(${n}) names no request block (the template has ${blocks})`)
      return { k: 'http', block: n }
    }
    if (tok?.t !== '(') throw new FlowError('flow: an http(N) call or "(" was expected')
    const inner = or()
    if (toks[i++]?.t !== ')') throw new FlowError('flow: a ")" is missing')
    return inner
  }
  const chain = (op: '&&' | '||', next: () => FlowNode) => () => {
    let a = next()
    while (toks[i]?.t === op) {
      i++
      a = { k: op, a, b: next() }
    }
    return a
  }
  const and = chain('&&', atom)
  const or: () => FlowNode = chain('||', and)
  const tree = or()
  if (i < toks.length) throw new FlowError(`flow: unexpected ${JSON.stringify(toks[i]!.t)}`)
  return tree
}

/** Evaluates a flow: `run(block)` runs one block (null: all of them) and says whether it matched. */
export async function evalFlow(node: FlowNode, run: (block: number | null) => Promise<boolean>): Promise<boolean> {
  if (node.k === 'http') return run(node.block)
  const a = await evalFlow(node.a, run)
  if (node.k === '&&') return a && evalFlow(node.b, run)
  return a || evalFlow(node.b, run)
}
