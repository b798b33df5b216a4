// Integrations: create, list, read, change, delete, send a test, and read the delivery log. Another
// user's id is a 404 like an unknown one (tenancy in every query of store/integrations.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf, type RouteApp } from '../context.js'
import { workspacePage } from '../list-query.js'
import { Created, Data, NoContent, routeDoc, BODY_ERRORS, READ_ERRORS, WRITE_ERRORS } from '../schemas/common.js'
import {
  CreateIntegrationBody,
  DeliveriesQuery,
  Delivery,
  Integration,
  IntegrationsQuery,
  TestResult,
  UpdateIntegrationBody,
} from '../schemas/integrations.js'
import { deliveryView, integrationView } from '../integration-views.js'
import { changeIntegration, createIntegration, sendTestMessage } from '../../domain/integrations.js'
import { notFound } from '../../domain/errors.js'
import { scopesOf } from '../../toolkit/scope.js'
import { deleteIntegration, getIntegration, listIntegrations } from '../../store/integrations.js'
import { refusal } from '../../domain/access.js'
import { integrationDeliveries } from '../../store/integration-outbox.js'
import type { Db } from '../../store/db.js'
import { TEST_MESSAGE_MARGIN_MS } from '../../toolkit/timeouts.js'

const doc = routeDoc('integrations')

/** The caller's integration, or a 404. */
async function one(db: Db, userId: number, id: number) {
  const row = await getIntegration(db, userId, id)
  if (!row) throw notFound('Integration')
  return row
}

export const integrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ward
  const scope = scopesOf(config).callback

  app.post('/integrations', {
    schema: {
      ...doc('Create an integration: slack, teams, email, webhook, jira, github, gitlab or defectdojo', { 201: Created }, BODY_ERRORS),
      body: CreateIntegrationBody,
    },
    handler: async (req, reply) =>
      reply.status(201).send({ data: { created_id: await createIntegration(db, callerOf(req), scope, req.body) } }),
  })

  app.get('/integrations', {
    schema: doc.list("List the caller's integrations (all workspaces unless workspace_id)", Integration, IntegrationsQuery),
    handler: async (req) => ({
      data: (await listIntegrations(db, callerOf(req).userId, workspacePage(req.query))).map(integrationView),
    }),
  })

  app.get('/integrations/:id', {
    schema: doc.byId('Read an integration (its secrets are never returned)', { 200: Data(Integration) }, READ_ERRORS),
    handler: async (req) => ({ data: integrationView(await one(db, callerOf(req).userId, req.params.id)) }),
  })

  app.patch('/integrations/:id', {
    schema: {
      ...doc.byId('Change an integration (config members given replace the stored ones)', { 200: Data(Integration) }, BODY_ERRORS),
      body: UpdateIntegrationBody,
    },
    handler: async (req) => {
      const c = callerOf(req)
      await changeIntegration(db, c, scope, req.params.id, req.body)
      return { data: integrationView(await one(db, c.userId, req.params.id)) }
    },
  })

  app.delete('/integrations/:id', {
    schema: doc.byId('Delete an integration and its delivery log', { 204: NoContent }, READ_ERRORS),
    handler: async (req, reply) => {
      const { userId } = callerOf(req)
      if (!(await deleteIntegration(db, userId, req.params.id)))
        throw await refusal(getIntegration(db, userId, req.params.id), 'Integration')
      return reply.status(204).send(null)
    },
  })

  integrationDeliveryRoutes(app)
}

/** Sending a test message and reading the delivery log. */
function integrationDeliveryRoutes(app: RouteApp) {
  const { db, config } = app.ward

  app.post('/integrations/:id/test', {
    schema: doc.byId(
      "Send a test message through the outbox and answer with the receiver's status (waits for a sender up to the callback timeout)",
      { 200: Data(TestResult) },
      WRITE_ERRORS,
    ),
    handler: async (req) => ({
      data: await sendTestMessage(db, callerOf(req), req.params.id, config.callbackTimeoutMs + TEST_MESSAGE_MARGIN_MS),
    }),
  })

  app.get('/integrations/:id/deliveries', {
    schema: {
      ...doc.byId(
        "The integration's delivery log, newest first: time, event, status, the receiver's answer, next try",
        { 200: Data(Type.Array(Delivery)) },
        READ_ERRORS,
      ),
      querystring: DeliveriesQuery,
    },
    handler: async (req) => {
      const row = await one(db, callerOf(req).userId, req.params.id)
      return { data: (await integrationDeliveries(db, row.id, req.query)).map(deliveryView) }
    },
  })
}
