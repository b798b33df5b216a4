// The egress a scan's traffic leaves through: direct, or the scan's VPN profile (checked before the
// tool starts). The scope rules are enforced here when the scan starts (the target, the profile's
// host) and by the egress on every connection after that.
import type { Db } from '../store/db.js'
import type { ScanRow, VpnProfileRow } from '../store/schema.js'
import { hostPort, type EgressProfile } from '../toolkit/egress-profile.js'
import type { ToolManifest } from '../toolkit/tool.js'
import { ToolStartError } from '../toolkit/errors.js'
import type { Egress } from '../toolkit/egress.js'
import { createDirectEgress } from './net/direct.js'
import { createEgress } from './net/create-egress.js'
import { getVpnProfileForEgress } from '../store/vpn-profiles.js'
import { hostBlockedBy, type Scopes } from '../toolkit/scope.js'

export interface ScanScope {
  scopes: Scopes
  /** The target's host (toolkit/ip.ts targetHost), checked before anything is dialled. */
  targetHost: string
}

/** The VPN profile could not be brought up → `VPN connection error`. */
import { EgressUnavailableError } from './egress-errors.js'
import { EGRESS_CHECK_TIMEOUT_MS } from '../toolkit/timeouts.js'
export { EgressUnavailableError }

export async function egressForScan(
  db: Db,
  scan: ScanRow,
  tool: Pick<ToolManifest, 'name' | 'needs'>,
  signal: AbortSignal,
  scope?: ScanScope,
): Promise<Egress> {
  const scopes = scope?.scopes
  if (scope) {
    // A target created before its range was blocked, or a scan queued before: not scanned.
    const rule = hostBlockedBy(scope.scopes.target, scope.targetHost)
    if (rule)
      throw new ToolStartError(
        `the target ${scope.targetHost} is outside the allowed scope (it matches the ${scope.scopes.target.setting} entry "${rule.text}"); nothing was sent`,
      )
  }
  if (!scan.vpn_profile_uuid) {
    const egress = createDirectEgress(scopes?.target)
    if (tool.needs.udp && !egress.carriesUdp)
      throw new ToolStartError(`${tool.name} needs UDP, which the ${egress.kind} egress cannot carry`)
    return egress
  }
  const profile = await getVpnProfileForEgress(db, scan.vpn_profile_uuid)
  if (!profile)
    throw new EgressUnavailableError(`VPN profile ${scan.vpn_profile_uuid} no longer exists (it was deleted after the scan was created)`)
  const label = vpnProfileLabel(profile)
  if (scopes && hostBlockedBy(scopes.vpnHost, profile.host))
    throw new EgressUnavailableError(
      `${label} cannot be used: its host is outside the allowed scope (${scopes.vpnHost.setting}); nothing was sent`,
    )
  let egress: Egress
  try {
    egress = createEgress(egressProfileOf(profile), scopes)
  } catch (e) {
    throw new EgressUnavailableError(`${label} cannot be used: ${(e as Error).message}`)
  }
  // Refused before the proxy is contacted: no handshake can make a TCP proxy carry UDP.
  if (tool.needs.udp && !egress.carriesUdp) {
    await egress.close().catch(() => {})
    throw new ToolStartError(
      `${tool.name} needs UDP, which ${label} cannot carry: ${
        profile.type === 'socks5' ? 'Ward tunnels only TCP through SOCKS5' : 'an HTTP CONNECT proxy tunnels only TCP'
      }; scan without a VPN profile (vpn_profile_uuid: null) or use a TCP tool`,
    )
  }
  const timeout = AbortSignal.timeout(EGRESS_CHECK_TIMEOUT_MS + 1000)
  try {
    await egress.check(AbortSignal.any([signal, timeout]))
  } catch (e) {
    await egress.close().catch(() => {})
    // A stop/abort during the check is not the VPN's fault: let the engine read it as such.
    if (signal.aborted) throw e
    throw new EgressUnavailableError(`${label} failed the connection check: ${(e as Error).message}`)
  }
  return egress
}

/** A stored VPN profile as the egress it configures. */
export function egressProfileOf(p: VpnProfileRow): EgressProfile {
  if (p.type === 'socks5') return { type: 'socks5', host: p.host, port: p.port, username: p.username, password: p.password }
  const creds = p.username !== null ? `${encodeURIComponent(p.username)}:${encodeURIComponent(p.password ?? '')}@` : ''
  const u = new URL(p.url ?? `http://${hostPort(p.host, p.port)}`)
  return { type: 'http_connect', url: `${u.protocol}//${creds}${hostPort(p.host, p.port)}` }
}

/** How a profile is named in status messages: `VPN profile "office" (socks5 127.0.7.50:1080)`. Secret-free. */
export const vpnProfileLabel = (p: VpnProfileRow) =>
  `VPN profile ${JSON.stringify(p.name)} (${p.type} ${p.url ?? hostPort(p.host, p.port)})`
