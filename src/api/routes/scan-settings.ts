// Saved scan settings (an extension beside v2): create (from tool_params or an earlier scan), list,
// read, change, delete. Scans and schedules start from them with settings_id. Another user's id is
// a 404 like an unknown one; a viewer reads only (403 on a change).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { refusal } from '../../domain/access.js'
import { notFound } from '../../domain/errors.js'
import { changeScanSettings, saveScanSettings } from '../../domain/scan-settings.js'
import { deleteScanSettings, getScanSettings, listScanSettings } from '../../store/scan-settings.js'
import { audited } from '../../store/audit.js'
import { Created, Data, IdParams, NoContent, errors } from '../schemas/common.js'
import { CreateScanSettingsBody, ScanSettings, ScanSettingsQuery, UpdateScanSettingsBody } from '../schemas/scan-settings.js'
import { scanSettingsView } from '../views.js'

const tags = ['scan settings']

export const scanSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.post('/scan-settings', {
    schema: {
      tags,
      summary: 'Save scan settings: a name and a tool with its tool_params (or those of from_scan_id); credentials are stored encrypted',
      body: CreateScanSettingsBody,
      response: { 201: Created, ...errors(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req, reply) => {
      const id = await audited(
        db,
        req.audit,
        (trx) => saveScanSettings(trx, callerOf(req), app.ward.tools, req.body),
        (id) => ({ objectId: id }),
      )
      return reply.status(201).send({ data: { created_id: id } })
    },
  })

  app.get('/scan-settings', {
    schema: {
      tags,
      summary: "List the caller's saved scan settings by name (all workspaces unless workspace_id)",
      querystring: ScanSettingsQuery,
      response: { 200: Data(Type.Array(ScanSettings)), ...errors(400, 401, 429) },
    },
    handler: async (req) => {
      const q = req.query
      const rows = await listScanSettings(db, callerOf(req).userId, {
        workspaceId: q.workspace_id,
        toolId: q.tool_id,
        limit: q.limit,
        page: q.page,
      })
      return { data: rows.map(scanSettingsView) }
    },
  })

  app.get('/scan-settings/:id', {
    schema: {
      tags,
      summary: 'Read saved scan settings',
      params: IdParams,
      response: { 200: Data(ScanSettings), ...errors(400, 401, 404, 429) },
    },
    handler: async (req) => {
      const s = await getScanSettings(db, callerOf(req).userId, req.params.id)
      if (!s) throw notFound('Scan settings')
      return { data: scanSettingsView(s) }
    },
  })

  app.patch('/scan-settings/:id', {
    schema: {
      tags,
      summary: 'Rename saved scan settings, or change their tool_params or max_scan_time (checked against their tool)',
      params: IdParams,
      body: UpdateScanSettingsBody,
      response: { 200: Data(ScanSettings), ...errors(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req) => ({
      data: scanSettingsView(
        await audited(
          db,
          req.audit,
          (trx) => changeScanSettings(trx, callerOf(req), app.ward.tools, req.params.id, req.body),
          () => true,
        ),
      ),
    }),
  })

  app.delete('/scan-settings/:id', {
    schema: {
      tags,
      summary: 'Delete saved scan settings (scans and schedules started from them are kept)',
      params: IdParams,
      response: { 204: NoContent, ...errors(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      const userId = callerOf(req).userId
      const deleted = await audited(
        db,
        req.audit,
        (trx) => deleteScanSettings(trx, userId, req.params.id),
        (ok) => ok,
      )
      if (!deleted) throw await refusal(getScanSettings(db, userId, req.params.id), 'Scan settings')
      return reply.status(204).send(null)
    },
  })
}
