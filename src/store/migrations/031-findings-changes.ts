// A change count per workspace for everything a findings list shows: the API keeps finished pages of
// findings in memory and serves one again only while its workspace's count is unchanged. Triggers on
// the two tables a list reads (findings, finding_groups) count every write in its own transaction,
// whichever code path (or migration, or hand-written SQL) makes it: correctness never depends on a
// write path remembering to invalidate.
//
// The count is the sum of `weight` over the workspace's rows of `findings_changes`. On PostgreSQL a
// write APPENDS a row: concurrent writers never wait for one another there (a single counter row per
// workspace, updated by every writer, deadlocked two transactions writing findings in opposite
// orders). The worker folds the rows now and then into one row of their sum (store/findings-version.ts),
// which leaves the sum unchanged. SQLite has one writer at a time, so there a write adds 1 to the
// workspace's single row.
import { sql, type Kysely } from 'kysely'
import type { DbKind } from './columns.js'

const TABLES = ['findings', 'finding_groups'] as const
const EVENTS = ['insert', 'update', 'delete'] as const

async function sqliteTriggers(db: Kysely<unknown>) {
  const add = (col: string) =>
    `INSERT INTO findings_changes (workspace_id, weight) VALUES (${col}, 1) ON CONFLICT (workspace_id) DO UPDATE SET weight = weight + 1;`
  const body = {
    insert: add('NEW.workspace_id'),
    update: `${add('OLD.workspace_id')} ${add('NEW.workspace_id')}`,
    delete: add('OLD.workspace_id'),
  }
  for (const table of TABLES)
    for (const e of EVENTS)
      await sql
        .raw(`CREATE TRIGGER ${table}_changes_${e} AFTER ${e.toUpperCase()} ON ${table} FOR EACH ROW BEGIN ${body[e]} END`)
        .execute(db)
  await sql
    .raw(
      'CREATE TRIGGER workspaces_changes_delete AFTER DELETE ON workspaces FOR EACH ROW BEGIN DELETE FROM findings_changes WHERE workspace_id = OLD.id; END',
    )
    .execute(db)
}

/** PostgreSQL: one row per statement and workspace (transition tables), not per row: a triage updates a whole group in one statement. */
async function postgresTriggers(db: Kysely<unknown>) {
  const append = (rows: string) => `INSERT INTO findings_changes (workspace_id, weight) SELECT DISTINCT workspace_id, 1 FROM ${rows}`
  await sql
    .raw(
      `CREATE FUNCTION ward_findings_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN ${append('new_rows')};
  ELSIF TG_OP = 'DELETE' THEN ${append('old_rows')};
  ELSIF TG_OP = 'UPDATE' THEN ${append('(SELECT workspace_id FROM old_rows UNION SELECT workspace_id FROM new_rows) AS r')};
  ELSE INSERT INTO findings_changes (workspace_id, weight) SELECT id, 1 FROM workspaces;
  END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db)
  const referencing = {
    insert: 'NEW TABLE AS new_rows',
    update: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    delete: 'OLD TABLE AS old_rows',
  }
  for (const table of TABLES) {
    for (const e of EVENTS)
      await sql
        .raw(
          `CREATE TRIGGER ${table}_changes_${e} AFTER ${e.toUpperCase()} ON ${table} REFERENCING ${referencing[e]} ` +
            'FOR EACH STATEMENT EXECUTE FUNCTION ward_findings_changes()',
        )
        .execute(db)
    await sql
      .raw(
        `CREATE TRIGGER ${table}_changes_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ward_findings_changes()`,
      )
      .execute(db)
  }
  await sql
    .raw(
      `CREATE FUNCTION ward_workspace_changes_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM findings_changes WHERE workspace_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END $$`,
    )
    .execute(db)
  await sql
    .raw(
      'CREATE TRIGGER workspaces_changes_delete AFTER DELETE ON workspaces REFERENCING OLD TABLE AS old_rows ' +
        'FOR EACH STATEMENT EXECUTE FUNCTION ward_workspace_changes_gone()',
    )
    .execute(db)
}

export const m031FindingsChanges = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    // No foreign key: its check would lock the workspace row (KEY SHARE) on every write of findings.
    await db.schema
      .createTable('findings_changes')
      .addColumn('workspace_id', 'bigint', (c) => c.notNull())
      .addColumn('weight', 'bigint', (c) => c.notNull())
      .execute()
    const index = db.schema.createIndex('findings_changes_workspace').on('findings_changes')
    // PostgreSQL appends (the sum is read from the index alone); SQLite keeps one row per workspace,
    // its triggers upsert on this key.
    await (kind === 'postgres' ? index.columns(['workspace_id', 'weight']) : index.column('workspace_id').unique()).execute()
    await (kind === 'postgres' ? postgresTriggers(db) : sqliteTriggers(db))
  },
  async down(db: Kysely<unknown>) {
    const on = (table: string) => (kind === 'postgres' ? ` ON ${table}` : '')
    for (const table of TABLES)
      for (const e of [...EVENTS, ...(kind === 'postgres' ? ['truncate'] : [])])
        await sql.raw(`DROP TRIGGER ${table}_changes_${e}${on(table)}`).execute(db)
    await sql.raw(`DROP TRIGGER workspaces_changes_delete${on('workspaces')}`).execute(db)
    if (kind === 'postgres') {
      await sql`DROP FUNCTION ward_findings_changes()`.execute(db)
      await sql`DROP FUNCTION ward_workspace_changes_gone()`.execute(db)
    }
    await db.schema.dropTable('findings_changes').execute()
  },
})
