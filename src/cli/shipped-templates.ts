// Ward's shipped template library in the `templates` table (source 'shipped'), so the API, the web
// page and `ward admin templates list` show it beside the imported templates with one query. Run at
// every start and after the admin commands that can uncover a shipped template (remove, --prune):
// idempotent by content hash, so an unchanged library costs one read of its files and one query.
// Workers do not read these rows: they run the library of their own release (engine/template-source.ts).
import type { Db } from '../store/db.js'
import { removeTemplates, shippedTemplateRows, upsertTemplates } from '../store/templates.js'
import { SHIPPED_DIR, shippedSummaries } from '../tools/lib/templates/shipped.js'

export interface ShippedSync {
  /** Ids written (new, changed, or back after an imported template of that id was removed). */
  written: string[]
  /** Shipped rows no longer in the library. */
  removed: number
}

export async function syncShippedTemplates(db: Db, dir = SHIPPED_DIR): Promise<ShippedSync> {
  const library = shippedSummaries(dir)
  const stored = new Map((await shippedTemplateRows(db)).map((r) => [r.id, r]))
  // An id held by an imported template is written too and left alone by the upsert (imported wins);
  // writing it again costs little and needs no second query.
  const changed = library.filter((s) => {
    const row = stored.get(s.id)
    return !row || row.content_hash !== s.contentHash || row.file_path !== s.filePath
  })
  await upsertTemplates(
    db,
    changed.map((s) => ({ ...s, files: {}, source: 'shipped' as const })),
  )
  const ids = new Set(library.map((s) => s.id))
  const removed = await removeTemplates(
    db,
    [...stored.keys()].filter((id) => !ids.has(id)),
    'shipped',
  )
  return { written: changed.map((s) => s.id), removed }
}
