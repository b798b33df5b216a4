// A change counter per workspace for everything a findings list shows: the API keeps finished pages
// of findings in memory and serves one again only while its workspace's counter is unchanged. The
// counter is bumped by triggers on the two tables a list reads (findings, finding_groups), so every
// write bumps it in its own transaction, whichever code path (or migration, or hand-written SQL)
// makes it: correctness never depends on a write path remembering to invalidate.
import { sql, type Kysely } from 'kysely'
import type { DbKind } from './columns.js'

const TABLES = ['findings', 'finding_groups'] as const
const EVENTS = ['insert', 'update', 'delete'] as const

const bump = (where: string) => `UPDATE workspaces SET findings_version = findings_version + 1 WHERE ${where}`

/** SQLite: row triggers (SQLite has no statement triggers); one writer at a time, so no lock order to mind. */
async function sqliteTriggers(db: Kysely<unknown>) {
  const where = { insert: 'id = NEW.workspace_id', update: 'id IN (OLD.workspace_id, NEW.workspace_id)', delete: 'id = OLD.workspace_id' }
  for (const table of TABLES)
    for (const e of EVENTS)
      await sql
        .raw(`CREATE TRIGGER ${table}_version_${e} AFTER ${e.toUpperCase()} ON ${table} FOR EACH ROW BEGIN ${bump(where[e])}; END`)
        .execute(db)
}

/**
 * PostgreSQL: one bump per statement and workspace (transition tables), not one per row: a triage of a
 * group updates all its duplicates in one statement. TRUNCATE bumps every workspace.
 */
async function postgresTriggers(db: Kysely<unknown>) {
  const rows = (t: string) => `(SELECT workspace_id FROM ${t})`
  await sql
    .raw(
      `CREATE FUNCTION ward_findings_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN ${bump(`id IN ${rows('new_rows')}`)};
  ELSIF TG_OP = 'DELETE' THEN ${bump(`id IN ${rows('old_rows')}`)};
  ELSIF TG_OP = 'UPDATE' THEN ${bump(`id IN (SELECT workspace_id FROM old_rows UNION SELECT workspace_id FROM new_rows)`)};
  ELSE ${bump('true')};
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
          `CREATE TRIGGER ${table}_version_${e} AFTER ${e.toUpperCase()} ON ${table} REFERENCING ${referencing[e]} FOR EACH STATEMENT EXECUTE FUNCTION ward_findings_version()`,
        )
        .execute(db)
    await sql
      .raw(
        `CREATE TRIGGER ${table}_version_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ward_findings_version()`,
      )
      .execute(db)
  }
}

export const m028FindingsVersion = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('workspaces')
      .addColumn('findings_version', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute()
    await (kind === 'postgres' ? postgresTriggers(db) : sqliteTriggers(db))
  },
  async down(db: Kysely<unknown>) {
    for (const table of TABLES)
      for (const e of [...EVENTS, ...(kind === 'postgres' ? ['truncate'] : [])])
        await sql.raw(`DROP TRIGGER ${table}_version_${e}${kind === 'postgres' ? ` ON ${table}` : ''}`).execute(db)
    if (kind === 'postgres') await sql`DROP FUNCTION ward_findings_version()`.execute(db)
    await db.schema.alterTable('workspaces').dropColumn('findings_version').execute()
  },
})
