// Ward's own template library: the YAML files under templates/ at the package root, written for Ward
// and shipped with it (data files, not compiled: found from src/ and dist/ alike, two levels up from
// tools/lib/templates). Read and loaded once per process; a scan merges them with imported templates.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { StoredTemplate } from '../../../toolkit/templates.js'
import { loadTemplate } from './load.js'
import type { Template } from './model.js'
import { templateContentHash, templateSummary, type TemplateSummaryData } from './summary.js'

/** templates/ beside src/ and dist/ (this file sits at <root>/{src,dist}/tools/lib/templates/). */
export const SHIPPED_DIR = fileURLToPath(new URL('../../../../templates/', import.meta.url))

export interface ShippedTemplate extends StoredTemplate {
  template: Template
}

export interface ShippedLibrary {
  templates: ShippedTemplate[]
  /** Files that did not load or repeat an id (the library's lint test keeps this empty). */
  problems: Array<{ file: string; reason: string }>
}

function yamlFiles(dir: string): string[] {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return [] // a build without the library: nothing shipped
  }
  return entries.flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/i.test(e.name) ? [join(dir, e.name)] : []))
}

/** Every template file of `dir`: its path inside it ('/'-separated) and its text, ordered by path. */
export function readShippedFiles(dir = SHIPPED_DIR): Array<{ path: string; yaml: string }> {
  return yamlFiles(dir)
    .sort()
    .map((file) => ({ path: relative(dir, file).split(sep).join('/'), yaml: readFileSync(file, 'utf8') }))
}

/** Reads and loads every shipped template of `dir`, ordered by id. */
export function readShippedLibrary(dir = SHIPPED_DIR): ShippedLibrary {
  const templates: ShippedTemplate[] = []
  const problems: ShippedLibrary['problems'] = []
  const seen = new Set<string>()
  for (const { path, yaml } of readShippedFiles(dir)) {
    const r = loadTemplate(yaml, { path, readFile: () => null })
    if (!r.ok) problems.push({ file: path, reason: r.reason })
    else if (seen.has(r.template.id)) problems.push({ file: path, reason: `duplicate id ${r.template.id}` })
    else {
      seen.add(r.template.id)
      templates.push({ id: r.template.id, path, yaml, files: {}, template: r.template })
    }
  }
  templates.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return { templates, problems }
}

let cached: (ShippedLibrary & { byId: Map<string, ShippedTemplate> }) | undefined
const library = () => {
  if (!cached) {
    const lib = readShippedLibrary()
    cached = { ...lib, byId: new Map(lib.templates.map((t) => [t.id, t])) }
  }
  return cached
}

/** The shipped templates of one protocol (read once per process). */
export function shippedTemplates(protocol: Template['protocol']): StoredTemplate[] {
  return library()
    .templates.filter((t) => t.template.protocol === protocol)
    .map(({ id, path, yaml, files }) => ({ id, path, yaml, files }))
}

/**
 * The already loaded template when `s` is a shipped one, unchanged (loaded templates are never
 * mutated by a run), so a scan does not parse the whole library again; undefined otherwise.
 */
export function loadedShipped(s: StoredTemplate): Template | undefined {
  const hit = cached?.byId.get(s.id)
  return hit && hit.yaml === s.yaml ? hit.template : undefined
}

/**
 * Imported and shipped templates together, ordered by id. An imported template with a shipped
 * template's id wins: an operator fixes or tunes a shipped check by importing their own version.
 */
export function mergeWithShipped(imported: readonly StoredTemplate[], shipped: readonly StoredTemplate[]): StoredTemplate[] {
  const ids = new Set(imported.map((t) => t.id))
  return [...imported, ...shipped.filter((t) => !ids.has(t.id))].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** templates/index.json: the summaries of the shipped library, written by `npm run templates:index`. */
export const SHIPPED_INDEX = 'index.json'

/** The index text of a loaded library as `npm run templates:index` writes it: one template a line, ordered by path. */
export function shippedIndexText(lib: ShippedLibrary): string {
  const list = lib.templates
    .map((t) => templateSummary(t.template, t.path, templateContentHash(t.yaml, {})))
    .sort((a, b) => (a.filePath < b.filePath ? -1 : 1))
  return `[\n${list.map((s) => JSON.stringify(s)).join(',\n')}\n]\n`
}

function readIndex(dir: string): Map<string, TemplateSummaryData> {
  try {
    const list = JSON.parse(readFileSync(join(dir, SHIPPED_INDEX), 'utf8')) as TemplateSummaryData[]
    return new Map(list.map((s) => [s.contentHash, s]))
  } catch {
    return new Map() // no index: every file is parsed
  }
}

export type ShippedSummary = TemplateSummaryData & { yaml: string }

/**
 * The shipped library as lists show it, with each text. Parsing all of it takes about a second, too
 * long for every start, so a file whose content hash the index holds is not parsed; a file edited
 * without re-indexing is (the library test keeps the index current). Files that do not load, or
 * repeat an id, are left out, as in readShippedLibrary.
 */
export function shippedSummaries(dir = SHIPPED_DIR): ShippedSummary[] {
  const index = readIndex(dir)
  const seen = new Set<string>()
  const out: ShippedSummary[] = []
  for (const { path, yaml } of readShippedFiles(dir)) {
    const hash = templateContentHash(yaml, {})
    const known = index.get(hash)
    let summary: TemplateSummaryData | undefined = known && { ...known, filePath: path }
    if (!summary) {
      const r = loadTemplate(yaml, { path, readFile: () => null })
      summary = r.ok ? templateSummary(r.template, path, hash) : undefined
    }
    if (!summary || seen.has(summary.id)) continue
    seen.add(summary.id)
    out.push({ ...summary, yaml })
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
