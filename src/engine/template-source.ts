// The TemplateSource a scan's tools get: the stored templates of one protocol (store/templates.ts)
// merged with Ward's shipped library (an imported template with a shipped id wins), read once per
// protocol per scan.
import type { Db } from '../store/db.js'
import { templatesToRun } from '../store/templates.js'
import type { StoredTemplate, TemplateSource } from '../toolkit/templates.js'
import { mergeWithShipped, shippedTemplates } from '../tools/lib/templates/shipped.js'

const files = (s: string): Record<string, string> => {
  try {
    const v = JSON.parse(s) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {}
  } catch {
    return {}
  }
}

export function createTemplateSource(db: Db): TemplateSource {
  const byProtocol = new Map<string, Promise<StoredTemplate[]>>()
  return {
    forProtocol(protocol) {
      let p = byProtocol.get(protocol)
      if (!p)
        byProtocol.set(
          protocol,
          (p = templatesToRun(db, protocol).then((rows) =>
            mergeWithShipped(
              rows.map((r) => ({ id: r.id, path: r.file_path, yaml: r.yaml, files: files(r.files) })),
              shippedTemplates(protocol),
            ),
          )),
        )
      return p
    },
  }
}
