// Migration 019 on a database that already has users and workspaces: every workspace's creator
// becomes its owner (nobody loses access), and nobody else belongs to it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Kysely } from 'kysely'
import { startWard, TEST_BACKEND } from '../helpers/ward.js'
import { m019WorkspaceMembers } from '../../src/store/migrations/019-workspace-members.js'
import { m025OidcIdentities } from '../../src/store/migrations/025-oidc-identities.js'

test('the backfill makes each workspace creator its owner, and the API answers as before', async () => {
  const w = await startWard({ worker: false })
  try {
    const bob = await w.user('bob')
    const extra = (await w.req('POST', '/api/v2/workspaces', { key: bob.key, body: { name: 'Second' } })).json().data.created_id
    const m = m019WorkspaceMembers(TEST_BACKEND)
    const raw = w.h.db as unknown as Kysely<unknown>
    // As before the migration: no membership table at all (and none of the later tables that refer to it).
    const later = m025OidcIdentities(TEST_BACKEND)
    await later.down(raw)
    await m.down(raw)
    await m.up(raw)
    await later.up(raw)
    const rows = await w.h.db.selectFrom('workspace_members').select(['workspace_id', 'user_id', 'role']).orderBy('workspace_id').execute()
    assert.deepEqual(rows, [
      { workspace_id: w.workspaceId, user_id: w.userId, role: 'owner' },
      { workspace_id: bob.workspaceId, user_id: bob.userId, role: 'owner' },
      { workspace_id: extra, user_id: bob.userId, role: 'owner' },
    ])
    const ws = (await w.req('GET', '/api/v2/workspaces', { key: bob.key })).json().data
    assert.deepEqual(
      ws.map((x: { id: number; role: string }) => [x.id, x.role]),
      [
        [extra, 'owner'],
        [bob.workspaceId, 'owner'],
      ],
    )
  } finally {
    await w.close()
  }
})
