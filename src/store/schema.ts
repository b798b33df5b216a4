// Table types for Kysely. Booleans are stored as 0/1 integers and times as ISO-8601 UTC text so the
// same SQL runs on SQLite and PostgreSQL; repositories convert at the edge.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface UsersTable {
  id: Generated<number>
  name: string
  max_targets: number
  license_expires: string | null
  active_workspace_id: number | null
  created_at: string
}

export interface ApiKeysTable {
  id: Generated<number>
  user_id: number
  key_hash: string
  key_prefix: string
  created_at: string
  revoked_at: string | null
}

export interface WorkspacesTable {
  id: Generated<number>
  user_id: number
  name: string
  vpn_profile_uuid: string | null
  created_at: string
}

export interface TargetsTable {
  id: Generated<number>
  workspace_id: number
  user_id: number
  name: string
  name_key: string
  type: string
  description: string
  created_at: string
}

export interface ScansTable {
  id: Generated<number>
  workspace_id: number
  target_id: number
  user_id: number
  tool_id: number
  status: string
  status_message: string | null
  vpn_profile_uuid: string | null
  vpn_scan: number
  progress: number
  num_tests: number
  num_finished_tests: number
  max_scan_time: number
  scan_original_url: number
  redirect_level: string
  report_callback: string | null
  tool_params: string
  output_data: string | null
  count_critical: number
  count_high: number
  count_medium: number
  count_low: number
  count_info: number
  created_at: string
  start_time: string | null
  end_time: string | null
  lease_owner: string | null
  lease_expires_at: string | null
  stop_requested: number
  attempts: number
  /** When the worker expects the running scan to end (migration 008); null when it cannot tell. */
  eta_at: string | null
  /** The schedule that queued the scan; null for scans started by hand. */
  schedule_id: number | null
  /** What the scan covered (toolkit/coverage.ts ScanCoverage as JSON), when it ended complete (migration 013). */
  coverage: string | null
}

export interface TestsTable {
  id: Generated<number>
  scan_id: number
  name: string
  description: string
  status: string
  result: string | null
  message: string | null
  start_time: string
  end_time: string | null
}

export interface FindingsTable {
  id: Generated<number>
  scan_id: number
  target_id: number
  workspace_id: number
  test_id: number | null
  dedup_key: string
  vuln_id: string
  name: string
  test_description: string
  test_finished: number
  confirmed: number
  in_cisa_catalog: number
  cve: string
  vuln_description: string
  vuln_evidence: string | null
  risk_description: string
  risk_level: number
  status: string
  recommendation: string
  refs: string
  verified: number
  owasp: string
  cwe: string
  port: number | null
  protocol: string | null
  service: string | null
  url: string | null
  location: string | null
  created_at: string
  /** CVSS base score and vector of the finding's CVEs (the highest), null when it has none. */
  cvss_score: number | null
  cvss_vector: string | null
  /** EPSS probability of the finding's CVEs (the highest) and the date FIRST scored it. */
  epss_score: number | null
  epss_date: string | null
  /** An accepted risk's last day (YYYY-MM-DD); the group re-opens after it. Null otherwise. */
  accepted_until: string | null
}

export interface ScanLogsTable {
  id: Generated<number>
  scan_id: number
  line: string
  created_at: string
}

export interface VpnProfilesTable {
  uuid: string
  user_id: number
  name: string
  /** 'socks5' | 'http_connect' */
  type: string
  host: string
  port: number
  username: string | null
  /** Write-only: never returned by the API. */
  password: string | null
  /** http_connect: proxy URL without credentials; null for socks5. */
  url: string | null
  created_at: string
}

/** An outbox delivery's progress (store/outbox.ts): callbacks and integrations keep the same columns. */
export interface DeliveryProgress {
  status: string
  attempts: number
  next_attempt_at: string
  lease_owner: string | null
  lease_expires_at: string | null
  last_status_code: number | null
  last_error: string | null
  created_at: string
  delivered_at: string | null
}

export interface CallbackDeliveriesTable extends DeliveryProgress {
  id: Generated<number>
  scan_id: number
  /** Stable per delivery: sent as x-ward-event-id on every attempt. */
  event_id: string
  url: string
  format: string
  secret: string | null
}

/** One try of an outbox delivery: callbacks and integrations record the same (integrations add the answer). */
export interface CallbackAttemptsTable {
  id: Generated<number>
  delivery_id: number
  attempt: number
  started_at: string
  status_code: number | null
  error: string | null
  duration_ms: number
}

export interface CallbackBodiesTable {
  delivery_id: number
  content_type: string
  body: Buffer
}

export interface FindingHistoryTable {
  id: Generated<number>
  workspace_id: number
  dedup_key: string
  finding_id: number | null
  field: string
  old_value: string | null
  new_value: string | null
  reason: string | null
  user_id: number | null
  created_at: string
}

export interface KevCvesTable {
  cve: string
  imported_at: string
}

