// What route plugins get: the database and the rules' configuration. Decorated as `app.ward`.
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import type { Scope } from '../toolkit/scope.js'
import type { Caller } from '../store/accounts.js'
import type { ScanRules } from '../domain/scans.js'
import type { CallerCache } from './caller-cache.js'
import type { ToolCatalogue } from '../toolkit/tool.js'

export interface WardContext {
  db: Db
  dbKind: 'sqlite' | 'postgres'
  config: Config
  /** The target scope (WARD_TARGET_BLOCKLIST / WARD_TARGET_ALLOWLIST). */
  blocklist: Scope
  /** The tools scans may use (manifests: ids, names, tool_params schemas). */
  tools: ToolCatalogue
  /** VPN profile resolution for new scans (set when VPN profiles are enabled). */
  resolveVpnProfile?: ScanRules['resolveVpnProfile']
}

declare module 'fastify' {
  interface FastifyInstance {
    ward: WardContext
    /** Authenticated callers by key hash (see caller-cache.ts). */
    callers: CallerCache
  }
  interface FastifyRequest {
    caller: Caller | null
  }
}

/** The authenticated caller (the auth hook guarantees it inside /api/v2). */
export function callerOf(req: { caller: Caller | null }): Caller {
  if (!req.caller) throw new Error('no caller on an authenticated route')
  return req.caller
}
