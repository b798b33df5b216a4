// Check templates (migration 016): rows written by `ward admin templates import` (source 'imported')
// and by the start-up sync of Ward's shipped library (source 'shipped'), read by the API, the web page
// and the CLI (list, one) and by workers (the imported templates of one protocol, to run).
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

/**
 * Inserts or replaces templates in one transaction, a few hundred rows per statement. A shipped
 * template never replaces an imported one of the same id (the operator's version wins); an imported
 * one replaces whatever is there.
 */
export async function upsertTemplates(db: Db, batch: readonly TemplateUpsert[]): Promise<void> {
  if (!batch.length) return
  const now = nowIso()
  const rows = batch.map((t) => ({
    id: t.id,
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
    created_at: now,
    updated_at: now,
  }))
  // Every column but the key and the creation time takes the new row's value.
  const updated = Object.keys(rows[0]!).filter((c) => c !== 'id' && c !== 'created_at') as Array<keyof (typeof rows)[0]>
  await db.transaction().execute(async (trx) => {
    for (const source of ['imported', 'shipped'] as const) {
      const of = rows.filter((r) => r.source === source)
      for (let i = 0; i < of.length; i += 100)
        await trx
          .insertInto('templates')
          .values(of.slice(i, i + 100))
          .onConflict((oc) => {
            const set = oc.column('id').doUpdateSet((eb) => Object.fromEntries(updated.map((c) => [c, eb.ref(`excluded.${c}`)])))
            return source === 'shipped' ? set.where('templates.source', '=', 'shipped') : set
          })
          .execute()
    }
  })
}

/** Removes templates of one source by id; returns how many there were. */
export async function removeTemplates(db: Db, ids: readonly string[], source: 'imported' | 'shipped' = 'imported'): Promise<number> {
  if (!ids.length) return 0
  let n = 0
  for (let i = 0; i < ids.length; i += 500)
    n += Number(
      (
        await db
          .deleteFrom('templates')
          .where('id', 'in', ids.slice(i, i + 500))
          .where('source', '=', source)
          .executeTakeFirst()
      ).numDeletedRows,
    )
  return n
}

/** The stored shipped templates: id, file and content hash (what the start-up sync compares). */
export const shippedTemplateRows = (db: Db) =>
  db.selectFrom('templates').select(['id', 'file_path', 'content_hash']).where('source', '=', 'shipped').execute()

/** The source of each of `ids` that is stored. */
export async function templateSources(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map()
  const rows = await db.selectFrom('templates').select(['id', 'source']).where('id', 'in', ids).execute()
  return new Map(rows.map((r) => [r.id, r.source]))
}

export interface TemplateQuery {
  tags?: string[]
  severities?: string[]
  q?: string
  protocol?: string
  page?: number
  limit?: number
}

const commaList = (s: string | undefined) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined

/** Tags and severities as people type them (the API's query, `ward admin templates list`): comma-separated. */
export const typedTemplateFilter = (o: { tags?: string; severity?: string }): Pick<TemplateQuery, 'tags' | 'severities'> => ({
  tags: commaList(o.tags),
  severities: commaList(o.severity),
})

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

/**
 * What a worker needs to run the imported templates of one protocol. Not the shipped rows: a worker
 * runs the library of its own release, loaded once per process (tools/lib/templates/shipped.ts).
 */
export const templatesToRun = (db: Db, protocol: string) =>
  db
    .selectFrom('templates')
    .select(['id', 'file_path', 'yaml', 'files'])
    .where('protocol', '=', protocol)
    .where('source', '=', 'imported')
    .orderBy('id')
    .execute()
