// What the `ward admin` commands share: the usage error, the checks of option values (with messages
// that name the option), and the padded table an admin reads in a terminal.
import { inTransaction, type Db, type DbHandle } from '../store/db.js'
import { appendAudit, SYSTEM_ACTOR, type AuditEntry } from '../store/audit.js'
import type { Config } from '../config/config.js'

/** A mistake of the command line or of what it names (a missing user): exit 2, one line. */
export class UsageError extends Error {}

/** What a command needs once its command line parsed: opened only then, so --help needs no database. */
export interface AdminContext {
  h: DbHandle
  cfg: Config
  out: (s: string) => void
  readPassword: () => Promise<string>
}

/** A real calendar date YYYY-MM-DD (2027-02-30 is refused, not rolled over into March). */
export function calendarDate(v: string | undefined, flag: string): string {
  const d = v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : null
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v)
    throw new UsageError(`--${flag} must be a calendar date YYYY-MM-DD (got ${JSON.stringify(v ?? '')})`)
  return v!
}

export function positiveInt(v: string | undefined, flag: string): number {
  if (!v || !/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${flag} must be a positive whole number`)
  return Number(v)
}

/** Columns padded to their widest cell, for lists an admin reads in a terminal. */
export function table(headers: string[], rows: Array<Array<string | number | null>>): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null ? '-' : String(c))))]
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)))
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/** A file that could not be read, or that a feed reader refused, is a usage error naming it; anything else is a bug. */
export function fileProblem(file: string, e: unknown, feedErrors: ReadonlyArray<abstract new (...a: never[]) => Error>): never {
  if (feedErrors.some((k) => e instanceof k) || (e as NodeJS.ErrnoException).code) throw new UsageError(`${file}: ${(e as Error).message}`)
  throw e
}

/** An audit entry for a change made at the console: the actor is `system` (whoever runs ward admin). */
export const byAdmin = (
  h: DbHandle,
  action: string,
  objectType: string,
  objectId: number | null,
  details: Record<string, unknown>,
  workspaceId: number | null = null,
) => appendAudit(h.db, { workspaceId, actorUserId: null, actor: 'system', client: null, action, objectType, objectId, details })

type ConsoleEntry = Omit<AuditEntry, 'actorUserId' | 'actor' | 'client'>

/** A change made at the console and its entry by `system` in one transaction; `entry` null: nothing done, no entry. */
export const changedByAdmin = <T>(h: DbHandle, change: (trx: Db) => Promise<T>, entry: (r: T) => ConsoleEntry | null): Promise<T> =>
  inTransaction(h.db, async (trx) => {
    const r = await change(trx)
    const e = entry(r)
    if (e) await appendAudit(trx, { ...SYSTEM_ACTOR, ...e })
    return r
  })
