// Route plugins beyond targets/workspaces (scans, findings, VPN profiles, ...) register here.
import type { FastifyPluginAsync } from 'fastify'
import { scanRoutes } from './scans.js'
import { findingRoutes } from './findings.js'
import { vpnProfileRoutes } from './vpn-profiles.js'
import { callbackRoutes } from './callbacks.js'
import { findingUpdateRoutes } from './finding-updates.js'

export const API_ROUTE_PLUGINS: FastifyPluginAsync<any>[] = [scanRoutes as FastifyPluginAsync<any>, findingRoutes as FastifyPluginAsync<any>, vpnProfileRoutes as FastifyPluginAsync<any>, callbackRoutes as FastifyPluginAsync<any>, findingUpdateRoutes as FastifyPluginAsync<any>]
