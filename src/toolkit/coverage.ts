// How tools and the engine record what a scan looked at (store/coverage.ts holds the stored shape
// and the rule that closes findings only where a complete scan looked).
import { originOf, portRanges, type CoverProtocol, type ScanCoverage } from '../store/coverage.js'

export type { CoverProtocol, ScanCoverage } from '../store/coverage.js'

/** One report of a tool: ports probed on one protocol, and which of them it found open. */
export interface PortCoverage {
  protocol: CoverProtocol
  probed: readonly number[]
  open: readonly number[]
}

/** Accumulates a scan's coverage as the tool reports it and as its HTTP answers arrive. */
export class CoverageRecorder {
  private readonly probed: Record<CoverProtocol, Set<number>> = { tcp: new Set(), udp: new Set() }
  private readonly open: Record<CoverProtocol, Set<number>> = { tcp: new Set(), udp: new Set() }
  private readonly origins = new Set<string>()

  ports(c: PortCoverage): void {
    for (const p of c.probed) this.probed[c.protocol].add(p)
    for (const p of c.open) this.open[c.protocol].add(p)
  }

  answered(url: string): void {
    const o = originOf(url)
    if (o) this.origins.add(o)
  }

  toJSON(): ScanCoverage {
    const ports: ScanCoverage['ports'] = {}
    for (const proto of ['tcp', 'udp'] as const)
      if (this.probed[proto].size) ports[proto] = { probed: portRanges(this.probed[proto]), open: portRanges(this.open[proto]) }
    return { ports, origins: [...this.origins].sort() }
  }
}
