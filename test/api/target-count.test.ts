// The target limit reads a counter on the user's row (migration 015), not a COUNT over the targets:
// it must follow every create and delete, refused and concurrent creates included.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'
import { countUserTargets } from '../../src/store/targets.js'

let w: TestWard
before(async () => {
  w = await startWard({ worker: false })
})
after(() => w.close())

const create = (name: string, key: string) => w.req('POST', '/api/v2/targets', { body: { name }, key })
const realCount = async (userId: number) =>
  Number(
    (
      await w.h.db
        .selectFrom('targets')
        .select((e) => e.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  )

test('the counter follows creates, duplicates, refusals and deletes; the limit holds', async () => {
  const u = await w.user('counted', { maxTargets: 3 })
  assert.equal(await countUserTargets(w.h.db, u.userId), 0)
  const a = await create('a.example', u.key)
  assert.equal(a.statusCode, 201, a.body)
  assert.equal((await create('A.example', u.key)).statusCode, 409, 'same name: no count')
  assert.equal((await create('b.example', u.key)).statusCode, 201)
  assert.equal(await countUserTargets(w.h.db, u.userId), 2)
  // Concurrent creates of distinct names up to the limit and beyond.
  const rs = await Promise.all(['c.example', 'd.example', 'e.example'].map((n) => create(n, u.key)))
  assert.deepEqual(rs.map((r) => r.statusCode).sort(), [201, 403, 403], 'one place left: exactly one concurrent create gets it')
  assert.equal(await countUserTargets(w.h.db, u.userId), await realCount(u.userId))
  assert.equal((await create('f.example', u.key)).statusCode, 403)
  const del = await w.req('DELETE', `/api/v2/targets/${a.json().data.created_id}`, { key: u.key })
  assert.equal(del.statusCode, 204)
  assert.equal(await countUserTargets(w.h.db, u.userId), await realCount(u.userId))
  assert.equal((await create('g.example', u.key)).statusCode, 201, 'a delete frees a place')
  assert.equal(await countUserTargets(w.h.db, u.userId), 3)
  assert.equal(await realCount(u.userId), 3)
  // Another user's targets are not counted on this one.
  assert.equal(await countUserTargets(w.h.db, w.userId), await realCount(w.userId))
})
