// The stored templates of one protocol as a tool runs them: loaded (a template that no longer loads
// is logged and left out), then chosen by tool_params.templates.
import type { TemplateSource } from '../../../toolkit/templates.js'
import type { Template } from './model.js'
import { loadTemplate } from './load.js'
import { loadedShipped } from './shipped.js'
import { selectTemplates, type TemplateFilter } from './select.js'

export async function loadStoredTemplates(
  source: TemplateSource | undefined,
  protocol: Template['protocol'],
  filter: TemplateFilter | undefined,
  log: (line: string) => void,
): Promise<{ chosen: Template[]; loaded: number }> {
  if (!source) return { chosen: [], loaded: 0 }
  const loaded: Template[] = []
  for (const s of await source.forProtocol(protocol)) {
    // Ward's own library is loaded once per process, not once per scan.
    const shipped = loadedShipped(s)
    if (shipped) {
      loaded.push(shipped)
      continue
    }
    const r = loadTemplate(s.yaml, { path: s.path, readFile: (ref) => s.files[ref] ?? null })
    if (r.ok) loaded.push(r.template)
    else log(`template ${s.id}: not loaded: ${r.reason}`)
  }
  return { chosen: selectTemplates(loaded, filter), loaded: loaded.length }
}
