// The match step of the tcp, ssl and dns protocols: one response's variables → extractors (named
// values become run variables) and matchers, as the http protocol does per response.
import type { MatchBlock } from './model.js'
import type { Value } from './dsl-parse.js'
import type { EvalEnv } from './dsl-eval.js'
import type { RegexRunner } from './regex.js'
import { RunVars } from './interpolate.js'
import { runExtractor, runMatchers } from './match.js'
import type { TemplateMatch } from './http.js'

/** Evaluates `block` over `response`; a TemplateMatch (with `requestLine` and `url`) when it matched. */
export function matchProtoResponse(
  block: MatchBlock,
  run: RunVars,
  response: Record<string, Value>,
  regex: RegexRunner,
  at: { requestLine: string; url: string; bytes?: Buffer; truncated?: boolean },
): TemplateMatch | null {
  const vars = new RunVars(run)
  for (const [k, v] of Object.entries(response)) vars.set(k, v)
  const env: EvalEnv = { vars, regex }
  const extracted: string[] = []
  for (const x of block.extractors) {
    const vals = runExtractor(x, env, {}, [])
    if (x.name && vals.length) {
      run.set(x.name, vals[0]!)
      vars.set(x.name, vals[0]!)
    }
    if (!x.internal) extracted.push(...vals)
  }
  const m = block.matchers.length
    ? runMatchers(block.matchers, block.matchersCondition, env, at.bytes)
    : { matched: extracted.length > 0, hits: [], names: [] }
  if (!m.matched) return null
  return { requestLine: at.requestLine, url: at.url, matcherNames: m.names, hits: m.hits, extracted, truncated: at.truncated ?? false }
}

/** A target host as templates write it: IPv6 in brackets when a port follows. */
export const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)

/** "host:port", "[v6]:port" or "host" → its parts (port null when absent). */
export function splitHostPort(s: string): { host: string; port: number | null } {
  const v6 = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s)
  if (v6) return { host: v6[1]!, port: v6[2] ? Number(v6[2]) : null }
  const m = /^([^:]+):(\d{1,5})$/.exec(s)
  return m ? { host: m[1]!, port: Number(m[2]) } : { host: s, port: null }
}

/** Shown text of bytes sent or read: printable, bounded. */
export const shown = (s: string, max = 200) => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s)
