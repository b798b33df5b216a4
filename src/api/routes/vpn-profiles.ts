// VPN profiles API and a workspace's default profile. Another user's uuid is a 404 like an unknown one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf, type RouteApp } from '../context.js'
import { audited } from '../../store/audit.js'
import { Data, NoContent, routeDoc, READ_ERRORS } from '../schemas/common.js'
import {
  CreateVpnProfileBody,
  SetWorkspaceVpnProfileBody,
  UuidParams,
  VpnProfile,
  VpnProfileCreated,
  WorkspaceIdParams,
} from '../schemas/vpn-profiles.js'
import { deleteVpnProfile, getVpnProfile, listVpnProfiles, workspacesByProfile } from '../../store/vpn-profiles.js'
import { addVpnProfile, setDefaultVpnProfile, vpnProfileView } from '../../domain/vpn.js'
import { conflict, notFound } from '../../domain/errors.js'
import { scopesOf } from '../../toolkit/scope.js'

const doc = routeDoc('vpn_profiles')
const workspaceDoc = routeDoc('workspaces')

export const vpnProfileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.get('/vpn_profiles', {
    schema: { ...doc("List the caller's VPN profiles (secrets are never returned)", { 200: Data(Type.Array(VpnProfile)) }, [401, 429]) },
    handler: async (req) => {
      const userId = callerOf(req).userId
      const [rows, used] = await Promise.all([listVpnProfiles(db, userId), workspacesByProfile(db, userId)])
      return { data: rows.map((p) => vpnProfileView(p, used.get(p.uuid))) }
    },
  })

  app.post('/vpn_profiles', {
    schema: {
      ...doc(
        'Create a VPN profile: socks5 (host, port, optional username/password) or http_connect (url)',
        { 201: VpnProfileCreated },
        [400, 401, 409, 413, 415, 429],
      ),
      body: CreateVpnProfileBody,
      consumes: ['application/json', 'application/x-www-form-urlencoded'],
    },
    handler: async (req, reply) => {
      const vpnHost = scopesOf(app.ward.config).vpnHost
      const uuid = await addVpnProfile(
        db,
        callerOf(req).userId,
        req.body,
        vpnHost,
        (name) => `VPN profile "${name}" already exists`,
        req.audit,
      )
      return reply.status(201).send({ data: { created_id: uuid } })
    },
  })

  app.get('/vpn_profiles/:uuid', {
    schema: { ...doc('Read a VPN profile (without its secrets)', { 200: Data(VpnProfile) }, READ_ERRORS), params: UuidParams },
    handler: async (req) => {
      const userId = callerOf(req).userId
      const p = await getVpnProfile(db, userId, req.params.uuid)
      if (!p) throw notFound('VPN profile')
      return { data: vpnProfileView(p, (await workspacesByProfile(db, userId)).get(p.uuid)) }
    },
  })

  app.delete('/vpn_profiles/:uuid', {
    schema: {
      ...doc(
        'Delete a VPN profile (409 while a running scan uses it); workspaces that default to it are detached',
        { 204: NoContent },
        [400, 401, 404, 409, 429],
      ),
      params: UuidParams,
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
      ...workspaceDoc(
        "Set (uuid) or clear (null) the workspace's default VPN profile, used by scans that do not name one",
        { 204: NoContent },
        [400, 401, 403, 404, 415, 429],
      ),
      params: WorkspaceIdParams,
      body: SetWorkspaceVpnProfileBody,
    },
    handler: async (req, reply) => {
      await setDefaultVpnProfile(db, callerOf(req), req.params.id, req.body.vpn_profile_uuid, req.audit)
      return reply.status(204).send(null)
    },
  })
}