export interface CvesTable {
  cve: string
  description: string
  cvss3_score: number | null
  cvss3_vector: string | null
  cvss4_score: number | null
  cvss4_vector: string | null
  cwe: string
  refs: string
  last_modified: string | null
  imported_at: string
}

export interface CveProductsTable {
  id: Generated<number>
  cve: string
  vendor: string
  product: string
  version: string | null
  start_including: string | null
  start_excluding: string | null
  end_including: string | null
  end_excluding: string | null
}

export interface EpssScoresTable {
  cve: string
  score: number
  percentile: number
  score_date: string
}

/** Shared API rate-limit windows (migration 005), merged into Database. */
export interface RateLimitsTable {
  key: string
  count: number
  /** Epoch milliseconds when the window ends. */
  reset_at: number
}

/** The key that seals this database's secrets (migration 009): one row, id 1. */
export interface SecretKeyCheckTable {
  id: number
  /** SecretBox.keyId of the key. */
  key_id: string
  /** A known text sealed with the key. */
  sealed: string
  created_at: string
}
/** Secrets a scan found (migration 018), sealed; never read by the API. */
export interface ScanSecretsTable {
  id: Generated<number>
  scan_id: number
  label: string
  sealed: string
  created_at: string
}
/** Migration 015: the user's number of targets, kept by insertTarget/deleteTarget (no COUNT on the write path). */
export interface UsersTable {
  target_count: Generated<number>
}
/** The web interface (migration 010): passwords, set-password links and sessions, merged into the tables above. */
export interface UsersTable {
  /** scrypt, see domain/passwords.ts; null: the user cannot sign in to the web interface. */
  password_hash: string | null
  /** SHA-256 of a one-time set-password link token, and when it stops working. */
  password_link_hash: string | null
  password_link_expires: string | null
}
export interface WebSessionsTable {
  /** SHA-256 of the session cookie's value. */
  id_hash: string
  user_id: number
  /** The session's CSRF token, sent back in every form and htmx request. */
  csrf: string
  created_at: string
  expires_at: string
}
/** Continuous monitoring (migration 011), merged into Database. */
export interface SchedulesTable {
  id: Generated<number>
  workspace_id: number
  user_id: number
  name: string
  target_id: number | null
  target_type: string | null
  tool_id: number
  tool_params: string
  max_scan_time: number
  vpn_profile_uuid: string | null
  report_callback: string | null
  cron: string | null
  timezone: string
  interval_minutes: number | null
  paused: number
  next_run_at: string
  last_run_at: string | null
  created_at: string
  updated_at: string
}
export interface ScheduleRunsTable {
  id: Generated<number>
  schedule_id: number
  slot_at: string
  fired_at: string
  /** 'queued' | 'skipped' */
  outcome: string
  /** JSON array of the scans queued. */
  scan_ids: string
  message: string | null
  worker_id: string | null
}
export interface FindingGroupsTable {
  id: Generated<number>
  workspace_id: number
  dedup_key: string
  target_id: number
  tool_id: number
  first_seen: string
  last_seen: string
  first_scan_id: number
  last_scan_id: number
  /** 'open' | 'fixed' */
  state: string
  regression: number
  fixed_at: string | null
  fixed_scan_id: number | null
}

/** A finding row read with its duplicate group's life cycle (store/findings.ts groupColumns); null: no group. */
export interface FindingGroupColumns {
  group_first_seen?: string | null
  group_last_seen?: string | null
  group_state?: string | null
  group_regression?: number | null
}

/** Check templates in nuclei's YAML format (migration 016), merged into Database. */
export interface TemplatesTable {
  id: string
  file_path: string
  content_hash: string
  name: string
  author: string
  severity: string
  tags: string
  description: string
  reference: string
  remediation: string
  classification: string
  protocol: string
  yaml: string
  files: string
  source: string
  created_at: string
  updated_at: string
}

/** Who belongs to a workspace, with which role (migration 019). */
export interface WorkspaceMembersTable {
  workspace_id: number
  user_id: number
  /** 'owner' | 'member' | 'viewer' */
  role: string
  added_at: string
}

