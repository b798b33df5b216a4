// output_data of the UDP Port Scanner: `ports` (open ones, and open|filtered ones while few enough to
// list) and `ports_summary` (counts by state).
import type { ScanContext } from '../../toolkit/tool.js'
import type { PortRow } from './detect/classify.js'

/** Beyond this many open|filtered ports (a firewalled host), they are counted, not listed. */
const MAX_LISTED_OPEN_FILTERED = 1000

export const countState = (rows: readonly PortRow[], s: PortRow['state']) => rows.filter((r) => r.state === s).length

export function outputPorts(ctx: Pick<ScanContext, 'output'>, rows: readonly PortRow[]): void {
  const count = (s: PortRow['state']) => countState(rows, s)
  const listFiltered = count('open|filtered') + count('filtered') <= MAX_LISTED_OPEN_FILTERED
  ctx.output(
    'ports',
    rows.filter((r) => r.state === 'open' || (listFiltered && r.state !== 'closed')),
  )
  ctx.output('ports_summary', {
    scanned: rows.length,
    open: count('open'),
    open_filtered: count('open|filtered'),
    closed: count('closed'),
    filtered: count('filtered'),
    unlisted_open_filtered: !listFiltered,
  })
}
