// A receiving system's issue API as the ticket rules need it, and the text of an issue Ward opens.
import { RISK_NAMES } from '../risk.js'
import type { FindingItem } from './scan-event.js'

export interface Ticket {
  id: string
  url: string | null
  closed: boolean
}

/** One receiving system's issue API, as the ticket rules need it. */
export interface TicketSystem {
  find(label: string): Promise<Ticket | null>
  create(f: FindingItem, scanId: number): Promise<Ticket>
  comment(id: string, text: string): Promise<void>
  /** Reopens a closed issue; false when it cannot (then a comment says it). */
  reopen(id: string): Promise<boolean>
  /** Resolves the issue when the integration says how; false when it does not. */
  resolve(id: string): Promise<boolean>
}

export const ticketTitle = (f: FindingItem) => `[Ward] ${f.name}${f.location ? ` — ${f.location}` : ''}`.slice(0, 250)
export const ticketBody = (f: FindingItem, scanId: number) =>
  [
    `Risk: ${RISK_NAMES[f.risk_level] ?? f.risk_level}`,
    `Check: ${f.vuln_id}`,
    f.location ? `Location: ${f.location}` : '',
    `First reported by Ward scan ${scanId}.`,
    f.link ? `In Ward: ${f.link}` : '',
    '',
    f.description,
    '',
    f.recommendation ? `Recommendation: ${f.recommendation}` : '',
    '',
    `(Ward keeps this issue in step with the finding; label ${f.label})`,
  ]
    .filter((l, i, a) => l !== '' || (i > 0 && a[i - 1] !== ''))
    .join('\n')
