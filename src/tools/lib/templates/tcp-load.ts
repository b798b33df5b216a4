// Loads a tcp/network block: inputs sent in order (text or hex), reads, and the ports the template
// is meant for (its `port:` field and ports written into `host:`).
import type { MatchBlock, TcpBlock, TcpInput } from './model.js'
import { bool, checkMarkers, extractor, list, list2, matcher, skip, str } from './load-parts.js'

/** Bounds of one tcp block. */
export const TCP_LIMITS = { inputs: 20, readBytes: 4 << 20, defaultRead: 1024 }

/** The match part every protocol reads the same way. */
export function matchBlock(b: Record<string, unknown>, what: string): MatchBlock {
  const block: MatchBlock = {
    matchersCondition: str(b['matchers-condition']).toLowerCase() === 'and' ? 'and' : 'or',
    matchers: list2(b.matchers).map(matcher),
    extractors: list2(b.extractors).map(extractor),
  }
  if (block.matchers.length === 0 && block.extractors.length === 0) skip(`a ${what} request has no matchers and no extractors`)
  return block
}

/** `6379`, `"80,443"`, `[80, 443]` → ports. */
function portList(v: unknown): number[] {
  const out = list(v, true).map(Number)
  if (out.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) skip(`invalid port ${JSON.stringify(str(v).slice(0, 40))}`)
  return out
}

function input(i: Record<string, unknown>): TcpInput {
  const hex = str(i.type).toLowerCase() === 'hex'
  const data = str(i.data)
  if (hex && !/^(?:[0-9a-f]{2})*$/i.test(data.replace(/\s+/g, ''))) skip('a hex input holds non-hex text')
  const read = Number(i.read ?? 0) || 0
  return {
    data: hex ? data.replace(/\s+/g, '') : data,
    hex,
    read: Math.min(Math.max(read, 0), TCP_LIMITS.readBytes),
    name: str(i.name) || undefined,
  }
}

export function parseTcpBlock(b: Record<string, unknown>): TcpBlock {
  if ('payloads' in b) skip('payloads in tcp requests are not supported')
  const inputs = list2(b.inputs).map(input)
  if (inputs.length > TCP_LIMITS.inputs) skip(`more than ${TCP_LIMITS.inputs} inputs in one tcp request`)
  const hosts = list(b.host)
  if (hosts.length === 0) hosts.push('{{Hostname}}')
  const ports = portList(b.port)
  for (const h of hosts) {
    const m = /:(\d{1,5})$/.exec(h.replace(/^tls:\/\//i, ''))
    if (m) ports.push(...portList(m[1]))
  }
  const readSize = Number(b['read-size'] ?? TCP_LIMITS.defaultRead) || TCP_LIMITS.defaultRead
  const block: TcpBlock = {
    ...matchBlock(b, 'tcp'),
    inputs,
    hosts,
    ports: [...new Set(ports)],
    excludePorts: portList(b['exclude-ports']),
    readSize: Math.min(Math.max(readSize, 1), TCP_LIMITS.readBytes),
    readAll: bool(b['read-all']),
    tls: bool(b.tls) || hosts.some((h) => /^tls:\/\//i.test(h)),
  }
  checkMarkers([...hosts, ...inputs.filter((i) => !i.hex).map((i) => i.data)])
  return block
}
