// `ward admin kev|cve|epss|templates ...`: the vulnerability feeds and the nuclei templates.
import { readFileSync } from 'node:fs'
import { KevFeedError, isInKev, loadKevSnapshot, parseKevFeed } from '../domain/kev.js'
import { NvdFeedError, cveFromFeedItem, feedItems, type NvdCve } from '../domain/nvd.js'
import { EpssFeedError, readEpssFile } from '../domain/epss.js'
import { flagKevFindings, replaceKevCves } from '../store/kev-cves.js'
import { countCves, markEpssFindings, replaceEpss, upsertCves } from '../store/cves.js'
import { listTemplates, removeTemplates, templateSources, typedTemplateFilter } from '../store/templates.js'
import type { Db } from '../store/db.js'
import { formatImportReport, importTemplates } from './template-import.js'
import { TreeError } from './template-tree.js'
import { syncShippedTemplates } from './shipped-templates.js'
import { UsageError, byAdmin, fileProblem, table, type AdminContext } from './admin-values.js'

export async function kevImport({ h, out }: AdminContext, file: string) {
  let cves: string[]
  try {
    cves = parseKevFeed(JSON.parse(readFileSync(file, 'utf8')))
  } catch (e) {
    fileProblem(file, e, [KevFeedError, SyntaxError])
  }
  const { total, added } = await replaceKevCves(h.db, cves)
  const kev = loadKevSnapshot()
  for (const c of cves) kev.add(c)
  const flagged = await flagKevFindings(h.db, (cves) => isInKev(cves, kev))
  out(
    `imported ${total} CVE ids from the KEV feed (${added} new)\n` +
      `flagged ${flagged} existing finding(s) as in the CISA catalogue\n` +
      'running workers pick the new list up when they restart',
  )
}

/** One NVD feed file, stored in batches: how many entries it had and how many were CVEs kept. */
async function importCveFile(db: Db, file: string): Promise<{ read: number; kept: number }> {
  let batch: NvdCve[] = []
  let read = 0
  let kept = 0
  try {
    for await (const item of feedItems(file)) {
      read++
      const cve = cveFromFeedItem(item)
      if (!cve) continue
      batch.push(cve)
      kept++
      if (batch.length >= 500) {
        await upsertCves(db, batch)
        batch = []
      }
    }
    await upsertCves(db, batch)
  } catch (e) {
    fileProblem(file, e, [NvdFeedError])
  }
  return { read, kept }
}

export async function cveImport({ h, out }: AdminContext, files: string[]) {
  for (const file of files) {
    const { read, kept } = await importCveFile(h.db, file)
    out(`${file}: imported ${kept} CVE(s) of ${read} entries`)
  }
  out(`${await countCves(h.db)} CVEs in the database\nrunning workers match against them from their next scan`)
}

export async function epssImport({ h, out }: AdminContext, file: string) {
  let result: { date: string; count: number } | undefined
  try {
    await replaceEpss(h.db, async (write) => {
      result = await readEpssFile(file, write)
    })
  } catch (e) {
    fileProblem(file, e, [EpssFeedError])
  }
  const marked = await markEpssFindings(h.db)
  out(`imported ${result!.count} EPSS scores of ${result!.date}\n${marked} stored finding(s) updated; new findings carry them from now on`)
}

export async function templatesImport({ h, out }: AdminContext, paths: string[], o: { json?: boolean; prune?: boolean }) {
  let report: Awaited<ReturnType<typeof importTemplates>>
  try {
    report = await importTemplates(h.db, paths, { prune: !!o.prune })
  } catch (e) {
    if (e instanceof TreeError || (e as NodeJS.ErrnoException).code) throw new UsageError((e as Error).message)
    throw e
  }
  // A pruned template that had replaced a shipped one gives the shipped one back.
  await syncShippedTemplates(h.db)
  await byAdmin(h, 'template.imported', 'template', null, {
    loaded: report.loaded,
    updated: report.updated,
    unchanged: report.unchanged,
    pruned: report.pruned,
  })
  if (o.json)
    out(
      JSON.stringify({
        loaded: report.loaded,
        updated: report.updated,
        unchanged: report.unchanged,
        pruned: report.pruned,
        skipped: report.skipped,
      }),
    )
  else out(formatImportReport(report) + '\nrunning workers use them from their next scan')
}

export async function templatesList({ h, out }: AdminContext, o: { tags?: string; severity?: string }) {
  // Shipped ones too, even when no server of this release has started against the database yet.
  await syncShippedTemplates(h.db)
  const { rows, total } = await listTemplates(h.db, { ...typedTemplateFilter(o), limit: 100_000 })
  out(
    table(
      ['id', 'severity', 'protocol', 'source', 'name', 'tags'],
      rows.map((r) => [r.id, r.severity, r.protocol, r.source, r.name.slice(0, 60), r.tags.replace(/^,|,$/g, '')]),
    ),
  )
  out(`${total} template(s)`)
}

export async function templatesRemove({ h, out }: AdminContext, ids: string[]) {
  const sources = await templateSources(h.db, ids)
  const shipped = ids.filter((id) => sources.get(id) === 'shipped')
  const them = shipped.length === 1 ? 'it' : 'them'
  if (shipped.length)
    throw new UsageError(
      `${shipped.join(', ')} ${shipped.length === 1 ? 'is' : 'are'} shipped with Ward and cannot be removed: ` +
        `leave ${them} out of a scan with tool_params.templates.exclude_ids, ` +
        `or import a template of the same id to replace ${them}; nothing was removed`,
    )
  const removed = await removeTemplates(h.db, ids)
  // An imported template that replaced a shipped one leaves the shipped one in its place.
  const back = new Set((await syncShippedTemplates(h.db)).written)
  const restored = ids.filter((id) => back.has(id))
  out(`removed ${removed} template(s)${restored.length ? `; Ward's shipped template is used again for ${restored.join(', ')}` : ''}`)
}