/** One-time invitations to a workspace (migration 020). */
export interface WorkspaceInvitationsTable {
  id: Generated<number>
  workspace_id: number
  token_hash: string
  role: string
  created_by: number | null
  created_at: string
  expires_at: string
  used_at: string | null
  used_by: number | null
  revoked_at: string | null
}
/** The audit log, append-only (migration 020). */
export interface AuditLogTable {
  id: Generated<number>
  at: string
  workspace_id: number | null
  actor_user_id: number | null
  actor: string
  client: string | null
  action: string
  object_type: string | null
  object_id: string | null
  details: string
}
/** Integrations and their outbox (migration 021), merged into Database. */
export interface IntegrationsTable {
  id: Generated<number>
  workspace_id: number
  user_id: number
  type: string
  name: string
  /** JSON; secret members sealed in place. */
  config: string
  /** JSON array of event names. */
  events: string
  min_risk: number
  only_changes: number
  enabled: number
  created_at: string
  updated_at: string
}
/** status: 'pending' | 'delivered' | 'skipped' | 'failed' | 'refused'. */
export interface IntegrationDeliveriesTable extends DeliveryProgress {
  id: Generated<number>
  integration_id: number
  event_key: string
  event_id: string
  /** 'scan' | 'schedule' | 'triage' | 'test' */
  kind: string
  scan_id: number | null
  /** What the event is about besides a scan (a schedule slot, a history entry), JSON. */
  ref: string | null
  payload: string | null
}
export interface IntegrationAttemptsTable extends CallbackAttemptsTable {
  answer: string | null
}
export interface IntegrationTicketsTable {
  id: Generated<number>
  integration_id: number
  dedup_key: string
  external_id: string
  external_url: string | null
  /** 'open' | 'fixed' */
  state: string
  updated_at: string
}
/** Migration 026: instance administrators, disabled users, and why Ward paused a schedule. */
export interface UsersTable {
  /** 1: may list, disable and enable users, and read every workspace and the whole audit log. */
  is_admin: Generated<number>
  /** When an admin disabled the user (keys and sessions refused); null: enabled. */
  disabled_at: string | null
}
export interface SchedulesTable {
  /** Set when Ward paused the schedule itself (its creator can no longer start scans here); null otherwise. */
  paused_reason: string | null
}

/** Saved scan settings (migration 027): one tool's parameters under a name, credentials sealed. */
export interface ScanSettingsTable {
  id: Generated<number>
  workspace_id: number
  user_id: number
  name: string
  tool_id: number
  /** JSON; SecretParam members sealed. */
  tool_params: string
  max_scan_time: number
  created_at: string
  updated_at: string
}
/** Single sign-on (migration 025): provider accounts of users, and memberships the group mapping granted. */
export interface UserIdentitiesTable {
  issuer: string
  subject: string
  user_id: number
  created_at: string
  last_sign_in_at: string
}
export interface SsoMembershipsTable {
  workspace_id: number
  user_id: number
  granted_at: string
}

/** Writes to a workspace's findings, counted by triggers (migration 031): the version of its findings lists. */
export interface FindingsChangesTable {
  workspace_id: number
  weight: number | string
}

/** Every table, by name: the one list Kysely types queries by (the interfaces above say which migration added what). */
export interface Database {
  users: UsersTable
  api_keys: ApiKeysTable
  workspaces: WorkspacesTable
  targets: TargetsTable
  scans: ScansTable
  tests: TestsTable
  findings: FindingsTable
  scan_logs: ScanLogsTable
  vpn_profiles: VpnProfilesTable
  callback_deliveries: CallbackDeliveriesTable
  callback_attempts: CallbackAttemptsTable
  callback_bodies: CallbackBodiesTable
  finding_history: FindingHistoryTable
  kev_cves: KevCvesTable
  cves: CvesTable
  cve_products: CveProductsTable
  epss_scores: EpssScoresTable
  rate_limits: RateLimitsTable
  secret_key_check: SecretKeyCheckTable
  scan_secrets: ScanSecretsTable
  web_sessions: WebSessionsTable
  schedules: SchedulesTable
  schedule_runs: ScheduleRunsTable
  finding_groups: FindingGroupsTable
  templates: TemplatesTable
  workspace_members: WorkspaceMembersTable
  workspace_invitations: WorkspaceInvitationsTable
  audit_log: AuditLogTable
  integrations: IntegrationsTable
  integration_deliveries: IntegrationDeliveriesTable
  integration_attempts: IntegrationAttemptsTable
  integration_tickets: IntegrationTicketsTable
  scan_settings: ScanSettingsTable
  user_identities: UserIdentitiesTable
  sso_memberships: SsoMembershipsTable
  findings_changes: FindingsChangesTable
}

export type UserRow = Selectable<UsersTable>
export type WorkspaceRow = Selectable<WorkspacesTable>
export type TargetRow = Selectable<TargetsTable>
export type ScanRow = Selectable<ScansTable>
export type NewScan = Insertable<ScansTable>
export type ScanUpdate = Updateable<ScansTable>
export type TestRow = Selectable<TestsTable>
export type FindingRow = Selectable<FindingsTable>
export type NewFinding = Insertable<FindingsTable>
export type VpnProfileRow = Selectable<VpnProfilesTable>
export type CallbackDeliveryRow = Selectable<CallbackDeliveriesTable>
export type CallbackAttemptRow = Selectable<CallbackAttemptsTable>
export type FindingHistoryRow = Selectable<FindingHistoryTable>
export type ScheduleRow = Selectable<SchedulesTable>
export type ScheduleRunRow = Selectable<ScheduleRunsTable>
export type FindingGroupRow = Selectable<FindingGroupsTable>
export type TemplateRow = Selectable<TemplatesTable>
export type IntegrationRow = Selectable<IntegrationsTable>
export type IntegrationDeliveryRow = Selectable<IntegrationDeliveriesTable>
export type IntegrationAttemptRow = Selectable<IntegrationAttemptsTable>
export type ScanSettingsRow = Selectable<ScanSettingsTable>
