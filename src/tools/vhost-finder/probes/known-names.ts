// The host names Ward knows in the scan's workspace (targets, Subdomain Finder results), from the engine.
import type { ScanContext } from '../../../toolkit/tool.js'
import { ipVersion, targetHost } from '../../../toolkit/ip.js'

/** Names asked of the engine at most. */
const MAX_KNOWN = 2000

export async function workspaceNames(ctx: Pick<ScanContext, 'knownNames'>): Promise<string[]> {
  if (!ctx.knownNames) return []
  const out = new Set<string>()
  for (const raw of await ctx.knownNames(MAX_KNOWN)) {
    let host: string
    try {
      host = targetHost(raw)
    } catch {
      continue
    }
    if (!ipVersion(host)) out.add(host.toLowerCase())
  }
  return [...out]
}
