// The auth cache: valid keys skip the auth query for a short while, revocations made elsewhere are
// seen within WARD_AUTH_CACHE_MS, changes made through the API at once.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createCallerCache } from '../../src/api/caller-cache.js'
import { createApiKey, hashKey, revokeKeysByPrefix, keyPrefix, type Caller } from '../../src/store/accounts.js'
import { startWard } from '../helpers/ward.js'

const caller = (userId: number, keyHash: string): Caller => ({
  userId,
  keyHash,
  activeWorkspaceId: 1,
  maxTargets: 10,
  licenseExpires: null,
})
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('the cache keeps callers for ttl, is bounded, forgets a user, and is off at 0', () => {
  let t = 1000
  const c = createCallerCache(500, 2, () => t)
  c.set(caller(1, 'a'))
  assert.equal(c.get('a')?.userId, 1)
  t += 499
  assert.ok(c.get('a'))
  t += 1
  assert.equal(c.get('a'), null, 'expired at ttl')
  c.set(caller(1, 'a'))
  c.set(caller(2, 'b'))
  c.set(caller(3, 'c'))
  assert.equal(c.get('a'), null, 'the oldest entry is evicted beyond maxEntries')
  assert.ok(c.get('b') && c.get('c'))
  c.forgetUser(2)
  assert.equal(c.get('b'), null)
  assert.ok(c.get('c'))
  const off = createCallerCache(0)
  off.set(caller(1, 'a'))
  assert.equal(off.get('a'), null)
})

test('auth queries once per key within the ttl; a revoked key fails once the ttl has passed', async () => {
  let authQueries = 0
  const w = await startWard({
    worker: false,
    env: { WARD_AUTH_CACHE_MS: '300' },
    onQuery: (sql) => void (/from "api_keys"/.test(sql) && authQueries++),
  })
  try {
    const key = (await createApiKey(w.h.db, w.userId))!
    for (let i = 0; i < 5; i++) assert.equal((await w.req('GET', '/api/v2/targets', { key })).statusCode, 200)
    assert.equal(authQueries, 1, 'one auth query for five requests')
    assert.equal(await revokeKeysByPrefix(w.h.db, keyPrefix(key)), 1)
    await sleep(350)
    const r = await w.req('GET', '/api/v2/targets', { key })
    assert.equal(r.statusCode, 401)
    // A wrong key is never cached: each attempt asks the database.
    const before = authQueries
    for (let i = 0; i < 3; i++) assert.equal((await w.req('GET', '/api/v2/targets', { key: 'ward_' + 'x'.repeat(32) })).statusCode, 401)
    assert.equal(authQueries - before, 3)
    assert.equal(hashKey(key).length, 64)
  } finally {
    await w.close()
  }
})

test('WARD_AUTH_CACHE_MS=0: a revoked key fails at once', async () => {
  const w = await startWard({ worker: false, env: { WARD_AUTH_CACHE_MS: '0' } })
  try {
    const key = (await createApiKey(w.h.db, w.userId))!
    assert.equal((await w.req('GET', '/api/v2/targets', { key })).statusCode, 200)
    await revokeKeysByPrefix(w.h.db, keyPrefix(key))
    assert.equal((await w.req('GET', '/api/v2/targets', { key })).statusCode, 401)
  } finally {
    await w.close()
  }
})

test('activating a workspace is seen by the next request despite the cache', async () => {
  const w = await startWard({ worker: false, env: { WARD_AUTH_CACHE_MS: '60000' } })
  try {
    assert.equal((await w.req('GET', '/api/v2/workspaces')).statusCode, 200)
    const created = await w.req('POST', '/api/v2/workspaces', { body: { name: 'second' } })
    assert.equal(created.statusCode, 201, created.body)
    const id = created.json().data.created_id
    assert.equal((await w.req('POST', `/api/v2/workspaces/${id}/activate`)).statusCode, 204)
    const list = (await w.req('GET', '/api/v2/workspaces')).json().data as Array<{ id: number; active: boolean }>
    assert.deepEqual(
      list.filter((x) => x.active).map((x) => x.id),
      [id],
    )
    // New targets land in the newly active workspace.
    const t = await w.req('POST', '/api/v2/targets', { body: { name: 'cache.example.com' } })
    assert.equal(t.statusCode, 201, t.body)
    const target = (await w.req('GET', `/api/v2/targets/${t.json().data.created_id}`)).json().data
    assert.equal(target.workspace_id, id)
  } finally {
    await w.close()
  }
})
