// When a schedule fires: a cron expression in an IANA time zone (croner) or a fixed interval.
// Slots missed while Ward was down collapse into one: the next slot is always the first after now.
import { Cron } from 'croner'

export interface Timing {
  cron: string | null
  timezone: string
  interval_minutes: number | null
}

const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'])

/** Why a time zone is not an IANA name Intl knows, or null. */
export function timezoneProblem(tz: string): string | null {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return null
  } catch {
    return `timezone "${tz}" is not an IANA time zone name (such as UTC or Europe/Berlin)`
  }
}

/** Why a cron expression cannot be used (five fields, or @daily and the like), or null. */
export function cronProblem(expr: string, tz = 'UTC'): string | null {
  const e = expr.trim()
  if (!NICKNAMES.has(e.toLowerCase()) && e.split(/\s+/).length !== 5)
    return `cron expression "${expr}" must have five fields (minute hour day-of-month month day-of-week) or be one of ${[...NICKNAMES].join(', ')}`
  try {
    const next = new Cron(e, { timezone: tz, paused: true }).nextRun(new Date())
    if (!next) return `cron expression "${expr}" never fires`
    return null
  } catch (err) {
    return `cron expression "${expr}" is not valid: ${(err as Error).message}`
  }
}

/**
 * The first slot strictly after `now`. An interval schedule keeps its rhythm from `anchor` (its
 * previous slot); a cron schedule asks croner in the schedule's time zone.
 */
export function nextSlot(t: Timing, now: Date, anchor?: Date): Date {
  if (t.interval_minutes) {
    const step = t.interval_minutes * 60_000
    if (!anchor || anchor.getTime() > now.getTime()) return new Date(now.getTime() + step)
    const k = Math.floor((now.getTime() - anchor.getTime()) / step) + 1
    return new Date(anchor.getTime() + k * step)
  }
  const next = new Cron(t.cron!.trim(), { timezone: t.timezone, paused: true }).nextRun(now)
  // A valid expression that never fires again (a date in the past): park it far away.
  return next ?? new Date('9999-12-31T00:00:00.000Z')
}
