// Hot reads by id answered from memory while the SQLite file is unchanged (store/sqlite-read-cache.ts):
// a commit by any connection — this one, another in the process, another process — is seen by the
// next read; repeated reads of an unchanged database run no query; callers get their own copies.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import SQLite from 'better-sqlite3'
import { inTransaction, openDatabase, type DbHandle } from '../../src/store/db.js'
import { sqliteReadCache, walVersion } from '../../src/store/sqlite-read-cache.js'
import { createUser } from '../../src/store/accounts.js'
import { getTarget, insertTarget } from '../../src/store/targets.js'

let dir: string
let file: string
let h: DbHandle
let other: SQLite.Database
let userId: number
let workspaceId: number

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-read-cache-'))
  file = path.join(dir, 'ward.db')
  h = await openDatabase({ kind: 'sqlite', file })
  const u = await createUser(h.db, { name: 'cache-reader', maxTargets: 100 })
  userId = u.userId
  workspaceId = u.workspaceId
  // Another connection to the same file, as another process or the scan thread would hold.
  other = new SQLite(file)
  other.pragma('busy_timeout = 5000')
})
after(async () => {
  other.close()
  await h.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const newTarget = (name: string) =>
  insertTarget(h.db, { workspaceId, userId, name, nameKey: name, type: 'hostname', description: `about ${name}` })

test('a change committed by another connection is seen by the next read', async () => {
  const id = await newTarget('cache-a.example')
  assert.equal((await getTarget(h.db, userId, id))?.description, 'about cache-a.example')
  assert.equal((await getTarget(h.db, userId, id))?.description, 'about cache-a.example')
  other.prepare('update targets set description = ? where id = ?').run('changed elsewhere', id)
  assert.equal((await getTarget(h.db, userId, id))?.description, 'changed elsewhere')
})

test('a change made by another process is seen by the next read', async () => {
  const id = await newTarget('cache-b.example')
  await getTarget(h.db, userId, id)
  const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)}); d.pragma('busy_timeout = 5000');
    d.prepare('update targets set description = ? where id = ?').run('changed by a process', ${id}); d.close()`
  execFileSync(process.execPath, ['-e', script], { cwd: path.resolve(import.meta.dirname, '../..') })
  assert.equal((await getTarget(h.db, userId, id))?.description, 'changed by a process')
})

test("this connection's own writes and a removed membership are seen at once", async () => {
  const id = await newTarget('cache-c.example')
  await getTarget(h.db, userId, id)
  await h.db.updateTable('targets').set({ description: 'changed here' }).where('id', '=', id).execute()
  assert.equal((await getTarget(h.db, userId, id))?.description, 'changed here')
  // Tenancy is part of the read: once the user leaves the workspace, the kept row is not shown.
  other.prepare('delete from workspace_members where user_id = ? and workspace_id = ?').run(userId, workspaceId)
  assert.equal(await getTarget(h.db, userId, id), undefined)
  other
    .prepare("insert into workspace_members (workspace_id, user_id, role, added_at) values (?, ?, 'owner', ?)")
    .run(workspaceId, userId, new Date().toISOString())
  assert.equal((await getTarget(h.db, userId, id))?.description, 'changed here')
})

test('an unchanged database answers repeated reads without running them; callers get copies', async () => {
  const cache = sqliteReadCache(walVersion(file))
  const stmt = other.prepare('select id, description from targets order by id limit 1')
  let runs = 0
  const read = () => cache.get(stmt.source, [1, 2], () => (runs++, stmt.all()))
  const first = (await read()) as Array<{ description: string }>
  first[0]!.description = 'scribbled on by a caller'
  const second = (await read()) as Array<{ description: string }>
  assert.equal(runs, 1, 'the second read came from memory')
  assert.notEqual(second[0]!.description, 'scribbled on by a caller')
  other.prepare("update targets set description = description || '.'").run()
  await read()
  assert.equal(runs, 2, 'a commit empties the cache')
  // Different arguments are different reads.
  await cache.get(stmt.source, [1, 3], () => (runs++, stmt.all()))
  assert.equal(runs, 3)
  // Reads issued together share one header read and each runs once.
  other.prepare("update targets set description = description || '.'").run()
  await Promise.all([read(), read(), cache.get(stmt.source, [1, 3], () => (runs++, stmt.all()))])
  assert.equal(runs, 5)
  cache.close()
})

test('large results and databases without a WAL index are read every time', async () => {
  const cache = sqliteReadCache(walVersion(file))
  let runs = 0
  const big = [{ output: 'x'.repeat(100 * 1024) }]
  await cache.get('select big', [], () => (runs++, big))
  await cache.get('select big', [], () => (runs++, big))
  assert.equal(runs, 2)
  cache.close()

  const plain = path.join(dir, 'rollback-journal.db')
  new SQLite(plain).close()
  const none = sqliteReadCache(walVersion(plain))
  let plainRuns = 0
  await none.get('select 1', [], () => (plainRuns++, [{ one: 1 }]))
  await none.get('select 1', [], () => (plainRuns++, [{ one: 1 }]))
  assert.equal(plainRuns, 2, 'no -shm file: nothing is kept')
  none.close()
})

test('a transaction that read and then writes is not refused because another connection wrote meanwhile', async () => {
  const id = await newTarget('cache-d.example')
  const impatient = new SQLite(file)
  impatient.pragma('busy_timeout = 0')
  let otherWrote = false
  await inTransaction(h.db, async (trx) => {
    await trx.selectFrom('targets').select('description').where('id', '=', id).executeTakeFirst()
    // Another connection tries to commit between this transaction's read and its write. With a
    // deferred `begin` it would succeed, and the write below would fail with "database is locked".
    try {
      impatient.prepare('update targets set description = ? where id = ?').run('written elsewhere', id)
      otherWrote = true
    } catch (e) {
      assert.equal((e as { code?: string }).code, 'SQLITE_BUSY')
    }
    await trx.updateTable('targets').set({ description: 'written in the transaction' }).where('id', '=', id).execute()
  })
  impatient.close()
  assert.equal(otherWrote, false, 'the transaction held the write lock from its start')
  assert.equal((await getTarget(h.db, userId, id))?.description, 'written in the transaction')
})

test('a read issued before a transaction began never sees its uncommitted rows', async () => {
  const id = await newTarget('cache-e.example')
  await getTarget(h.db, userId, id)
  await h.db.updateTable('targets').set({ description: 'committed' }).where('id', '=', id).execute()
  // Issued now, answered at the next check phase — by then the transaction below is open.
  const read = getTarget(h.db, userId, id)
  await assert.rejects(
    inTransaction(h.db, async (trx) => {
      await trx.updateTable('targets').set({ description: 'never committed' }).where('id', '=', id).execute()
      await new Promise((r) => setImmediate(r))
      await new Promise((r) => setImmediate(r))
      throw new Error('rolled back')
    }),
    /rolled back/,
  )
  assert.equal((await read)?.description, 'committed')
})
