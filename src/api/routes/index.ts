// Every /api/v2 route plugin, registered in one place.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { targetRoutes } from './targets.js'
import { workspaceRoutes } from './workspaces.js'
import { memberRoutes } from './members.js'
import { invitationRoutes } from './invitations.js'
import { auditRoutes } from './audit.js'
import { userRoutes } from './users.js'
import { scanRoutes } from './scans.js'
import { findingRoutes } from './findings.js'
import { findingUpdateRoutes } from './finding-updates.js'
import { vpnProfileRoutes } from './vpn-profiles.js'
import { callbackRoutes } from './callbacks.js'
import { toolRoutes } from './tools.js'
import { scheduleRoutes } from './schedules.js'
import { scanSettingsRoutes } from './scan-settings.js'
import { templateRoutes } from './templates.js'
import { integrationRoutes } from './integrations.js'

export const apiRoutes: FastifyPluginAsyncTypebox = async (api) => {
  await api.register(targetRoutes)
  await api.register(workspaceRoutes)
  await api.register(memberRoutes)
  await api.register(invitationRoutes)
  await api.register(auditRoutes)
  await api.register(userRoutes)
  await api.register(scanRoutes)
  await api.register(findingRoutes)
  await api.register(findingUpdateRoutes)
  await api.register(vpnProfileRoutes)
  await api.register(callbackRoutes)
  await api.register(toolRoutes)
  await api.register(scheduleRoutes)
  await api.register(scanSettingsRoutes)
  await api.register(templateRoutes)
  await api.register(integrationRoutes)
}
