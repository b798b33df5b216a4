// Check templates (migration 016): rows written by `ward admin templates import`, read by the API
// (list, one) and by workers (the templates of one protocol, to run).
import { sql } from 'kysely'
import type { Db } from './db.js'
import type { TemplateRow } from './schema.js'
import { nowIso } from './time.js'

export interface TemplateUpsert {
  id: string
  filePath: string
  contentHash: string
  name: string
  author: string[]
  severity: string
  tags: string[]
  description: string
  reference: string[]
  remediation: string
  classification: Record<string, unknown>
  protocol: string
  yaml: string
  files: Record<string, string>
  source: 'shipped' | 'imported'
}

/** id → content hash of the stored templates (what an import compares with). */
export async function templateHashes(db: Db): Promise<Map<string, { hash: string; source: string }>> {
  const rows = await db.selectFrom('templates').select(['id', 'content_hash', 'source']).execute()
  return new Map(rows.map((r) => [r.id, { hash: r.content_hash, source: r.source }]))
}

/** Inserts or replaces templates in one transaction. */
export async function upsertTemplates(db: Db, batch: readonly TemplateUpsert[]): Promise<void> {
  if (!batch.length) return
  const now = nowIso()
  await db.transaction().execute(async (trx) => {
    for (const t of batch) {
      const row = {
        file_path: t.filePath,
        content_hash: t.contentHash,
        name: t.name,
        author: JSON.stringify(t.author),
        severity: t.severity,
        tags: `,${t.tags.join(',')},`,
        description: t.description,
        reference: JSON.stringify(t.reference),
        remediation: t.remediation,
        classification: JSON.stringify(t.classification),
        protocol: t.protocol,
        yaml: t.yaml,
        files: JSON.stringify(t.files),
        source: t.source,
        updated_at: now,
      }
      await trx
        .insertInto('templates')
        .values({ id: t.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute()
    }
  })
}

/** Removes templates by id; returns how many there were. */
export async function removeTemplates(db: Db, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0
  let n = 0
  for (let i = 0; i < ids.length; i += 500)
    n += Number(
      (
        await db
          .deleteFrom('templates')
          .where('id', 'in', ids.slice(i, i + 500))
          .executeTakeFirst()
      ).numDeletedRows,
    )
  return n
}

export interface TemplateQuery {
  tags?: string[]
  severities?: string[]
  q?: string
  protocol?: string
  page?: number
  limit?: number
}

export type TemplateSummary = Omit<TemplateRow, 'yaml' | 'files'>

const likeText = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function filtered(db: Db, f: TemplateQuery) {
  let q = db.selectFrom('templates')
  if (f.tags?.length) q = q.where((eb) => eb.or(f.tags!.map((t) => eb('tags', 'like', `%,${t.toLowerCase().replace(/[\\%_,]/g, '')},%`))))
  if (f.severities?.length)
    q = q.where(
      'severity',
      'in',
      f.severities.map((s) => s.toLowerCase()),
    )
  if (f.protocol) q = q.where('protocol', '=', f.protocol)
  if (f.q) {
    const pat = likeText(f.q)
    q = q.where((eb) =>
      eb.or(
        [
          sql<boolean>`lower(id) like ${pat} escape '\\'`,
          sql<boolean>`lower(name) like ${pat} escape '\\'`,
          sql<boolean>`lower(description) like ${pat} escape '\\'`,
        ].map((e) => eb.and([e])),
      ),
    )
  }
  return q
}

const SUMMARY = [
  'id',
  'file_path',
  'content_hash',
  'name',
  'author',
  'severity',
  'tags',
  'description',
  'reference',
  'remediation',
  'classification',
  'protocol',
  'source',
  'created_at',
  'updated_at',
] as const

/** One page of templates (ordered by id) and the count of all that match. */
export async function listTemplates(db: Db, f: TemplateQuery): Promise<{ rows: TemplateSummary[]; total: number }> {
  const limit = f.limit ?? 50
  const page = f.page ?? 1
  const [rows, count] = await Promise.all([
    filtered(db, f)
      .select(SUMMARY)
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

export const getTemplate = (db: Db, id: string): Promise<TemplateRow | undefined> =>
  db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst()

/** What a worker needs to run the templates of one protocol. */
export const templatesToRun = (db: Db, protocol: string) =>
  db.selectFrom('templates').select(['id', 'file_path', 'yaml', 'files']).where('protocol', '=', protocol).orderBy('id').execute()
