// One fact, one vuln_id: anonymous FTP and Redis without authentication were reported by the TCP
// Port Scanner and the Network Vulnerability Scanner under two ids each, and a Redis or PostgreSQL
// login without a password by the Password Auditor under a third, so dedup and triage saw two or
// three problems. The other tools' ids are renamed to the Port Scanner's (shared) ones; their stored
// findings get the new id and the dedup key the new id gives, their duplicate groups and triage
// history follow them, and a group that now meets the Port Scanner's group of the same fact is merged
// into it (earliest first sighting, latest last sighting and state).
import { createHash } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { DbKind } from './columns.js'

/** Old vuln_id (on findings of `service` only, where given) → the shared id. */
export const RENAMED_VULN_IDS: ReadonlyArray<{ from: string; service?: string; to: string; tool: number }> = [
  { from: 'netvuln.ftp.anonymous-login', to: 'tcp.exposure.ftp-anonymous', tool: 350 },
  { from: 'netvuln.redis.no-auth', to: 'tcp.exposure.redis-unauthenticated', tool: 350 },
  { from: 'password.no-authentication', service: 'redis', to: 'tcp.exposure.redis-unauthenticated', tool: 400 },
  { from: 'password.no-authentication', service: 'postgresql', to: 'tcp.exposure.postgresql-no-password', tool: 400 },
]

/**
 * The dedup key recipe of domain/finding-identity.ts as of this migration (ward-finding-v1), frozen
 * here as migrations are: the renamed checks' findings carry neither URL nor location, so the
 * location normalisation reduces to trimming.
 */
function keyOf(r: FindingRow, vulnId: string): string {
  const loc = (s: string | null) => (s == null || s.trim() === '' ? null : s.trim())
  const facts = [
    'ward-finding-v1',
    r.target_id,
    vulnId,
    r.port ?? null,
    r.protocol ? r.protocol.trim().toLowerCase() : null,
    loc(r.url),
    loc(r.location),
  ]
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex')
}

interface FindingRow {
  id: number
  workspace_id: number
  target_id: number
  dedup_key: string
  vuln_id: string
  port: number | null
  protocol: string | null
  url: string | null
  location: string | null
}

interface GroupRow {
  id: number
  first_seen: string
  last_seen: string
  first_scan_id: number
  last_scan_id: number
  state: string
  regression: number
  fixed_at: string | null
  fixed_scan_id: number | null
}

// Kysely<unknown> has no tables; the rows are read and written through raw SQL.
async function moveGroup(db: Kysely<unknown>, workspaceId: number, from: string, to: string): Promise<void> {
  const rows = (
    await sql<
      GroupRow & { dedup_key: string }
    >`SELECT * FROM finding_groups WHERE workspace_id = ${workspaceId} AND dedup_key IN (${from}, ${to})`.execute(db)
  ).rows
  const old = rows.find((g) => g.dedup_key === from)
  const kept = rows.find((g) => g.dedup_key === to)
  if (old && !kept) await sql`UPDATE finding_groups SET dedup_key = ${to} WHERE id = ${old.id}`.execute(db)
  else if (old && kept) {
    const first = old.first_seen < kept.first_seen ? old : kept
    const last = old.last_seen > kept.last_seen ? old : kept
    await sql`UPDATE finding_groups SET first_seen = ${first.first_seen}, first_scan_id = ${first.first_scan_id}, last_seen = ${last.last_seen},
      last_scan_id = ${last.last_scan_id}, state = ${last.state}, regression = ${last.regression}, fixed_at = ${last.fixed_at}, fixed_scan_id = ${last.fixed_scan_id}
      WHERE id = ${kept.id}`.execute(db)
    await sql`DELETE FROM finding_groups WHERE id = ${old.id}`.execute(db)
  }
  await sql`UPDATE finding_history SET dedup_key = ${to} WHERE workspace_id = ${workspaceId} AND dedup_key = ${from}`.execute(db)
}

async function rename(db: Kysely<unknown>): Promise<void> {
  for (const { from, service, to } of RENAMED_VULN_IDS) {
    const select = sql`SELECT id, workspace_id, target_id, dedup_key, vuln_id, port, protocol, url, location FROM findings WHERE vuln_id = ${from}`
    const rows = (await sql<FindingRow>`${select} ${service ? sql`AND service = ${service}` : sql``}`.execute(db)).rows
    const moved = new Map<string, { workspaceId: number; to: string }>()
    for (const r of rows) {
      const key = keyOf(r, to)
      await sql`UPDATE findings SET vuln_id = ${to}, dedup_key = ${key} WHERE id = ${r.id}`.execute(db)
      moved.set(`${r.workspace_id} ${r.dedup_key}`, { workspaceId: r.workspace_id, to: key })
    }
    for (const [k, m] of moved) await moveGroup(db, m.workspaceId, k.slice(k.indexOf(' ') + 1), m.to)
  }
}

export const m024OneFactOneId = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await rename(db)
  },
  async down(db: Kysely<unknown>) {
    // Only the findings of the tools whose ids were renamed go back to their old ids (groups stay merged).
    for (const { from, service, to, tool } of RENAMED_VULN_IDS) {
      const select = sql`SELECT f.id, f.workspace_id, f.target_id, f.dedup_key, f.vuln_id, f.port, f.protocol, f.url, f.location
          FROM findings f JOIN scans s ON s.id = f.scan_id WHERE f.vuln_id = ${to} AND s.tool_id = ${tool}`
      const rows = (await sql<FindingRow>`${select} ${service ? sql`AND f.service = ${service}` : sql``}`.execute(db)).rows
      for (const r of rows) await sql`UPDATE findings SET vuln_id = ${from}, dedup_key = ${keyOf(r, from)} WHERE id = ${r.id}`.execute(db)
    }
  },
})
