// Hot reads by key on PostgreSQL issued in one event loop turn go out as one statement
// (store/pg-read-batch.ts): each read gets exactly its own rows (or none: another tenant's, missing),
// sees what was committed before it was issued, and a batch that fails gives each read its own answer.
// ward-test: single-run (PostgreSQL only, picked here)
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import pg from 'pg'
import { openDatabase, type DbHandle } from '../../src/store/db.js'
import { batchSql, pgReadBatch, type PgReadResult } from '../../src/store/pg-read-batch.js'
import { createUser } from '../../src/store/accounts.js'
import { getTarget, insertTarget } from '../../src/store/targets.js'
import { getScanView } from '../../src/store/scans.js'
import { createPgSchema, pgUnreachable } from '../helpers/ward.js'

let why: string | null = null
let schema: Awaited<ReturnType<typeof createPgSchema>>
let h: DbHandle
let pool: pg.Pool
let statements: string[] = []
const alice = { userId: 0, workspaceId: 0 }
const bob = { userId: 0, workspaceId: 0 }

before(async () => {
  why = await pgUnreachable()
  if (why) return
  schema = await createPgSchema()
  h = await openDatabase({ kind: 'postgres', url: schema.url, poolMax: 4 }, { notify: false })
  Object.assign(alice, await createUser(h.db, { name: 'batch-alice', maxTargets: 1000 }))
  Object.assign(bob, await createUser(h.db, { name: 'batch-bob', maxTargets: 1000 }))
  pool = new pg.Pool({ connectionString: schema.url, max: 4 })
})
after(async () => {
  if (why) return
  await pool.end()
  await h.close()
  await schema.drop()
})

/** Skips (saying why) when the test server cannot be reached. */
function reachable(): boolean {
  if (why) console.log(`PostgreSQL not reachable (${why}): nothing asserted on batched reads`)
  return !why
}

const newTarget = (owner: typeof alice, name: string) =>
  insertTarget(h.db, {
    workspaceId: owner.workspaceId,
    userId: owner.userId,
    name,
    nameKey: name,
    type: 'hostname',
    description: `about ${name}`,
  })

/** A batcher over `pool` that records every statement it sends. */
function counted() {
  statements = []
  return pgReadBatch(pool, async (text, values): Promise<PgReadResult> => {
    statements.push(text)
    const r = await pool.query({ text, values: values as unknown[], rowMode: 'array' })
    return { rows: r.rows as unknown[][], names: r.fields.map((f) => f.name) }
  })
}

const BY_ID =
  'select id, name, description from targets t where t.id = $1 and exists (select 1 from workspace_members wm where wm.workspace_id = t.workspace_id and wm.user_id = $2)'

test('reads issued together go out as one statement, each answered with its own rows', async () => {
  if (!reachable()) return
  const mine = await Promise.all(Array.from({ length: 30 }, (_, i) => newTarget(alice, `batch-${i}.example`)))
  const theirs = await newTarget(bob, 'batch-bob.example')
  const b = counted()
  const ids = [...mine, theirs, 999_999]
  // First meeting: the parameter types are learnt, then the batch runs.
  const got = await Promise.all(ids.map((id) => b.read(BY_ID, [id, alice.userId], false)))
  assert.equal(statements.length, 1, statements.join('\n'))
  assert.match(statements[0]!, /unnest\(\$1::integer\[\], \$2::integer\[\]\) with ordinality/)
  mine.forEach((id, i) => assert.deepEqual(got[i], [{ id, name: `batch-${i}.example`, description: `about batch-${i}.example` }]))
  assert.deepEqual(got[30], [], "another tenant's target is not read")
  assert.deepEqual(got[31], [], 'a missing one neither')
  // Arrays too, and a read alone runs as itself.
  const arrays = await Promise.all(mine.slice(0, 3).map((id) => b.read(BY_ID, [id, alice.userId], true)))
  assert.deepEqual(
    arrays,
    mine.slice(0, 3).map((id, i) => [[id, `batch-${i}.example`, `about batch-${i}.example`]]),
  )
  assert.deepEqual(await b.read(BY_ID, [mine[0], alice.userId], true), [[mine[0], 'batch-0.example', 'about batch-0.example']])
  assert.equal(statements.at(-1), BY_ID)
  assert.equal(statements.length, 3)
})

test('each read sees what was committed before it was issued, by any connection', async () => {
  if (!reachable()) return
  const ids = await Promise.all([newTarget(alice, 'seen-a.example'), newTarget(alice, 'seen-b.example')])
  const b = counted()
  await Promise.all(ids.map((id) => b.read(BY_ID, [id, alice.userId], false)))
  // Another connection (another process, as far as PostgreSQL knows) changes one and removes Alice.
  const other = new pg.Client({ connectionString: schema.url })
  await other.connect()
  try {
    await other.query('update targets set description = $1 where id = $2', ['changed elsewhere', ids[0]])
    const again = await Promise.all(ids.map((id) => b.read(BY_ID, [id, alice.userId], false)))
    assert.equal((again[0] as Array<{ description: string }>)[0]?.description, 'changed elsewhere')
    await other.query('delete from workspace_members where user_id = $1', [alice.userId])
    assert.deepEqual(await Promise.all(ids.map((id) => b.read(BY_ID, [id, alice.userId], false))), [[], []])
  } finally {
    await other.query('insert into workspace_members (workspace_id, user_id, role, added_at) values ($1, $2, $3, $4)', [
      alice.workspaceId,
      alice.userId,
      'owner',
      new Date().toISOString(),
    ])
    await other.end()
  }
  assert.equal(statements.filter((s) => s !== BY_ID).length, 3, 'three batches')
})

test('a batch that fails gives each read its own answer or its own error', async () => {
  if (!reachable()) return
  const id = await newTarget(alice, 'fails.example')
  const b = counted()
  await Promise.all([id, id].map((x) => b.read(BY_ID, [x, alice.userId], false)))
  const got = await Promise.allSettled([b.read(BY_ID, [id, alice.userId], false), b.read(BY_ID, ['not a number', alice.userId], false)])
  assert.equal(got[0].status, 'fulfilled')
  assert.deepEqual((got[0] as PromiseFulfilledResult<unknown[]>).value, [{ id, name: 'fails.example', description: 'about fails.example' }])
  assert.equal(got[1].status, 'rejected')
  assert.match(String((got[1] as PromiseRejectedResult).reason), /invalid input syntax for type integer/)
})

test("the store's hot reads through openDatabase: many at once, each its own", async () => {
  if (!reachable()) return
  const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => newTarget(alice, `store-${i}.example`)))
  const got = await Promise.all([
    ...ids.map((id) => getTarget(h.db, alice.userId, id)),
    ...ids.map((id) => getTarget(h.db, bob.userId, id)),
  ])
  for (let i = 0; i < ids.length; i++) assert.equal(got[i]?.name, `store-${i}.example`)
  assert.deepEqual(got.slice(40), Array(40).fill(undefined), "Bob reads none of Alice's")
  assert.deepEqual(await Promise.all([getScanView(h.db, alice.userId, 1), getScanView(h.db, alice.userId, 2)]), [undefined, undefined])
})

test('placeholders become the batch columns, $10 whole', () => {
  const s = batchSql('select $1, $10, $2 from x where y = $1', Array(10).fill('integer'))
  assert.match(s, /\(select ward_batch\.a1, ward_batch\.a10, ward_batch\.a2 from x where y = ward_batch\.a1\) as ward_read$/)
  assert.match(s, /unnest\(\$1::integer\[\], .*\$10::integer\[\]\) with ordinality as ward_batch\(a1, .*a10, i\)/)
})
