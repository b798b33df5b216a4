// Kysely's PostgreSQL introspector lists every column of every table in every schema of the
// database (with a pg_get_serial_sequence call per column). The migrator only asks whether its own
// two tables exist, at each start-up and each readiness check: in a database shared by many
// schemas (tenants, test runs, schemas left behind) that cost grows with all of them, and a schema
// dropped meanwhile makes it fail. This one reads the tables of the current schema only.
import { PostgresDialect, sql, type DatabaseIntrospector, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely'

class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db)
    return rows
  }

  /** Names only (no columns): what the migrator needs. */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(this.db)
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }))
  }

  async getMetadata() {
    return { tables: await this.getTables() }
  }
}

/** PostgreSQL with an introspector confined to the connection's current schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db)
  }
}
