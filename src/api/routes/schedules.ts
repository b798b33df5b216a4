// Schedules: create, list, read, update, pause/resume, delete and run now. Another user's id is a
// 404 like an unknown one (tenancy in every query of store/schedules.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf, type RouteApp } from '../context.js'
import { workspacePage } from '../list-query.js'
import { changeItem, type ItemKind } from '../item-change.js'
import { refusal } from '../../domain/access.js'
import { Created, Data, NoContent, routeDoc, BODY_ERRORS, READ_ERRORS, WRITE_ERRORS } from '../schemas/common.js'
import { CreateScheduleBody, RunNowResult, Schedule, SchedulesQuery, UpdateScheduleBody } from '../schemas/schedules.js'
import { scheduleView } from '../views.js'
import { changeSchedule, createSchedule, setSchedulePaused } from '../../domain/schedules.js'
import { notFound } from '../../domain/errors.js'
import { scopesOf } from '../../toolkit/scope.js'
import { deleteSchedule, getSchedule, listSchedules, runScheduleNow, scheduleHistory } from '../../store/schedules.js'
import { audited } from '../../store/audit.js'
import { publish } from '../../store/notify.js'
import type { Db } from '../../store/db.js'
import type { ScheduleRow } from '../../store/schema.js'

const doc = routeDoc('schedules')
const SCHEDULE: ItemKind = { what: 'Schedule', read: getSchedule }

async function views(db: Db, rows: ScheduleRow[]) {
  const history = await scheduleHistory(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => scheduleView(r, history.get(r.id)!))
}

/** The caller's schedule as an answer, or a 404. */
async function one(db: Db, userId: number, id: number) {
  const s = await getSchedule(db, userId, id)
  if (!s) throw notFound('Schedule')
  return { data: (await views(db, [s]))[0]! }
}

export const scheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  const callbackBlocklist = scopesOf(app.ward.config).callback
  const rules = () => ({
    tools: app.ward.tools,
    targetBlocklist: app.ward.blocklist,
    callbackBlocklist,
    resolveVpnProfile: app.ward.resolveVpnProfile,
  })

  app.post('/schedules', {
    schema: {
      ...doc(
        'Create a schedule: a target (target_id, target_name, or every target of target_type in the workspace), ' +
          'a tool, and cron (+ timezone) or interval_minutes',
        { 201: Created },
        [400, 401, 403, 404, 409, 413, 415, 429],
      ),
      body: CreateScheduleBody,
    },
    handler: async (req, reply) => {
      const id = await audited(
        db,
        req.audit,
        (trx) => createSchedule(trx, callerOf(req), rules(), req.body),
        (id) => ({ objectId: id }),
      )
      return reply.status(201).send({ data: { created_id: id } })
    },
  })

  app.get('/schedules', {
    schema: doc.list("List the caller's schedules (all workspaces unless workspace_id)", Schedule, SchedulesQuery),
    handler: async (req) => {
      const rows = await listSchedules(db, callerOf(req).userId, workspacePage(req.query))
      return { data: await views(db, rows) }
    },
  })

  app.get('/schedules/:id', {
    schema: doc.byId('Read a schedule with next_run_at, its last scans and runs', { 200: Data(Schedule) }, READ_ERRORS),
    handler: async (req) => one(db, callerOf(req).userId, req.params.id),
  })

  app.patch('/schedules/:id', {
    schema: {
      ...doc.byId('Change a schedule (a new cron, timezone or interval moves next_run_at)', { 200: Data(Schedule) }, BODY_ERRORS),
      body: UpdateScheduleBody,
    },
    handler: async (req) => {
      const c = callerOf(req)
      await audited(
        db,
        req.audit,
        (trx) => changeSchedule(trx, c, rules(), req.params.id, req.body),
        () => true,
      )
      return one(db, c.userId, req.params.id)
    },
  })

  scheduleActionRoutes(app)
}

/** Pause and resume, run now, and delete. */
function scheduleActionRoutes(app: RouteApp) {
  const { db } = app.ward

  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const)
    app.post(`/schedules/:id/${verb}`, {
      schema: doc.byId(
        paused ? 'Pause a schedule' : 'Resume a schedule: it fires at its first slot after now, not at the slots it slept through',
        { 200: Data(Schedule) },
        WRITE_ERRORS,
      ),
      handler: async (req) => {
        const c = callerOf(req)
        await audited(
          db,
          req.audit,
          (trx) => setSchedulePaused(trx, c, req.params.id, paused),
          () => true,
        )
        return one(db, c.userId, req.params.id)
      },
    })

  app.post('/schedules/:id/run', {
    schema: doc.byId(
      'Run a schedule now (its rhythm is unchanged); a target whose previous scan from the schedule still runs is skipped',
      { 201: Data(RunNowResult) },
      WRITE_ERRORS,
    ),
    handler: async (req, reply) => {
      const userId = callerOf(req).userId
      const run = await audited(
        db,
        req.audit,
        (trx) => runScheduleNow(trx, userId, req.params.id),
        (run) => run !== null,
      )
      if (!run) throw await refusal(getSchedule(db, userId, req.params.id), 'Schedule')
      if (run.scanIds.length) publish({ type: 'queued' })
      return reply.status(201).send({ data: { created_ids: run.scanIds, skipped: run.outcome === 'skipped', message: run.message ?? '' } })
    },
  })

  app.delete('/schedules/:id', {
    schema: doc.byId('Delete a schedule (its scans are kept)', { 204: NoContent }, WRITE_ERRORS),
    handler: async (req, reply) => {
      await changeItem(db, req, SCHEDULE, deleteSchedule, (ok) => ok)
      return reply.status(204).send(null)
    },
  })
}
