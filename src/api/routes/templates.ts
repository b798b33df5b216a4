// GET /templates and /templates/{id}: the check templates scans can run, Ward's shipped library and
// those the operator imported with `ward admin templates import` (each row says which). Read-only for
// every user; importing is an operator's act.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Data, routeDoc, READ_ERRORS } from '../schemas/common.js'
import { TemplateDetail, TemplateIdParams, TemplateSummary, TemplatesQuery } from '../schemas/templates.js'
import { getTemplate, listTemplates, typedTemplateFilter, type TemplateSummary as Row } from '../../store/templates.js'
import { notFound } from '../../domain/errors.js'

const doc = routeDoc('templates')

const list = (s: string): string[] => {
  try {
    const v = JSON.parse(s) as unknown
    return Array.isArray(v) ? v.map(String) : []
  } catch {
    return []
  }
}

function view(r: Row) {
  let c: Record<string, unknown> = {}
  try {
    c = JSON.parse(r.classification) as Record<string, unknown>
  } catch {
    /* an unreadable row shows empty classification */
  }
  const strs = (v: unknown) => (Array.isArray(v) ? v.map(String) : [])
  const numOrNull = (v: unknown) => (typeof v === 'number' ? v : null)
  return {
    id: r.id,
    name: r.name,
    severity: r.severity,
    tags: r.tags.split(',').filter(Boolean),
    author: list(r.author),
    description: r.description,
    reference: list(r.reference),
    remediation: r.remediation,
    classification: {
      cve_id: strs(c.cve_id),
      cwe_id: strs(c.cwe_id),
      cvss_metrics: typeof c.cvss_metrics === 'string' ? c.cvss_metrics : null,
      cvss_score: numOrNull(c.cvss_score),
      epss_score: numOrNull(c.epss_score),
      cpe: typeof c.cpe === 'string' ? c.cpe : null,
    },
    protocol: r.protocol,
    // Rows are written only as 'shipped' (start-up sync) or 'imported' (admin import).
    source: r.source as 'shipped' | 'imported',
    file_path: r.file_path,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  app.get('/templates', {
    schema: doc.list(
      'List the check templates (nuclei YAML format) scans can run, shipped and imported, filtered by tags, severity and text',
      TemplateSummary,
      TemplatesQuery,
    ),
    handler: async (req) => {
      const q = req.query
      const { rows } = await listTemplates(db, {
        q: q.q?.trim() || undefined,
        page: q.page,
        limit: q.limit,
        ...typedTemplateFilter(q),
      })
      return { data: rows.map(view) }
    },
  })
  app.get('/templates/:id', {
    schema: {
      ...doc('Read one template with its YAML text', { 200: Data(TemplateDetail) }, READ_ERRORS),
      params: TemplateIdParams,
    },
    handler: async (req) => {
      const r = await getTemplate(db, req.params.id)
      if (!r) throw notFound('Template')
      return { data: { ...view(r), yaml: r.yaml } }
    },
  })
}
