// Saved scan settings (an extension beside v2): create (from tool_params or an earlier scan), list,
// read, change, delete. Scans and schedules start from them with settings_id. Another user's id is
// a 404 like an unknown one; a viewer reads only (403 on a change).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../context.js'
import { changeItem, readItem } from '../item-change.js'
import { workspacePage } from '../list-query.js'
import { changeScanSettings, saveScanSettings } from '../../domain/scan-settings.js'
import { deleteScanSettings, getScanSettings, listScanSettings } from '../../store/scan-settings.js'
import { audited } from '../../store/audit.js'
import { Created, Data, NoContent, routeDoc, BODY_ERRORS, READ_ERRORS, WRITE_ERRORS } from '../schemas/common.js'
import { CreateScanSettingsBody, ScanSettings, ScanSettingsQuery, UpdateScanSettingsBody } from '../schemas/scan-settings.js'
import { scanSettingsView } from '../views.js'

const doc = routeDoc('scan settings')
const SCAN_SETTINGS = { what: 'Scan settings', read: getScanSettings }

export const scanSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.post('/scan-settings', {
    schema: {
      ...doc(
        'Save scan settings: a name and a tool with its tool_params (or those of from_scan_id); credentials are stored encrypted',
        { 201: Created },
        BODY_ERRORS,
      ),
      body: CreateScanSettingsBody,
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
    schema: doc.list("List the caller's saved scan settings by name (all workspaces unless workspace_id)", ScanSettings, ScanSettingsQuery),
    handler: async (req) => {
      const q = req.query
      const rows = await listScanSettings(db, callerOf(req).userId, { toolId: q.tool_id, ...workspacePage(q) })
      return { data: rows.map(scanSettingsView) }
    },
  })

  app.get('/scan-settings/:id', {
    schema: doc.byId('Read saved scan settings', { 200: Data(ScanSettings) }, READ_ERRORS),
    handler: async (req) => {
      const s = await readItem(db, req, SCAN_SETTINGS)
      return { data: scanSettingsView(s) }
    },
  })

  app.patch('/scan-settings/:id', {
    schema: {
      ...doc.byId(
        'Rename saved scan settings, or change their tool_params or max_scan_time (checked against their tool)',
        { 200: Data(ScanSettings) },
        BODY_ERRORS,
      ),
      body: UpdateScanSettingsBody,
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
    schema: doc.byId('Delete saved scan settings (scans and schedules started from them are kept)', { 204: NoContent }, WRITE_ERRORS),
    handler: async (req, reply) => {
      await changeItem(db, req, SCAN_SETTINGS, deleteScanSettings, (ok) => ok)
      return reply.status(204).send(null)
    },
  })
}
