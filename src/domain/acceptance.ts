// An accepted risk may end on a date (`accepted_until`): the same rule for the API and the pages.
import { badRequest } from './errors.js'

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s)
  if (!m) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

/**
 * The expiry to store with a triage: undefined when none was given; refused (400) when given with
 * another status than `accepted`, when it is no calendar day, or when it has already passed.
 */
export function acceptedUntilOf(status: string | undefined, until: string | undefined, today = new Date()): string | undefined {
  if (until === undefined || until === '') return undefined
  if (status !== 'accepted') throw badRequest('Invalid parameters: accepted_until goes with status accepted')
  if (!isCalendarDay(until)) throw badRequest(`Invalid parameters: accepted_until ${until} is not a calendar day (YYYY-MM-DD)`)
  if (until < today.toISOString().slice(0, 10)) throw badRequest(`Invalid parameters: accepted_until ${until} has already passed`)
  return until
}
