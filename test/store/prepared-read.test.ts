// Reads compiled once per database (store/db.ts selectPrepared): each call binds its own values in
// the recorded places, and a read never sees another caller's uncommitted transaction.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { selectPrepared, selectPreparedArrays } from '../../src/store/db.js'
import { sql } from 'kysely'
import { getTarget, insertTarget } from '../../src/store/targets.js'

let w: TestWard
before(async () => {
  w = await startWard({ worker: false })
})
after(() => w.close())

const newTarget = (name: string) =>
  insertTarget(w.h.db, {
    workspaceId: w.workspaceId,
    userId: w.userId,
    name,
    nameKey: name,
    type: 'hostname',
    description: `about ${name}`,
  })

test(`the same compiled read answers each call with its own arguments (${TEST_BACKEND})`, async () => {
  const db = w.h.db
  const a = await newTarget('prepared-a.example')
  const b = await newTarget('prepared-b.example')
  // A constant of the query (the type) sits between two arguments: it must stay in its place.
  const byIdAndName = (id: number, name: string) =>
    selectPrepared(
      db,
      'test:byIdAndName',
      (arg) =>
        db
          .selectFrom('targets')
          .select(['id', 'name'])
          .where('id', '=', arg<number>(0))
          .where('type', '=', 'hostname')
          .where('name', '=', arg<string>(1)),
      [id, name],
    )
  assert.deepEqual(await byIdAndName(a, 'prepared-a.example'), [{ id: a, name: 'prepared-a.example' }])
  assert.deepEqual(await byIdAndName(b, 'prepared-b.example'), [{ id: b, name: 'prepared-b.example' }])
  assert.deepEqual(await byIdAndName(a, 'prepared-b.example'), [])
  // An argument used twice, rows as arrays in select-list order.
  const twice = await selectPreparedArrays(
    db,
    'test:twice',
    (arg) => db.selectFrom('targets').select(['name', 'id']).where('id', '>=', arg<number>(0)).where('id', '<=', arg<number>(0)),
    [b],
  )
  assert.deepEqual(twice, [['prepared-b.example', b]])
  // Tenancy stays in the query: another user's id finds nothing.
  assert.equal((await getTarget(db, w.userId, a))?.name, 'prepared-a.example')
  assert.equal(await getTarget(db, w.userId + 1000, a), undefined)
})

test(`a read during another caller's open transaction does not see its rows (${TEST_BACKEND})`, async () => {
  const db = w.h.db
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  let inserted = 0
  let insertedSignal!: () => void
  const insertedYet = new Promise<void>((r) => (insertedSignal = r))
  const trx = db.transaction().execute(async (t) => {
    inserted = (
      await t
        .insertInto('targets')
        .values({
          workspace_id: w.workspaceId,
          user_id: w.userId,
          name: 'uncommitted.example',
          name_key: 'uncommitted.example',
          type: 'hostname',
          description: '',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    insertedSignal()
    await held
  })
  await insertedYet
  // On SQLite this read waits for the connection (the transaction holds it); on PostgreSQL it runs
  // on another connection. Either way it must not return the uncommitted row.
  const read = getTarget(db, w.userId, inserted)
  const early = await Promise.race([read.then((r) => ({ r })), new Promise<'pending'>((r) => setTimeout(() => r('pending'), 200))])
  if (early !== 'pending') assert.equal(early.r, undefined, 'the uncommitted target was read')
  release()
  await trx
  const after = await read
  // After the commit the row exists; a read that waited may see it, one that ran before must not have.
  if (TEST_BACKEND === 'sqlite') assert.equal(early, 'pending', 'on SQLite the read waits for the open transaction')
  assert.ok(after === undefined || after.id === inserted)
  assert.equal((await getTarget(db, w.userId, inserted))?.name, 'uncommitted.example')
})

test(`a read of every column still answers after a column is added by another process (${TEST_BACKEND})`, async () => {
  const db = w.h.db
  const t = await newTarget('prepared-alter.example')
  // Read enough times that each pooled PostgreSQL connection holds the named statement of `SELECT *`.
  for (let i = 0; i < 30; i++) assert.equal((await getTarget(db, w.userId, t))?.name, 'prepared-alter.example')
  await sql`ALTER TABLE targets ADD COLUMN prepared_extra text`.execute(db)
  try {
    for (let i = 0; i < 30; i++) assert.equal((await getTarget(db, w.userId, t))?.name, 'prepared-alter.example')
  } finally {
    await sql`ALTER TABLE targets DROP COLUMN prepared_extra`.execute(db)
  }
  assert.equal((await getTarget(db, w.userId, t))?.name, 'prepared-alter.example')
})
