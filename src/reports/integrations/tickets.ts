// Tickets that follow the finding: one issue per duplicate group and integration, never two. Before
// creating, the group's row in integration_tickets is claimed (unique per integration and group, so
// a second worker waits for the first) and the system is searched for the group's label
// `ward-<12 hex>` (so an issue created before a crash or a lost answer is found, not duplicated).
// A regression reopens (or comments), a fix comments (and resolves when configured), a false
// positive comments. Our recorded state makes each of these happen once across retries.
import type { Db } from '../../store/db.js'
import { saveTicket, ticketOf } from '../../store/integration-outbox.js'
import { nowIso } from '../../store/time.js'
import type { FindingItem, ScanEvent } from './scan-event.js'
import type { Channel, ChannelContext } from './context.js'
import type { Ticket, TicketSystem } from './ticket-system.js'
import { ReceiverError, type Outcome } from './http.js'

const CLAIM_STALE_MS = 5 * 60_000

/** The group's issue: known, found by its label, or created — by one worker only. */
async function ticketFor(
  ctx: ChannelContext,
  sys: TicketSystem,
  f: FindingItem,
  scanId: number,
): Promise<{ ticket: Ticket; state: string; created: boolean }> {
  const integId = ctx.integ.id
  const known = await ticketOf(ctx.db, integId, f.dedup_key)
  if (known && known.state !== 'creating')
    return { ticket: { id: known.external_id, url: known.external_url, closed: false }, state: known.state, created: false }
  if (!(await claimCreation(ctx.db, integId, f.dedup_key, known?.updated_at ?? null)))
    throw new ReceiverError({
      verdict: 'retry',
      statusCode: null,
      answer: null,
      error: `another worker is creating the issue of ${f.label}; retried later`,
    })
  let found: Ticket | null
  let ticket: Ticket
  try {
    found = await sys.find(f.label)
    ticket = found ?? (await sys.create(f, scanId))
  } catch (e) {
    // Hand the claim back: the retry (ours or another worker's) searches again before creating.
    await ctx.db
      .deleteFrom('integration_tickets')
      .where('integration_id', '=', integId)
      .where('dedup_key', '=', f.dedup_key)
      .where('state', '=', 'creating')
      .execute()
    throw e
  }
  await saveTicket(ctx.db, integId, f.dedup_key, { external_id: ticket.id, external_url: ticket.url, state: 'open' })
  return { ticket, state: found?.closed ? 'fixed' : 'open', created: !found }
}

/** Takes the group's creation claim: a fresh row, or a claim left by a worker that stopped. */
async function claimCreation(db: Db, integId: number, key: string, staleSince: string | null): Promise<boolean> {
  const now = nowIso()
  if (staleSince === null) {
    const r = await db
      .insertInto('integration_tickets')
      .values({ integration_id: integId, dedup_key: key, external_id: '', external_url: null, state: 'creating', updated_at: now })
      .onConflict((oc) => oc.columns(['integration_id', 'dedup_key']).doNothing())
      .executeTakeFirst()
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
  }
  if (Date.parse(staleSince) > Date.now() - CLAIM_STALE_MS) return false
  const r = await db
    .updateTable('integration_tickets')
    .set({ updated_at: now })
    .where('integration_id', '=', integId)
    .where('dedup_key', '=', key)
    .where('state', '=', 'creating')
    .where('updated_at', '=', staleSince)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

async function setState(ctx: ChannelContext, f: { dedup_key: string }, t: Ticket, state: string) {
  await saveTicket(ctx.db, ctx.integ.id, f.dedup_key, { external_id: t.id, external_url: t.url, state })
}

async function onScan(ctx: ChannelContext, sys: TicketSystem, ev: ScanEvent): Promise<string> {
  let created = 0
  let updated = 0
  for (const f of [...ev.new, ...ev.regression]) {
    await ctx.renew()
    const { ticket, state, created: isNew } = await ticketFor(ctx, sys, f, ev.scan.id)
    if (isNew) created++
    if (!isNew && state === 'fixed') {
      // Back again: reopen when the system allows, and say so either way (once: the state moves to open).
      const reopened = await sys.reopen(ticket.id)
      await sys.comment(ticket.id, `Found again by Ward scan ${ev.scan.id}${reopened ? '; reopened' : ''}.${f.link ? ` ${f.link}` : ''}`)
      await setState(ctx, f, ticket, 'open')
      updated++
    }
  }
  for (const f of ev.fixed) {
    await ctx.renew()
    const known = await ticketOf(ctx.db, ctx.integ.id, f.dedup_key)
    // Not known here (a database restored, another Ward on the same project): its label finds it.
    const found = known ? null : await sys.find(f.label)
    if (known ? known.state !== 'open' : !found || found.closed) continue
    const t = known ? { id: known.external_id, url: known.external_url, closed: false } : found!
    await sys.comment(t.id, `Fixed: Ward scan ${ev.scan.id} looked and no longer finds it.`)
    await sys.resolve(t.id)
    await setState(ctx, f, t, 'fixed')
    updated++
  }
  return `${created} issue(s) created, ${updated} updated`
}

export const ticketChannel =
  (make: (ctx: ChannelContext) => TicketSystem): Channel =>
  async (ctx, p): Promise<Outcome> => {
    const sys = make(ctx)
    const done = (answer: string): Outcome => ({ verdict: 'delivered', statusCode: 200, answer, error: null })
    if (p.kind === 'scan') return done(await onScan(ctx, sys, p))
    if (p.kind === 'triage') {
      const known = await ticketOf(ctx.db, ctx.integ.id, p.dedup_key)
      if (!known || known.state === 'creating' || known.state === 'false_positive') return done('no issue to update')
      await sys.comment(known.external_id, `Triaged in Ward as a false positive${p.reason ? `: ${p.reason}` : ''}.`)
      await setState(ctx, p, { id: known.external_id, url: known.external_url, closed: false }, 'false_positive')
      return done(`commented on ${known.external_id}`)
    }
    // A test: prove the credentials and project by a search that finds nothing.
    await sys.find('ward-test')
    return done('the issue search answered: credentials and project work')
  }
