// Small pieces every page handler shares: sending a page, CSRF, TLS detection, fixed messages.
import { timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { WardError } from '../domain/errors.js'

const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** Whether a request came over TLS (directly, or through a proxy that says so). */
export const overTls = (req: FastifyRequest) =>
  req.protocol === 'https' ||
  String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim() === 'https'

export const sendPage = (reply: FastifyReply, body: { value: string }, status = 200) =>
  reply.status(status).type('text/html; charset=utf-8').send(body.value)

/**
 * CSRF: a state change must carry the expected token (form field or htmx header) and, when the
 * browser says where it comes from (Origin, else Referer), come from this site.
 */
export function checkCsrf(req: FastifyRequest, expected: string) {
  const origin = req.headers.origin
  // Origin `null` (a sandboxed frame, a privacy setting) says nothing; without an Origin, the Referer says.
  const from = origin ? (origin === 'null' ? undefined : origin) : req.headers.referer
  if (from) {
    let host = ''
    try {
      host = new URL(from).host
    } catch {}
    if (host !== req.headers.host) throw new WardError(403, 'This form was sent from another site; reload the page and try again')
  }
  const body = req.body as Record<string, unknown> | undefined
  const given = String(req.headers['x-csrf-token'] ?? (typeof body?._csrf === 'string' ? body._csrf : ''))
  if (!given || !sameToken(given, expected))
    throw new WardError(403, 'The form has expired (its security token does not match your session); reload the page and try again')
}

/** The form fields of a POST (strings only; a repeated field keeps its last value). */
export function formOf(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
    const last = Array.isArray(v) ? v[v.length - 1] : v
    if (typeof last === 'string') out[k] = last
  }
  return out
}

/** Messages shown after a redirect (?ok=code): fixed texts, so a link cannot make Ward say anything else. */
const OK: Record<string, string> = {
  'key-revoked': 'The API key was revoked: the API refuses it from now on.',
  'workspace-created': 'Workspace created.',
  'workspace-renamed': 'Workspace renamed.',
  'workspace-active': "Active workspace changed: the API lists this workspace's scans when no workspace_id is given.",
  'workspace-vpn': 'Default VPN profile of the workspace saved.',
  'member-added': 'Member added: they see this workspace from their next page on.',
  'member-changed': 'Role changed.',
  'invitation-revoked': 'Invitation revoked: its link no longer works.',
  'invitation-used': 'You joined the workspace: it is now your active workspace.',
  'member-removed': 'Member removed: their access to this workspace ended at once.',
  'vpn-created': 'VPN profile created.',
  'vpn-deleted': 'VPN profile deleted.',
  'target-added': 'Target added.',
  'target-deleted': 'Target deleted with its scans and findings.',
  'scan-started': 'Scan queued: it starts as soon as a worker is free.',
  'scan-stopped': 'Stop requested.',
  'scan-deleted': 'Scan deleted.',
  'finding-triaged': 'Finding updated (with its duplicates); the change is in its history.',
  'findings-triaged': "The chosen findings were updated (with their duplicates); each change is in its finding's history.",
  'schedule-created': 'Schedule created.',
  'none-chosen': 'No finding was chosen: tick the findings to change, or "all findings matching the filter".',
  'schedule-paused': 'Schedule paused: it does not run until you resume it.',
  'schedule-resumed': 'Schedule resumed: it runs at its next slot from now.',
  'schedule-run': 'Scan queued by the schedule.',
  'schedule-skipped': 'Not run: the previous scan of this schedule is still running.',
  'schedule-deleted': 'Schedule deleted; its scans are kept.',
  'workspace-deleted': 'Workspace deleted with its targets, scans, findings and schedules.',
  'user-disabled': 'User disabled: their API keys and web sessions stopped working.',
  'user-enabled': 'User enabled again.',
  'admin-granted': 'The user is now an instance admin.',
  'admin-revoked': 'The user is no longer an instance admin.',
  'settings-saved': 'Scan settings saved: start scans and schedules with them from this list.',
  'settings-renamed': 'Scan settings renamed.',
  'settings-deleted': 'Scan settings deleted; scans and schedules started from them are kept.',
}
export const okMessage = (req: FastifyRequest) => OK[String((req.query as Record<string, unknown>)?.ok ?? '')] ?? null

/** A positive whole number from a path or form value, or a 404 / 400 in words. */
export function idOf(v: unknown, what: string): number {
  const s = String(v ?? '')
  if (!/^[1-9][0-9]{0,15}$/.test(s) || !Number.isSafeInteger(Number(s))) throw new WardError(404, `${what} does not exist`)
  return Number(s)
}

/** Runs a domain call; a refusal (4xx WardError) comes back as its status and sentence for the page to show. */
export async function attempt<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; status: number; message: string }> {
  try {
    return { ok: true, value: await fn() }
  } catch (e) {
    if (e instanceof WardError && e.status < 500) return { ok: false, status: e.status, message: e.message }
    throw e
  }
}
