import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf, type RouteApp } from '../context.js'
import { changeItem, deleteItem, readItem } from '../item-change.js'
import { isoRange, pageOf } from '../list-query.js'
import { Data, NoContent, routeDoc, CONFLICT_ERRORS, READ_ERRORS, WRITE_ERRORS } from '../schemas/common.js'
import { ChangesQuery, CreateScanBody, Scan, ScanChanges, ScansQuery, TestRecord, TestsQuery } from '../schemas/scans.js'
import { scanChanges } from '../../reports/scan-changes.js'
import { Finding } from '../schemas/findings.js'
import { scanView, testView } from '../views.js'
import { createScan } from '../../domain/scans.js'
import { badRequest, notFound, WardError } from '../../domain/errors.js'
import { deleteScan, getScan, getScanView, listScans, requestStop, type ScanViewRow } from '../../store/scans.js'
import { scanLogs, scanTests } from '../../store/results.js'
import { queueReader } from '../../store/queue.js'
import { publish } from '../../store/notify.js'
import { scopesOf } from '../../toolkit/scope.js'
import { negotiateOutput, OUTPUT_TYPES } from '../negotiate.js'
import { scanPdfStream } from '../../reports/scan-report.js'
import { pdfOrBusy } from '../../domain/report-requests.js'
import { toolName } from '../../tools/registry.js'
import { scanOutputJson } from '../../reports/scan-output.js'
import { CONTENT_TYPES, WRITERS, type ScanInfo, type WireFinding } from '../../reports/formats/index.js'
import { getTargetById } from '../../store/targets.js'
import type { ScanRow } from '../../store/schema.js'

const doc = routeDoc('scans')
const SCAN = { what: 'Scan', read: getScan }

export const scanRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  const callbackBlocklist = scopesOf(app.ward.config).callback
  /** Where the waiting ones among `rows` stand in the queue (no query when none waits). */
  const places = queueReader(db, app.ward.config.userMaxRunning)
  const queueOf = (rows: readonly ScanViewRow[]) => places(rows.filter((s) => s.status === 'waiting').map((s) => s.id))

  app.post('/scans', {
    schema: {
      ...doc(
        'Start a scan',
        { 201: Data(Type.Object({ created_id: Type.Integer(), target_id: Type.Integer() })) },
        [400, 401, 403, 404, 409, 413, 415, 429],
      ),
      body: CreateScanBody,
    },
    handler: async (req, reply) => {
      const r = await createScan(
        db,
        callerOf(req),
        { tools: app.ward.tools, targetBlocklist: app.ward.blocklist, callbackBlocklist, resolveVpnProfile: app.ward.resolveVpnProfile },
        req.body,
        req.audit,
      )
      return reply.status(201).send({ data: { created_id: r.scanId, target_id: r.targetId } })
    },
  })

  app.get('/scans', {
    schema: doc.list('List scans (the active workspace unless workspace_id)', Scan, ScansQuery),
    handler: async (req) => {
      const c = callerOf(req)
      const q = req.query
      const start = isoRange(['start_time[from]', 'start_time[to]'], q['start_time[from]'], q['start_time[to]'])
      const rows = await listScans(db, c.userId, {
        workspaceId: q.workspace_id ?? c.activeWorkspaceId,
        toolId: q.tool_id,
        targetId: q.target_id,
        status: q.status,
        startFrom: start.from,
        startTo: start.to,
        ...pageOf(q),
      })
      const now = Date.now()
      const queue = await queueOf(rows)
      return { data: rows.map((s) => scanView(s, now, queue.get(s.id))) }
    },
  })

  app.get('/scans/:id', {
    schema: doc.byId('Read a scan', { 200: Data(Scan) }, READ_ERRORS),
    handler: async (req) => {
      const s = await readItem(db, req, { what: 'Scan', read: getScanView })
      return { data: scanView(s, Date.now(), s.status === 'waiting' ? (await queueOf([s])).get(s.id) : undefined) }
    },
  })

  scanChangeRoutes(app)
  scanResultRoutes(app)
}

/** Deleting and stopping a scan (each audited, api/audited-routes.ts). */
function scanChangeRoutes(app: RouteApp) {
  const { db } = app.ward
  app.delete('/scans/:id', {
    schema: doc.byId('Delete a finished scan with its tests and findings', { 204: NoContent }, CONFLICT_ERRORS),
    handler: async (req, reply) => {
      await deleteItem(db, req, SCAN, deleteScan, 'Scan is waiting or running: stop it before deleting it')
      return reply.status(204).send(null)
    },
  })

  app.post('/scans/:id/stop', {
    schema: doc.byId('Stop a scan (no-op on an ended scan)', { 204: NoContent }, WRITE_ERRORS),
    handler: async (req, reply) => {
      // Stopping an ended scan is a done no-op (204), recorded like any stop.
      const r = await changeItem(db, req, SCAN, requestStop, (r) => r !== 'missing')
      if (r === 'requested') publish({ type: 'stop', scanId: req.params.id })
      return reply.status(204).send(null)
    },
  })
}

