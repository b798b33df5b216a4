// VPN profile rules: validating new profiles, resolving a scan's profile, and turning a stored
// profile into egress settings. Messages never contain a password or a URL that may carry one.
import { randomUUID } from 'node:crypto'
import type { Db } from '../store/db.js'
import { audited, type AuditIntent } from '../store/audit.js'
import type { Caller } from '../store/accounts.js'
import { getWorkspace } from '../store/accounts.js'
import { getVpnProfile, insertVpnProfile, setWorkspaceVpnProfile, vpnProfileExists } from '../store/vpn-profiles.js'
import type { NewVpnProfile } from '../store/vpn-profiles.js'
import type { VpnProfileRow } from '../store/schema.js'
import { hostPort, parseProxyUrl } from '../toolkit/egress-profile.js'
import { nowIso } from '../store/time.js'
import { stripBrackets } from '../toolkit/ip.js'
import { hostBlockedBy, type Scope } from '../toolkit/scope.js'
import { badRequest, conflict, notFound } from './errors.js'
import { writableWorkspace } from './access.js'
import { isUniqueViolation } from './targets.js'

export const VPN_PROFILE_TYPES = ['socks5', 'http_connect'] as const
export type VpnProfileType = (typeof VPN_PROFILE_TYPES)[number]

export interface CreateVpnProfileInput {
  name: string
  type: VpnProfileType
  host?: string
  port?: number
  username?: string
  password?: string
  url?: string
}

const invalid = (m: string) => badRequest(`Invalid parameters: ${m}`)
const CONTROL = /[\u0000-\u001f\u007f]/
// A host name or an IP literal (IPv6 optionally bracketed): no spaces, slashes, '@' or control characters.
const HOST = /^(?:\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*|[A-Za-z0-9_.-]{1,253})$/

/** 400 when the proxy host is outside the VPN host scope (WARD_VPN_HOST_BLOCKLIST, metadata by default). */
function assertVpnHostInScope(scope: Scope, host: string): void {
  const rule = hostBlockedBy(scope, host)
  if (rule)
    throw invalid(`host "${host.slice(0, 200)}" may not be used as a VPN proxy: it matches the VPN host block list entry "${rule.text}"`)
}

/** Validates a new profile and returns the row to store (credentials in their own columns). */
export function newVpnProfile(userId: number, b: CreateVpnProfileInput, scope: Scope): NewVpnProfile {
  const name = b.name.trim()
  if (!name || CONTROL.test(name)) throw invalid('name must be a non-empty single line')
  const base = { uuid: randomUUID(), user_id: userId, name, type: b.type, created_at: nowIso() }
  if (b.type === 'socks5') {
    if (b.url !== undefined) throw invalid('a socks5 profile takes host and port, not url')
    if (b.host === undefined || b.port === undefined) throw invalid('a socks5 profile needs host and port')
    const host = b.host.trim()
    if (!HOST.test(host) || host.startsWith('.') || host.endsWith('-')) throw invalid('host must be a host name or an IP address')
    const username = b.username ?? null
    const password = b.password ?? null
    if ((username === null) !== (password === null)) throw invalid('give both username and password, or neither')
    if (username !== null && password !== null) {
      // RFC 1929: 1..255 bytes each.
      if (Buffer.byteLength(username) < 1 || Buffer.byteLength(username) > 255) throw invalid('username must be 1 to 255 bytes')
      if (Buffer.byteLength(password) < 1 || Buffer.byteLength(password) > 255) throw invalid('password must be 1 to 255 bytes')
    }
    assertVpnHostInScope(scope, host)
    return { ...base, host: stripBrackets(host), port: b.port, username, password, url: null }
  }
  if (b.host !== undefined || b.port !== undefined || b.username !== undefined || b.password !== undefined)
    throw invalid('an http_connect profile takes url (http://[user:pass@]host:port), not host, port, username or password')
  if (b.url === undefined) throw invalid('an http_connect profile needs url (http://[user:pass@]host:port)')
  let parsed: ReturnType<typeof parseProxyUrl>
  let username: string | null = null
  let password: string | null = null
  try {
    parsed = parseProxyUrl(b.url.trim())
    const u = new URL(b.url.trim())
    if (u.username || u.password) {
      username = decodeURIComponent(u.username)
      password = decodeURIComponent(u.password)
    }
  } catch (e) {
    // The URL may carry a password: only parseProxyUrl's own (URL-free) messages are passed on.
    const code = (e as { code?: string }).code
    throw invalid(code === 'EINVAL' ? (e as Error).message : 'url is not a valid proxy URL (expected http://[user:pass@]host:port)')
  }
  if (!parsed.host) throw invalid('url needs a host')
  assertVpnHostInScope(scope, parsed.host)
  const url = `${parsed.tls ? 'https' : 'http'}://${hostPort(parsed.host, parsed.port)}`
  return { ...base, host: parsed.host, port: parsed.port, username, password: password || null, url }
}

