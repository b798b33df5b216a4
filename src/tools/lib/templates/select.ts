// tool_params.templates: which templates a scan runs (decisions.md "Templates"). Tags that can harm
// or flood a target run only when named by id or tag.
import type { Template } from './model.js'

export interface TemplateFilter {
  ids?: string[]
  tags?: string[]
  severities?: string[]
  exclude_tags?: string[]
  exclude_ids?: string[]
  /** Values of the variables templates leave to the user (secrets: masked wherever a result shows them). */
  variables?: Record<string, string>
}

export const RISKY_TAGS = ['dos', 'fuzz', 'intrusive', 'bruteforce'] as const

export function selectTemplates<T extends Pick<Template, 'id' | 'info'>>(all: readonly T[], f: TemplateFilter = {}): T[] {
  const lower = (xs?: string[]) => new Set((xs ?? []).map((x) => x.toLowerCase()))
  const ids = new Set(f.ids ?? [])
  const tags = lower(f.tags)
  const sev = lower(f.severities)
  const exTags = lower(f.exclude_tags)
  const exIds = new Set(f.exclude_ids ?? [])
  return all.filter((t) => {
    if (exIds.has(t.id) || t.info.tags.some((g) => exTags.has(g))) return false
    const named = ids.has(t.id) || t.info.tags.some((g) => tags.has(g))
    if (sev.size && !sev.has(t.info.severity)) return false
    if (ids.size || tags.size) return named
    // By default: everything except the risky tags.
    return !t.info.tags.some((g) => (RISKY_TAGS as readonly string[]).includes(g))
  })
}
