// VPN profiles API and a workspace's default profile. Another user's uuid is a 404 like an unknown one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf, type RouteApp } from '../context.js'
import { writableWorkspace } from '../../domain/access.js'
import { Data, NoContent, errors } from '../schemas/common.js'
import {
  CreateVpnProfileBody,
  SetWorkspaceVpnProfileBody,
  UuidParams,
  VpnProfile,
  VpnProfileCreated,
  WorkspaceIdParams,
} from '../schemas/vpn-profiles.js'
import {
  deleteVpnProfile,
  getVpnProfile,
  insertVpnProfile,
  listVpnProfiles,
  setWorkspaceVpnProfile,
  workspacesByProfile,
} from '../../store/vpn-profiles.js'
import { newVpnProfile, vpnProfileView } from '../../domain/vpn.js'
import { conflict, notFound } from '../../domain/errors.js'
import { scopesOf } from '../../toolkit/scope.js'
import { isUniqueViolation } from '../../domain/targets.js'
import { audited } from '../../store/audit.js'

export const vpnProfileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.get('/vpn_profiles', {
    schema: {
      tags: ['vpn_profiles'],
      summary: "List the caller's VPN profiles (secrets are never returned)",
      response: { 200: Data(Type.Array(VpnProfile)), ...errors(401, 429) },
    },
    handler: async (req) => {
      const userId = callerOf(req).userId
      const [rows, used] = await Promise.all([listVpnProfiles(db, userId), workspacesByProfile(db, userId)])
      return { data: rows.map((p) => vpnProfileView(p, used.get(p.uuid))) }
    },
  })

  app.post('/vpn_profiles', {
    schema: {
      tags: ['vpn_profiles'],
      summary: 'Create a VPN profile: socks5 (host, port, optional username/password) or http_connect (url)',
      body: CreateVpnProfileBody,
      consumes: ['application/json', 'application/x-www-form-urlencoded'],
      response: { 201: VpnProfileCreated, ...errors(400, 401, 409, 413, 415, 429) },
    },
    handler: async (req, reply) => {
      const row = newVpnProfile(callerOf(req).userId, req.body, scopesOf(app.ward.config).vpnHost)
      try {
        const uuid = await audited(
          db,
          req.audit,
          (trx) => insertVpnProfile(trx, row),
          (uuid) => ({ objectId: uuid }),
        )
        return reply.status(201).send({ data: { created_id: uuid } })
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(`VPN profile "${row.name}" already exists`)
        throw e
      }
    },
  })

  app.get('/vpn_profiles/:uuid', {
    schema: {
      tags: ['vpn_profiles'],
      summary: 'Read a VPN profile (without its secrets)',
      params: UuidParams,
      response: { 200: Data(VpnProfile), ...errors(400, 401, 404, 429) },
    },
    handler: async (req) => {
      const userId = callerOf(req).userId
      const p = await getVpnProfile(db, userId, req.params.uuid)
      if (!p) throw notFound('VPN profile')
      return { data: vpnProfileView(p, (await workspacesByProfile(db, userId)).get(p.uuid)) }
    },
  })

  app.delete('/vpn_profiles/:uuid', {
    schema: {
      tags: ['vpn_profiles'],
      summary: 'Delete a VPN profile (409 while a running scan uses it); workspaces that default to it are detached',
      params: UuidParams,
      response: { 204: NoContent, ...errors(400, 401, 404, 409, 429) },
    },
    handler: async (req, reply) => {
      const r = await audited(
        db,
        req.audit,
        (trx) => deleteVpnProfile(trx, callerOf(req).userId, req.params.uuid),
        (r) => r === 'deleted',
      )
      if (r === 'missing') throw notFound('VPN profile')
      if (r === 'running')
        throw conflict('VPN profile is used by a running scan: stop the scan or wait for it to end before deleting the profile')
      return reply.status(204).send(null)
    },
  })

  workspaceVpnRoute(app)
}

/** A workspace's default VPN profile. */
function workspaceVpnRoute(app: RouteApp) {
  const { db } = app.ward
  app.put('/workspaces/:id/vpn_profile', {
    schema: {
      tags: ['workspaces'],
      summary: "Set (uuid) or clear (null) the workspace's default VPN profile, used by scans that do not name one",
      params: WorkspaceIdParams,
      body: SetWorkspaceVpnProfileBody,
      response: { 204: NoContent, ...errors(400, 401, 403, 404, 415, 429) },
    },
    handler: async (req, reply) => {
      const userId = callerOf(req).userId
      const uuid = req.body.vpn_profile_uuid
      await writableWorkspace(db, callerOf(req), req.params.id)
      if (uuid !== null && !(await getVpnProfile(db, userId, uuid))) throw notFound('VPN profile')
      if (
        !(await audited(
          db,
          req.audit,
          (trx) => setWorkspaceVpnProfile(trx, userId, req.params.id, uuid),
          (ok) => ok,
        ))
      )
        throw notFound('Workspace')
      return reply.status(204).send(null)
    },
  })
}
