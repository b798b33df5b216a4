// What Ward lists about a template without its text: the info fields, protocol and content hash, the
// same for an imported template and a shipped one (the store keeps them as columns so lists filter
// without parsing YAML).
import { createHash } from 'node:crypto'
import type { Template } from './model.js'

/** Changes with the text and the payload files read with it: what an import or a sync compares. */
export const templateContentHash = (text: string, files: Record<string, string>) =>
  createHash('sha256').update(text).update(JSON.stringify(files)).digest('hex')

/** A loaded template's list fields (the columns of its row beside its text and payload files). */
export function templateSummary(t: Template, filePath: string, contentHash: string) {
  const c = t.info.classification
  return {
    id: t.id,
    filePath,
    contentHash,
    name: t.info.name,
    author: t.info.author,
    severity: t.info.severity,
    tags: t.info.tags,
    description: t.info.description,
    reference: t.info.reference,
    remediation: t.info.remediation,
    classification: {
      cve_id: c.cveId,
      cwe_id: c.cweId,
      cvss_metrics: c.cvssMetrics,
      cvss_score: c.cvssScore,
      epss_score: c.epssScore,
      cpe: c.cpe,
    },
    protocol: t.protocol,
  }
}

export type TemplateSummaryData = ReturnType<typeof templateSummary>