/** A scan's findings in one of the export formats (SARIF, CSV, JUnit, Markdown). */
async function exportText(app: RouteApp, s: ScanRow, kind: keyof typeof CONTENT_TYPES, findings: WireFinding[]): Promise<string> {
  const { db } = app.ward
  const view = scanView(s)
  const target = await getTargetById(db, s.target_id)
  const info: ScanInfo = {
    id: s.id,
    target: target?.name ?? String(s.target_id),
    tool_id: s.tool_id,
    tool_name: app.ward.tools.get(s.tool_id)?.name,
    status_name: view.status_name,
    status_message: view.status_message,
    start_time: view.start_time,
    end_time: view.end_time,
    duration: view.duration,
  }
  const tests = kind === 'junit' || kind === 'markdown' ? (await scanTests(db, s.id)).map(testView) : []
  // No threshold on the server: the CI client applies --fail-on; here every finding is reported as found.
  return WRITERS[kind](info, findings, tests, null)
}

/** A scan's output, in the format the Accept header asks for. */
function scanOutputRoute(app: RouteApp) {
  const { db } = app.ward

  app.get('/scans/:id/output', {
    schema: {
      ...doc.byId(
        'Scan output: JSON finding list (default), the PDF report, SARIF 2.1.0, CSV, JUnit XML or a Markdown summary, chosen by Accept',
        {
          200: Data(
            Type.Object({
              output_type: Type.String(),
              output_data: Type.Object({ findings: Type.Array(Finding) }, { additionalProperties: true }),
            }),
          ),
        },
        [400, 401, 404, 406, 429, 503],
      ),
      description:
        'Accept: application/json (or none, */*) → the finding list; application/pdf → the PDF report; application/sarif+json → SARIF 2.1.0; ' +
        'text/csv → one row per finding; application/xml → JUnit XML (one test case per test, no failure threshold); ' +
        'text/markdown → a summary. Anything else → 406.',
      produces: OUTPUT_TYPES.map(([t]) => t),
    },
    handler: async (req, reply) => {
      const c = callerOf(req)
      const s = await getScan(db, c.userId, req.params.id)
      if (!s) throw notFound('Scan')
      const kind = negotiateOutput(req.headers.accept)
      if (!kind)
        throw new WardError(406, `Not acceptable: ask for one of ${OUTPUT_TYPES.map(([t]) => t).join(', ')}`, {
          acceptable: OUTPUT_TYPES.map(([t]) => t),
        })
      if (kind === 'pdf') {
        const pdf = await pdfOrBusy(reply, () => scanPdfStream(db, s, toolName))
        return reply
          .status(200)
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="ward-scan-${s.id}.pdf"`)
          .send(pdf as never) // the route's schema types the JSON answer; the PDF is streamed
      }
      const output = await scanOutputJson(db, s)
      if (kind === 'json') return { data: output }
      const body = await exportText(app, s, kind, output.output_data.findings)
      const ext = { sarif: 'sarif', csv: 'csv', junit: 'xml', markdown: 'md' }[kind]
      return reply
        .status(200)
        .header('content-type', CONTENT_TYPES[kind])
        .header('content-disposition', `inline; filename="ward-scan-${s.id}.${ext}"`)
        .send(body as never)
    },
  })
}

/** What a scan produced: its output in every format, its changes, raw log lines and tests. */
function scanResultRoutes(app: RouteApp) {
  const { db } = app.ward
  scanOutputRoute(app)

  app.get('/scans/:id/changes', {
    schema: {
      ...doc.byId(
        'What changed since the previous complete scan of the same target and tool (or ?against=<scan id>): ' +
          'findings new, gone and still there, and the attack surface',
        { 200: Data(ScanChanges) },
        READ_ERRORS,
      ),
      querystring: ChangesQuery,
    },
    handler: async (req) => {
      const userId = callerOf(req).userId
      const s = await getScan(db, userId, req.params.id)
      if (!s) throw notFound('Scan')
      let against: Awaited<ReturnType<typeof getScan>>
      if (req.query.against !== undefined) {
        against = await getScan(db, userId, req.query.against)
        if (!against) throw notFound('Scan')
        if (against.target_id !== s.target_id || against.tool_id !== s.tool_id)
          throw badRequest(`Invalid parameters: scan ${against.id} is not of the same target and tool as scan ${s.id}`)
      }
      return { data: await scanChanges(db, s, against) }
    },
  })

  app.get('/scans/:id/raw', {
    schema: doc.byId("The tool's raw log lines, in order", { 200: Data(Type.Array(Type.String())) }, READ_ERRORS),
    handler: async (req) => {
      const s = await readItem(db, req, SCAN)
      return { data: await scanLogs(db, s.id) }
    },
  })

  app.get('/scans/:id/tests', {
    schema: {
      ...doc.byId('Tests the scan performed', { 200: Data(Type.Array(TestRecord)) }, READ_ERRORS),
      querystring: TestsQuery,
    },
    handler: async (req) => {
      const s = await readItem(db, req, SCAN)
      const { resource_type, resource_id } = req.query
      if (resource_id !== undefined && !resource_type)
        throw badRequest('Invalid parameters: resource_type is required when resource_id is set')
      if (resource_type === 'scan' && resource_id !== undefined && resource_id !== s.id)
        throw badRequest(
          `Invalid parameters: resource_id ${resource_id} is not this scan (${s.id}); with resource_type=scan it must be the scan id`,
        )
      const only = resource_type === 'finding' ? 'with-findings' : resource_type === 'scan' ? 'without-findings' : undefined
      const tests = await scanTests(db, s.id, only, resource_type === 'finding' ? resource_id : undefined)
      return { data: tests.map(testView) }
    },
  })
}
