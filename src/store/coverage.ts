// What a complete scan covered, as stored in scans.coverage (JSON), and the rule that reads it:
// a finding is closed only by a scan that covered its location (decisions.md, "Life cycle").
// Tools report ports through ScanContext.cover (toolkit/coverage.ts); the engine's egress records
// the HTTP origins that answered; tests that ran to a result are in the tests table.

export type CoverProtocol = 'tcp' | 'udp'

export interface ScanCoverage {
  /** Ports probed and found open, per protocol, as compact ranges ("1-1024,2222"). */
  ports: Partial<Record<CoverProtocol, { probed: string; open: string }>>
  /** Origins (`scheme://host:port`) that sent an HTTP answer, whatever its status. */
  origins: string[]
}

/** "1-3,7" for [1,2,3,7]: a full range of 65,535 ports stays one short string. */
export function portRanges(ports: Iterable<number>): string {
  const sorted = [...new Set(ports)].filter((p) => Number.isInteger(p) && p > 0 && p < 65536).sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`)
    i = j + 1
  }
  return parts.join(',')
}

/** Whether `port` is in a range string of portRanges. */
export function inRanges(ranges: string, port: number): boolean {
  for (const part of ranges.split(',')) {
    if (!part) continue
    const [a, b] = part.split('-').map(Number)
    if (port >= a && port <= (b ?? a)) return true
  }
  return false
}

/** `scheme://host:port` of a URL, the port always written (so http://h and http://h:80 are one). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
    const port = u.port || (u.protocol === 'https:' ? '443' : '80')
    return `${u.protocol}//${u.hostname.toLowerCase()}:${port}`
  } catch {
    return null
  }
}

export function parseCoverage(text: string | null | undefined): ScanCoverage | null {
  if (!text) return null
  try {
    const c = JSON.parse(text) as ScanCoverage
    return { ports: c.ports ?? {}, origins: Array.isArray(c.origins) ? c.origins : [] }
  } catch {
    return null
  }
}

/** Where a finding was, as the coverage rule reads it. */
export interface FindingSpot {
  port: number | null
  protocol: string | null
  url: string | null
  /** Name of the test that reported it (null: a finding written before tests were linked). */
  test_name: string | null
}

/** What a scan looked at: its coverage (null: a scan from before coverage was recorded) and the tests that ran to a result. */
export interface ScanLook {
  coverage: ScanCoverage | null
  testsRan: ReadonlySet<string>
}

/**
 * Whether a complete scan looked where `f` was. A scan from before coverage was recorded covered
 * everything (the old rule, so nothing changes for stored history). Otherwise:
 * - a finding on a port: the port was probed; if the scan found it closed, that is enough (the
 *   service is gone), else the test that reports the finding must have run to a result;
 * - a finding on a URL: its origin answered, and the reporting test ran to a result;
 * - any other finding: the reporting test ran to a result.
 */
export function lookedAt(look: ScanLook, f: FindingSpot): boolean {
  const c = look.coverage
  if (!c) return true
  const testRan = f.test_name === null || look.testsRan.has(f.test_name)
  if (f.port !== null && f.url === null) {
    const proto = f.protocol === 'udp' ? 'udp' : 'tcp'
    const p = c.ports[proto]
    if (!p) return portlessTool(c) && testRan
    if (!inRanges(p.probed, f.port)) return false
    return !inRanges(p.open, f.port) || testRan
  }
  if (f.url !== null) {
    const o = originOf(f.url)
    return o !== null && c.origins.includes(o) && testRan
  }
  return testRan
}

// A tool that reports no port coverage at all (a TLS or web scan of one endpoint, the diagnostic
// tool) still puts ports on findings: its tests say whether it looked.
const portlessTool = (c: ScanCoverage) => Object.keys(c.ports).length === 0
