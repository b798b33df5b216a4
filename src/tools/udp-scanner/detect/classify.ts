// Pure: port exchanges → port rows and check hits. No I/O.
import { udpOpenPort } from '../checks.js'
import { FOLLOW_UPS, printable, probeFor, type FollowUp, type Hit } from '../probes/payloads.js'
import { serviceName } from '../data/ports.js'
import type { Exchange, PortState } from '../probes/exchange.js'

export interface PortRow {
  port: number
  protocol: 'udp'
  state: PortState
  service: string
  /** What the service said about itself, or a printable preview of its reply. */
  banner: string | null
  /** Product and version the reply named (DNS version.bind, memcached stats), else null. */
  product: string | null
  version: string | null
}

export interface PortFacts {
  row: PortRow
  /** Hits proven by the discovery probe's reply (SNMP public, SSDP, ...). */
  hits: Hit[]
}

export function classify(port: number, ex: Exchange): PortFacts {
  const probe = probeFor(port)
  if (ex.state !== 'open' || !ex.reply) {
    return {
      row: { port, protocol: 'udp', state: ex.state, service: serviceName(port), banner: null, product: null, version: null },
      hits: [],
    }
  }
  const known = probe.recognise(ex.reply, ex.sent)
  const banner = known?.details ?? (ex.reply.length ? printable(ex.reply) || `${ex.reply.length} bytes` : 'empty datagram')
  const hits: Hit[] = [
    { check: udpOpenPort, detail: `UDP ${port} (${known?.service ?? serviceName(port)}) answered the ${probe.id} probe: ${banner}.` },
    ...(known?.hits ?? []),
  ]
  return {
    row: {
      port,
      protocol: 'udp',
      state: 'open',
      service: known?.service ?? serviceName(port),
      banner,
      product: known?.product ?? null,
      version: known?.version ?? null,
    },
    hits,
  }
}

/** Follow-ups that apply to an open port: its recognised service has risky features to test. */
export const followUpsFor = (row: PortRow): FollowUp[] => (row.state === 'open' ? FOLLOW_UPS.filter((f) => f.service === row.service) : [])
