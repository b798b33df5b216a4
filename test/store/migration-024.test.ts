// Migration 024 (one fact, one vuln_id): the Network Vulnerability Scanner's stored findings of
// anonymous FTP and unauthenticated Redis, and the Password Auditor's Redis/PostgreSQL logins without a
// password, take the shared ids and the dedup keys those ids give (the
// keys the scanners write from now on), their groups and triage history follow, and a group meeting
// the Port Scanner's group of the same fact is merged into it. SQLite file in a temporary folder.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql, type Kysely } from 'kysely'
import { openDatabase } from '../../src/store/db.js'
import { m024OneFactOneId } from '../../src/store/migrations/024-one-fact-one-id.js'
import { dedupKey } from '../../src/domain/finding-identity.js'

const NOW = '2026-01-01T00:00:00.000Z'

async function insertFinding(
  db: Kysely<unknown>,
  id: number,
  vulnId: string,
  port: number,
  status = 'open',
  service: string | null = null,
) {
  const key = dedupKey({ targetId: 7, vulnId, port, protocol: 'tcp' })
  await sql`INSERT INTO findings (id, scan_id, target_id, workspace_id, test_id, dedup_key, vuln_id, name, test_description, test_finished, confirmed,
    in_cisa_catalog, cve, vuln_description, risk_description, risk_level, status, recommendation, refs, verified, owasp, cwe, port, protocol, service, created_at)
    VALUES (${id}, 1, 7, 3, NULL, ${key}, ${vulnId}, 'n', 'd', 1, 1, 0, '[]', 'd', 'r', 2, ${status}, 'r', '[]', 0, '{}', 'CWE-284', ${port}, 'tcp', ${service}, ${NOW})`.execute(
    db,
  )
  return key
}

async function insertGroup(db: Kysely<unknown>, key: string, tool: number, first: string, last: string, state: string) {
  await sql`INSERT INTO finding_groups (workspace_id, dedup_key, target_id, tool_id, first_seen, last_seen, first_scan_id, last_scan_id, state, regression)
    VALUES (3, ${key}, 7, ${tool}, ${first}, ${last}, 1, 2, ${state}, 0)`.execute(db)
}

test('024 renames the ids, rekeys findings, moves history, merges groups, keeps triage', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-m024-'))
  const h = await openDatabase({ kind: 'sqlite', file: path.join(dir, 'ward.db') })
  const db = h.db as unknown as Kysely<unknown>
  try {
    await sql`PRAGMA foreign_keys = OFF`.execute(db)
    const ftpOld = await insertFinding(db, 1, 'netvuln.ftp.anonymous-login', 21, 'accepted')
    const redisOld = await insertFinding(db, 2, 'netvuln.redis.no-auth', 6379)
    const ftpShared = await insertFinding(db, 3, 'tcp.exposure.ftp-anonymous', 21)
    await insertFinding(db, 4, 'password.no-authentication', 6380, 'open', 'redis')
    const mysqlNoAuth = await insertFinding(db, 5, 'password.no-authentication', 3306, 'open', 'mysql')
    await insertGroup(db, ftpOld, 350, '2025-01-01', '2025-06-01', 'fixed')
    await insertGroup(db, ftpShared, 70, '2025-03-01', '2025-05-01', 'open')
    await insertGroup(db, redisOld, 350, '2025-02-01', '2025-02-01', 'open')
    await sql`INSERT INTO finding_history (workspace_id, dedup_key, finding_id, field, old_value, new_value, created_at) VALUES (3, ${ftpOld}, 1, 'status', 'open', 'accepted', ${NOW})`.execute(
      db,
    )

    await m024OneFactOneId('sqlite').up(db)

    const findings = (
      await sql<{
        id: number
        vuln_id: string
        dedup_key: string
        status: string
      }>`SELECT id, vuln_id, dedup_key, status FROM findings ORDER BY id`.execute(db)
    ).rows
    const redisNew = dedupKey({ targetId: 7, vulnId: 'tcp.exposure.redis-unauthenticated', port: 6379, protocol: 'tcp' })
    assert.deepEqual(findings, [
      { id: 1, vuln_id: 'tcp.exposure.ftp-anonymous', dedup_key: ftpShared, status: 'accepted' },
      { id: 2, vuln_id: 'tcp.exposure.redis-unauthenticated', dedup_key: redisNew, status: 'open' },
      { id: 3, vuln_id: 'tcp.exposure.ftp-anonymous', dedup_key: ftpShared, status: 'open' },
      {
        id: 4,
        vuln_id: 'tcp.exposure.redis-unauthenticated',
        dedup_key: dedupKey({ targetId: 7, vulnId: 'tcp.exposure.redis-unauthenticated', port: 6380, protocol: 'tcp' }),
        status: 'open',
      },
      { id: 5, vuln_id: 'password.no-authentication', dedup_key: mysqlNoAuth, status: 'open' },
    ])
    const groups = (
      await sql<{
        dedup_key: string
        tool_id: number
        first_seen: string
        last_seen: string
        state: string
      }>`SELECT dedup_key, tool_id, first_seen, last_seen, state FROM finding_groups ORDER BY first_seen`.execute(db)
    ).rows
    assert.deepEqual(groups, [
      { dedup_key: ftpShared, tool_id: 70, first_seen: '2025-01-01', last_seen: '2025-06-01', state: 'fixed' },
      { dedup_key: redisNew, tool_id: 350, first_seen: '2025-02-01', last_seen: '2025-02-01', state: 'open' },
    ])
    const history = (await sql<{ dedup_key: string }>`SELECT dedup_key FROM finding_history`.execute(db)).rows
    assert.deepEqual(history, [{ dedup_key: ftpShared }])
  } finally {
    await h.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
