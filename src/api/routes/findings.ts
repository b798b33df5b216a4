import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { Data, IdParams, errors } from '../schemas/common.js'
import { Finding, FindingsQuery } from '../schemas/findings.js'
import { TestRecord } from '../schemas/scans.js'
import { testView } from '../views.js'
import { notFound } from '../../domain/errors.js'
import { getFinding, getFindingArray, listFindingArrays } from '../../store/findings.js'
import { findingDataJson, findingsPageJson } from '../../reports/finding-json.js'
import { testWithFindings } from '../../store/results.js'

export const findingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.get('/findings', {
    schema: { tags: ['findings'], summary: 'List findings', querystring: FindingsQuery, response: { 200: Data(Type.Array(Finding)), ...errors(400, 401, 429) } },
    handler: async (req, reply) => {
      const q = req.query
      const rows = await listFindingArrays(db, callerOf(req).userId, {
        workspaceId: q.workspace_id,
        targetId: q.target_id,
        scanId: q.task_id,
        groupDuplicates: q.group_duplicates,
        riskLevel: q.risk_level,
        status: q.status,
        vulnId: q.vuln_id,
        limit: q.limit,
        page: q.page,
      })
      // Already JSON text (see finding-json.ts): a string with a JSON content type is sent as is.
      return reply.type('application/json').send(findingsPageJson(rows) as never)
    },
  })

  app.get('/findings/:id', {
    schema: { tags: ['findings'], summary: 'Read a finding', params: IdParams, response: { 200: Data(Finding), ...errors(400, 401, 404, 429) } },
    handler: async (req, reply) => {
      const f = await getFindingArray(db, callerOf(req).userId, req.params.id)
      if (!f) throw notFound('Finding')
      return reply.type('application/json').send(findingDataJson(f) as never)
    },
  })

  app.get('/findings/:id/tests', {
    schema: { tags: ['findings'], summary: 'The tests behind a finding', params: IdParams, response: { 200: Data(Type.Array(TestRecord)), ...errors(400, 401, 404, 429) } },
    handler: async (req) => {
      const f = await getFinding(db, callerOf(req).userId, req.params.id)
      if (!f) throw notFound('Finding')
      if (f.test_id === null) return { data: [] }
      return { data: (await testWithFindings(db, f.test_id)).map(testView) }
    },
  })
}
