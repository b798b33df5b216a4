// Migrations, written once for SQLite and PostgreSQL: the schema builder only, plus `idColumn`
// for the one thing the two spell differently (auto-increment keys).
import type { Migration, MigrationProvider } from 'kysely'
import { m001Initial } from './001-initial.js'
import { m002CallbacksHistory } from './002-callbacks-history.js'
import { m003VpnProfiles } from './003-vpn-profiles.js'
import { m004PerfIndexes } from './004-perf-indexes.js'
import { m005RateLimits } from './005-rate-limits.js'
import { m006CallbackBodies } from './006-callback-bodies.js'
import { m008QueueEta } from './008-queue-eta.js'
import { m009SecretKeyCheck } from './009-secret-key-check.js'
import { m010WebSessions } from './010-web-sessions.js'
import { m012CveKnowledge } from './012-cve-knowledge.js'
import { m011Monitoring } from './011-monitoring.js'
import { m013ScanCoverage } from './013-scan-coverage.js'
import { m016Templates } from './016-templates.js'
import { m018ScanSecrets } from './018-scan-secrets.js'
import { m015TargetCounts } from './015-target-counts.js'
import { m019WorkspaceMembers } from './019-workspace-members.js'
import { m020InvitationsAudit } from './020-invitations-audit.js'
import { m021Integrations } from './021-integrations.js'
import { m024OneFactOneId } from './024-one-fact-one-id.js'
import { m025OidcIdentities } from './025-oidc-identities.js'
import { m026InstanceAdmins } from './026-instance-admins.js'
import { m027ScanSettings } from './027-scan-settings.js'
import { m029DashboardIndexes } from './029-dashboard-indexes.js'
import { m030AcceptedUntil } from './030-accepted-until.js'
import { m031FindingsChanges } from './031-findings-changes.js'
import type { DbKind } from './columns.js'

export { idColumn, type DbKind } from './columns.js'
export type MigrationFactory = (kind: DbKind) => Migration

export const MIGRATIONS: Record<string, MigrationFactory> = {
  '001-initial': m001Initial,
  '002-callbacks-history': m002CallbacksHistory,
  '003-vpn-profiles': m003VpnProfiles,
  '004-perf-indexes': m004PerfIndexes,
  '005-rate-limits': m005RateLimits,
  '006-callback-bodies': m006CallbackBodies,
  '008-queue-eta': m008QueueEta,
  '009-secret-key-check': m009SecretKeyCheck,
  '010-web-sessions': m010WebSessions,
  '012-cve-knowledge': m012CveKnowledge,
  '011-monitoring': m011Monitoring,
  '013-scan-coverage': m013ScanCoverage,
  '016-templates': m016Templates,
  '018-scan-secrets': m018ScanSecrets,
  '015-target-counts': m015TargetCounts,
  '019-workspace-members': m019WorkspaceMembers,
  '020-invitations-audit': m020InvitationsAudit,
  '021-integrations': m021Integrations,
  '024-one-fact-one-id': m024OneFactOneId,
  '025-oidc-identities': m025OidcIdentities,
  '026-instance-admins': m026InstanceAdmins,
  '027-scan-settings': m027ScanSettings,
  '029-dashboard-indexes': m029DashboardIndexes,
  '030-accepted-until': m030AcceptedUntil,
  '031-findings-changes': m031FindingsChanges,
}

export function migrationProvider(kind: DbKind): MigrationProvider {
  return { getMigrations: async () => Object.fromEntries(Object.entries(MIGRATIONS).map(([k, f]) => [k, f(kind)])) }
}
