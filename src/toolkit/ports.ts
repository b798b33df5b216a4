// The `ports` parameter of the port-based tools, parsed once into a typed plan: "top100", "top1000",
// "all" or "22,80,8000-8100". Each tool names its own lists (TCP and UDP lists differ); the parser and
// its messages are one. The API checks a spec with `portSpecProblem` before a scan is queued; the
// worker parses it once with `withPortPlan`, and the tool's run receives the plan.
import { ToolStartError } from './errors.js'
import type { ScanContext, ToolRun } from './tool.js'

export const MAX_PORT = 65535

/** What the params schema accepts; the parser then checks the numbers themselves. */
export const PORT_SPEC_PATTERN = '^(top100|top1000|all|\\s*\\d+(\\s*-\\s*\\d+)?\\s*(,\\s*\\d+(\\s*-\\s*\\d+)?\\s*)*)$'

export type PortProtocol = 'tcp' | 'udp'
export type NamedPortList = 'top100' | 'top1000' | 'all'

/** A tool's named lists, and the order it scans an explicit list in. */
export interface PortLists {
  protocol: PortProtocol
  top100: readonly number[]
  top1000: readonly number[]
  /**
   * 'given': the order written, so the ports a user lists first are reported first (TCP, whose open
   * ports are reported as they answer); 'ascending': by number (UDP, whose rows are listed in order).
   */
  explicitOrder: 'given' | 'ascending'
}

/** The ports a scan probes, in the order it probes them; duplicates dropped. */
export interface PortPlan {
  protocol: PortProtocol
  /** The spec as given (for log lines and test descriptions). */
  spec: string
  /** The named list the spec asked for, or null for an explicit list. */
  named: NamedPortList | null
  ports: readonly number[]
}

const EXAMPLE = 'use "top100", "top1000", "all" or a list such as "22,80,8000-8100"'

function explicitPorts(s: string): number[] {
  const seen = new Set<number>()
  for (const raw of s.split(',')) {
    const part = raw.trim()
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part)
    if (!m) throw new Error(`ports: "${part}" is not a port or a range (expected e.g. 22 or 8000-8100)`)
    const from = Number(m[1])
    const to = m[2] === undefined ? from : Number(m[2])
    for (const p of [from, to])
      if (p < 1 || p > MAX_PORT)
        throw new Error(`ports: ${p} is out of range (ports are 1..${MAX_PORT}); the widest range is 1-${MAX_PORT}`)
    if (to < from) throw new Error(`ports: range ${part} ends before it starts`)
    for (let p = from; p <= to; p++) seen.add(p)
  }
  return [...seen]
}

/** The plan of `spec` over `lists`. Throws an Error whose message names the bad part. */
export function parsePortPlan(spec: string, lists: PortLists): PortPlan {
  const s = spec.trim().toLowerCase()
  const plan = (named: NamedPortList | null, ports: readonly number[]): PortPlan => ({ protocol: lists.protocol, spec, named, ports })
  if (s === 'top100') return plan('top100', [...lists.top100])
  if (s === 'top1000') return plan('top1000', [...lists.top1000])
  if (s === 'all')
    return plan(
      'all',
      Array.from({ length: MAX_PORT }, (_, i) => i + 1),
    )
  if (!s) throw new Error(`ports is empty: ${EXAMPLE}`)
  const ports = explicitPorts(s)
  if (lists.explicitOrder === 'ascending') ports.sort((a, b) => a - b)
  return plan(null, ports)
}

/** What is wrong with a `ports` value, or undefined: the check a scan would fail on, made before queueing. */
export function portSpecProblem(spec: string, lists: PortLists): string | undefined {
  try {
    parsePortPlan(spec, lists)
    return undefined
  } catch (e) {
    return (e as Error).message
  }
}

/**
 * A tool run that receives its port plan: the spec is parsed once, when the scan starts; a spec the
 * API would have refused (a scan queued by an older Ward) ends the scan as failed to start.
 */
export function withPortPlan<P extends { ports: string }>(
  lists: PortLists,
  run: (ctx: ScanContext<P>, plan: PortPlan) => Promise<void>,
): ToolRun<P> {
  return async (ctx) => {
    let plan: PortPlan
    try {
      plan = parsePortPlan(ctx.params.ports, lists)
    } catch (e) {
      throw new ToolStartError((e as Error).message)
    }
    await run(ctx, plan)
  }
}
