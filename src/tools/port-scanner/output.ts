// output_data of the TCP Port Scanner: `ports` (one row per open port, updated as facts arrive) and
// `ports_summary` (counts and the discovery method).
import type { ScanContext } from '../../toolkit/tool.js'
import { cpeOf } from '../lib/services/products.js'
import type { OpenPort } from './detect/risk-rules.js'

interface PortRow {
  port: number
  protocol: 'tcp'
  state: 'open'
  service: string | null
  product: string | null
  version: string | null
  banner: string | null
  tls: boolean
  /** CPE of the product: the match rule's, else the vocabulary's (lib/services/products.ts). */
  cpe: string | null
  /** The probe whose answer named the service (lib/services/probes.ts), null when none did. */
  probe: string | null
}

/** The `ports` table, written again each time a port's facts change. */
export function portTable(ctx: Pick<ScanContext, 'output'>) {
  const rows: PortRow[] = []
  const rowOf = new Map<number, PortRow>()
  return {
    show(op: OpenPort) {
      let row = rowOf.get(op.port)
      if (!row)
        rows.push(
          (row = {
            port: op.port,
            protocol: 'tcp',
            state: 'open',
            service: null,
            product: null,
            version: null,
            banner: null,
            tls: false,
            cpe: null,
            probe: null,
          }),
        )
      rowOf.set(
        op.port,
        Object.assign(row, {
          service: op.service,
          product: op.product,
          version: op.version,
          banner: op.banner,
          tls: op.tls,
          cpe: op.cpe ?? cpeOf(op.product, op.version),
          probe: op.probe ?? null,
        }),
      )
      ctx.output('ports', rows)
    },
    final() {
      rows.sort((a, b) => a.port - b.port)
      ctx.output('ports', rows)
    },
  }
}

export interface PortsSummary {
  requested: number
  scanned: number
  open: number
  closed: number
  filtered: number
  method: 'syn' | 'connect'
}

export const outputSummary = (ctx: Pick<ScanContext, 'output'>, s: PortsSummary) => ctx.output('ports_summary', s)
