// --tool: a short name, a numeric id, or a name the server's GET /tools lists.

/** Short names of the v2 tools (decisions.md "Tool ids"), the ids clients in the field use. */
export const TOOL_ALIASES: Readonly<Record<string, number>> = {
  subdomain: 20,
  subdomains: 20,
  tcp: 70,
  ports: 70,
  udp: 80,
  fuzzer: 90,
  'url-fuzzer': 90,
  website: 170,
  network: 350,
  netvuln: 350,
  tls: 450,
  ssl: 450,
}

export const TOOL_LABELS: Readonly<Record<number, string>> = {
  20: 'Subdomain Finder',
  70: 'TCP Port Scanner',
  80: 'UDP Port Scanner',
  90: 'URL Fuzzer',
  170: 'Website Scanner',
  350: 'Network Vulnerability Scanner',
  450: 'SSL/TLS Scanner',
}

export interface ServerTool {
  id: number
  name: string
  description?: string
  tool_params?: unknown
  supports_max_scan_time?: boolean
}

/** The tool id for --tool, or null when the value names no tool. */
export function resolveTool(value: string, serverTools: readonly ServerTool[] | null): number | null {
  const v = value.trim().toLowerCase()
  if (/^\d+$/.test(v)) return Number(v)
  if (TOOL_ALIASES[v] !== undefined) return TOOL_ALIASES[v]!
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '')
  const byName = (serverTools ?? []).find((t) => norm(t.name) === norm(v))
  if (byName) return byName.id
  const byLabel = Object.entries(TOOL_LABELS).find(([, l]) => norm(l) === norm(v))
  return byLabel ? Number(byLabel[0]) : null
}
