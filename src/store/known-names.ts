// Hostnames Ward already knows in one workspace: its targets' names and what the Subdomain Finder
// (tool 20) found there. Tools get them through the scan context (Find Virtual Hosts tries each as
// a Host header); they read no database themselves.
import type { Db } from './db.js'

const SUBDOMAIN_FINDER = 20
/** The newest Subdomain Finder outputs read (older ones mostly repeat them). */
const MAX_SCANS = 20

/** Target names (hostnames, IPs, URLs as stored) and found subdomains of `workspaceId`, unordered, unique. */
export async function knownNamesOf(db: Db, workspaceId: number, limit: number): Promise<string[]> {
  const names = new Set<string>()
  const targets = await db
    .selectFrom('targets')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  for (const t of targets) names.add(t.name)
  const scans = await db
    .selectFrom('scans')
    .select('output_data')
    .where('workspace_id', '=', workspaceId)
    .where('tool_id', '=', SUBDOMAIN_FINDER)
    .where('output_data', 'is not', null)
    .orderBy('id', 'desc')
    .limit(MAX_SCANS)
    .execute()
  for (const s of scans) {
    for (const h of subdomainsOf(s.output_data)) {
      if (names.size >= limit) return [...names]
      names.add(h)
    }
  }
  return [...names]
}

/** output_data.subdomains[].hostname of a Subdomain Finder scan; nothing for anything else. */
function subdomainsOf(outputData: string | null): string[] {
  try {
    const subs = (JSON.parse(outputData ?? 'null') as { subdomains?: unknown } | null)?.subdomains
    if (!Array.isArray(subs)) return []
    return subs.map((x) => (x as { hostname?: unknown })?.hostname).filter((h): h is string => typeof h === 'string')
  } catch {
    return []
  }
}