/** Stores a new profile of the user; `duplicate` words the 409 for its reader (an API client, a form). */
export async function addVpnProfile(
  db: Db,
  userId: number,
  input: CreateVpnProfileInput,
  scope: Scope,
  duplicate: (name: string) => string,
  audit?: AuditIntent,
): Promise<string> {
  const row = newVpnProfile(userId, input, scope)
  try {
    return await audited(
      db,
      audit,
      (trx) => insertVpnProfile(trx, row),
      (uuid) => ({ objectId: uuid }),
    )
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(duplicate(row.name))
    throw e
  }
}

/** Sets (uuid) or clears (null) a workspace's default profile: 403 for a viewer, 404 for what the user cannot see. */
export async function setDefaultVpnProfile(
  db: Db,
  caller: Pick<Caller, 'userId'>,
  workspaceId: number,
  uuid: string | null,
  audit?: AuditIntent,
): Promise<void> {
  await writableWorkspace(db, caller, workspaceId)
  if (uuid !== null && !(await getVpnProfile(db, caller.userId, uuid))) throw notFound('VPN profile')
  const set = await audited(db, audit, (trx) => setWorkspaceVpnProfile(trx, caller.userId, workspaceId, uuid), Boolean)
  if (!set) throw notFound('Workspace')
}

/** What the API shows of a profile: everything but the password. */
export function vpnProfileView(p: VpnProfileRow, workspaceIds: number[] = []) {
  return {
    uuid: p.uuid,
    name: p.name,
    type: p.type as VpnProfileType,
    host: p.host,
    port: p.port,
    url: p.url,
    username: p.username,
    has_password: p.password !== null && p.password !== '',
    workspace_ids: workspaceIds,
    created_at: p.created_at.slice(0, 19) + 'Z',
  }
}

/** The egress settings of a stored profile (credentials included: for the worker only). */
/**
 * The profile a new scan uses: an explicit uuid (the caller's own, or the workspace's default, which
 * serves every member), explicit null (none), or when the field is absent the workspace's default.
 */
export async function resolveVpnProfile(
  db: Db,
  caller: Caller,
  workspaceId: number,
  requested: string | null | undefined,
  given: boolean,
): Promise<string | null> {
  if (given && requested === null) return null
  const ws = await getWorkspace(db, caller.userId, workspaceId)
  if (given && requested !== undefined && requested !== null) {
    const usable =
      requested === ws?.vpn_profile_uuid ? await vpnProfileExists(db, requested) : !!(await getVpnProfile(db, caller.userId, requested))
    if (!usable) throw notFound('VPN profile')
    return requested
  }
  if (!ws?.vpn_profile_uuid) return null
  // Deleting a profile detaches it, but a scan created in the same instant must not name a ghost.
  return (await vpnProfileExists(db, ws.vpn_profile_uuid)) ? ws.vpn_profile_uuid : null
}
