import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { readItem } from '../item-change.js'
import { workspacePage } from '../list-query.js'
import { Data, routeDoc, READ_ERRORS } from '../schemas/common.js'
import { Finding, FindingLifecycle, FindingsQuery } from '../schemas/findings.js'
import { groupOf } from '../../store/finding-lifecycle.js'
import { toApiTime } from '../../store/time.js'
import { TestRecord } from '../schemas/scans.js'
import { testView } from '../views.js'
import { notFound } from '../../domain/errors.js'
import { getFinding, getFindingArray } from '../../store/findings.js'
import { findingDataJson } from '../../reports/finding-json.js'
import { FindingPages } from '../finding-pages.js'
import { testWithFindings } from '../../store/results.js'
import { getTargetById } from '../../store/targets.js'
import { wantsCsv } from '../negotiate.js'
import { findingsCsv, type WireFinding } from '../../reports/formats/index.js'
import type { Db } from '../../store/db.js'

const doc = routeDoc('findings')

export const findingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  const pages = new FindingPages(db, app.ward.config.findingsCacheMb * 1024 * 1024)

  app.get('/findings', {
    schema: {
      ...doc.list('List findings (JSON, or CSV with Accept: text/csv)', Finding, FindingsQuery),
      description:
        'Accept: text/csv → the same page of findings as CSV, one row per finding; spreadsheet formula characters at the start of a cell are neutralised.',
      produces: ['application/json', 'text/csv'],
    },
    handler: async (req, reply) => {
      const q = req.query
      // Already JSON text (see finding-json.ts): a string with a JSON content type is sent as is.
      // The spread last: a literal that opens with one and goes on with fields is slow (api/views.ts pickThen).
      const json = await pages.json(callerOf(req).userId, {
        targetId: q.target_id,
        scanId: q.task_id,
        groupDuplicates: q.group_duplicates,
        riskLevel: q.risk_level,
        status: q.status,
        vulnId: q.vuln_id,
        lifecycle: q.lifecycle,
        regression: q.regression,
        afterId: q.after_id,
        ...workspacePage(q),
      })
      if (!wantsCsv(req.headers.accept)) return reply.type('application/json').send(json as never)
      const findings = (JSON.parse(json) as { data: WireFinding[] }).data
      // The CSV names each finding's target (the fingerprint is made from it, as the CI client does).
      const names = new Map<number, string>()
      for (const id of new Set(findings.map((f) => f.target_id!))) names.set(id, (await getTargetById(db, id))?.name ?? String(id))
      const csv = findingsCsv(findings, (f) => ({ id: f.scan_id!, target: names.get(f.target_id!)!, tool_id: 0, status_name: '' }))
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'inline; filename="ward-findings.csv"')
        .send(csv as never)
    },
  })

  app.get('/findings/:id', {
    schema: doc.byId('Read a finding', { 200: Data(Finding) }, READ_ERRORS),
    handler: async (req, reply) => {
      const f = await readItem(db, req, { what: 'Finding', read: getFindingArray })
      return reply.type('application/json').send(findingDataJson(f) as never)
    },
  })

  app.get('/findings/:id/tests', {
    schema: doc.byId('The tests behind a finding', { 200: Data(Type.Array(TestRecord)) }, READ_ERRORS),
    handler: async (req) => {
      const f = await readItem(db, req, { what: 'Finding', read: getFinding })
      if (f.test_id === null) return { data: [] }
      return { data: (await testWithFindings(db, f.test_id)).map(testView) }
    },
  })

  app.get('/findings/:id/lifecycle', {
    schema: doc.byId(
      'First and last seen, open or fixed, and whether it came back (regression): the life cycle of the finding across scans',
      { 200: Data(FindingLifecycle) },
      READ_ERRORS,
    ),
    handler: async (req) => ({ data: await lifecycleOf(db, callerOf(req).userId, req.params.id) }),
  })
}

/** The caller's finding's life cycle across scans, or a 404. */
async function lifecycleOf(db: Db, userId: number, id: number): Promise<Static<typeof FindingLifecycle>> {
  const f = await getFinding(db, userId, id)
  if (!f) throw notFound('Finding')
  const g = await groupOf(db, f.workspace_id, f.dedup_key)
  // Findings stored before the life cycle existed: seen once, by their own scan.
  const seen = toApiTime(f.created_at)!
  if (!g)
    return {
      first_seen: seen,
      last_seen: seen,
      first_scan_id: f.scan_id,
      last_scan_id: f.scan_id,
      state: f.status === 'fixed' ? 'fixed' : 'open',
      regression: false,
      fixed_at: null,
      fixed_scan_id: null,
    }
  return {
    first_seen: toApiTime(g.first_seen)!,
    last_seen: toApiTime(g.last_seen)!,
    first_scan_id: g.first_scan_id,
    last_scan_id: g.last_scan_id,
    state: g.state as 'open' | 'fixed',
    regression: g.regression === 1,
    fixed_at: toApiTime(g.fixed_at),
    fixed_scan_id: g.fixed_scan_id,
  }
}
