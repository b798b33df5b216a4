// `ward admin templates import PATH...`: every template file of the trees is validated by the
// engine's loader; what loads is stored (new, changed or unchanged by content hash), what does not is
// reported with its reason. --prune removes imported templates no longer present (never shipped ones).
import type { Db } from '../store/db.js'
import { removeTemplates, templateHashes, upsertTemplates, type TemplateUpsert } from '../store/templates.js'
import { loadTemplate } from '../tools/lib/templates/index.js'
import { templateContentHash, templateSummary } from '../tools/lib/templates/summary.js'
import { openTree, resolveRef } from './template-tree.js'

export interface ImportReport {
  loaded: number
  updated: number
  unchanged: number
  pruned: number
  skipped: Array<{ file: string; reason: string }>
}

const isTemplateFile = (p: string) =>
  /\.ya?ml$/i.test(p) && !/(^|\/)\.[^/]+/.test(p) && !/(^|\/)(\.github|helpers|profiles|workflows)\//.test(p)

export async function importTemplates(db: Db, paths: readonly string[], o: { prune?: boolean } = {}): Promise<ImportReport> {
  const stored = await templateHashes(db)
  const report: ImportReport = { loaded: 0, updated: 0, unchanged: 0, pruned: 0, skipped: [] }
  const seen = new Map<string, string>()
  let batch: TemplateUpsert[] = []
  for (const path of paths) {
    const tree = openTree(path)
    for (const rel of tree.files().filter(isTemplateFile).sort()) {
      const file = `${tree.label}:${rel}`
      const text = tree.read(rel)
      if (text === null) {
        report.skipped.push({ file, reason: 'file too large' })
        continue
      }
      // Files that are not templates (configs, CI files) carry no id: not worth a line each.
      if (!/^id\s*:/m.test(text)) continue
      const r = loadTemplate(text, { path: rel, readFile: (ref) => resolveRef(tree, rel, ref) })
      if (!r.ok) {
        report.skipped.push({ file, reason: r.reason })
        continue
      }
      const t = r.template
      const first = seen.get(t.id)
      if (first) {
        report.skipped.push({ file, reason: `duplicate id ${t.id} (first in ${first})` })
        continue
      }
      seen.set(t.id, file)
      const hash = templateContentHash(text, r.files)
      const before = stored.get(t.id)
      if (before?.hash === hash && before.source === 'imported') {
        report.unchanged++
        continue
      }
      // Replacing a shipped template of the same id loads a new imported one; it updates nothing imported.
      if (before?.source === 'imported') report.updated++
      else report.loaded++
      batch.push({ ...templateSummary(t, rel, hash), yaml: text, files: r.files, source: 'imported' })
      if (batch.length >= 200) {
        await upsertTemplates(db, batch)
        batch = []
      }
    }
  }
  await upsertTemplates(db, batch)
  if (o.prune)
    report.pruned = await removeTemplates(
      db,
      [...stored].filter(([id, s]) => s.source === 'imported' && !seen.has(id)).map(([id]) => id),
    )
  return report
}

/** The text an operator reads: counts, then the skipped files grouped by reason (most common first). */
export function formatImportReport(r: ImportReport): string {
  const lines = [
    `loaded ${r.loaded}, updated ${r.updated}, unchanged ${r.unchanged}, skipped ${r.skipped.length}${r.pruned ? `, pruned ${r.pruned}` : ''}`,
  ]
  const groups = new Map<string, string[]>()
  for (const s of r.skipped) groups.set(s.reason, [...(groups.get(s.reason) ?? []), s.file])
  for (const [reason, files] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`skipped ${files.length}: ${reason}`)
    for (const f of files.slice(0, 20)) lines.push(`  ${f}`)
    if (files.length > 20) lines.push(`  ... and ${files.length - 20} more`)
  }
  return lines.join('\n')
}
