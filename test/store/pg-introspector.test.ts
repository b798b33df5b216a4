// Ward's schema on a PostgreSQL database shared with other schemas (another Ward's tables, a
// schema being dropped): migrations and readiness look at Ward's own schema only.
// ward-test: single-run (PostgreSQL only, picked here)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import pg from 'pg'
import { sql } from 'kysely'
import { openDatabase, pendingMigrations } from '../../src/store/db.js'
import { createPgSchema, pgUnreachable, TEST_PG_URL } from '../helpers/ward.js'

test('migrations and readiness on PostgreSQL see only the current schema', async () => {
  const why = await pgUnreachable()
  if (why) {
    console.log(`PostgreSQL not reachable (${why}): nothing asserted on the introspector`)
    assert.ok(why.length > 0)
    return
  }
  const mine = await createPgSchema()
  // A neighbour holding a Kysely migration table of its own (a Ward of another tenant, or a test run).
  const other = await createPgSchema()
  const admin = new pg.Client({ connectionString: TEST_PG_URL })
  await admin.connect()
  try {
    await admin.query(`create table ${other.schema}.kysely_migration (name text primary key, timestamp text not null)`)
    await admin.query(`create table ${other.schema}.neighbour (id int)`)
    const h = await openDatabase(
      { kind: 'postgres', url: mine.url, poolMax: 2 },
      { notify: false, secrets: { secretKey: null, secretKeyFile: null } },
    )
    try {
      const tables = await h.db.introspection.getTables()
      assert.ok(tables.length > 10, `Ward's tables are listed (${tables.length})`)
      assert.deepEqual([...new Set(tables.map((t) => t.schema))], [mine.schema], 'no table of another schema')
      assert.ok(tables.some((t) => t.name === 'findings'))
      // The neighbour disappears while Ward checks readiness: nothing to retry, nothing to fail.
      const [pending] = await Promise.all([pendingMigrations(h.db, 'postgres'), other.drop()])
      assert.deepEqual(pending, [])
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(h.db)
      assert.ok(rows[0]!.n > 20, 'the migrations ran in this schema')
    } finally {
      await h.close()
    }
  } finally {
    await admin.end()
    await other.drop()
    await mine.drop()
  }
})
