import { Type } from '@sinclair/typebox'
import { Id, MAX_ID, Nullable, Pagination } from './common.js'

export const Evidence = Nullable(
  Type.Union([
    Type.Object({ type: Type.Literal('text'), data: Type.Object({ text: Type.String() }) }),
    Type.Object({
      type: Type.Literal('table'),
      data: Type.Object({ headers: Type.Array(Type.String()), rows: Type.Array(Type.Array(Type.String())) }),
    }),
  ]),
)

export const FindingStatus = Type.Union(['open', 'fixed', 'accepted', 'false_positive'].map((s) => Type.Literal(s)))

export const Finding = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  test_description: Type.String(),
  test_finished: Type.Boolean(),
  confirmed: Type.Boolean(),
  in_cisa_catalog: Type.Boolean(),
  cve: Type.Array(Type.String()),
  vuln_description: Type.String(),
  vuln_evidence: Evidence,
  risk_description: Type.String(),
  risk_level: Type.Integer({ minimum: 0, maximum: 4, description: '0 info, 1 low, 2 medium, 3 high, 4 critical' }),
  status: FindingStatus,
  recommendation: Type.String(),
  references: Type.Array(Type.String()),
  verified: Type.Boolean(),
  vuln_id: Type.String(),
  owasp: Type.Object({ owasp_2017: Type.String(), owasp_2021: Type.String(), owasp_2025: Type.String() }),
  cwe: Type.String(),
  port: Nullable(Type.Integer()),
  protocol: Nullable(Type.String()),
  service: Nullable(Type.String()),
  url: Nullable(Type.String()),
  scan_id: Type.Integer(),
  target_id: Type.Integer(),
  created_at: Type.String(),
  cvss_score: Nullable(
    Type.Number({ description: 'CVSS base score (v3.1, else v4.0) of the CVEs of a version finding; null for other findings' }),
  ),
  cvss_vector: Nullable(Type.String({ description: "that score's vector, e.g. CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" })),
  epss: Nullable(
    Type.Object({
      score: Type.Number({ description: 'FIRST EPSS probability 0-1 (the highest of the CVEs)' }),
      date: Type.String({ description: 'score date YYYY-MM-DD' }),
    }),
  ),
  first_seen: Type.String({ description: 'when a scan of this target and tool first found this finding (its duplicate group)' }),
  last_seen: Type.String({ description: 'when a scan of this target and tool last found it' }),
  lifecycle: Type.Union([Type.Literal('open'), Type.Literal('fixed')], {
    description: 'fixed: a later complete scan of the same target and tool did not find it',
  }),
  regression: Type.Boolean({ description: 'found again after it had been fixed' }),
})

export const FindingsQuery = Type.Object({
  workspace_id: Type.Optional(Id),
  target_id: Type.Optional(Id),
  task_id: Type.Optional(Id),
  group_duplicates: Type.Optional(Type.Boolean()),
  risk_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
  status: Type.Optional(FindingStatus),
  vuln_id: Type.Optional(Type.String({ maxLength: 200 })),
  lifecycle: Type.Optional(
    Type.Union([Type.Literal('open'), Type.Literal('fixed')], {
      description: "the finding's duplicate group: fixed by a later complete scan of the same target and tool, or open",
    }),
  ),
  regression: Type.Optional(Type.Boolean({ description: 'the duplicate group came back after it had been fixed' })),
  after_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      description:
        'keyset paging: only findings with a smaller id (the list is newest first); pass the last id of the previous page. ' +
        'Deep pages cost what the first does, unlike page (page/limit still apply on top)',
    }),
  ),
  ...Pagination,
})

export const FindingLifecycle = Type.Object({
  first_seen: Type.String({ description: 'when a scan of this target and tool first found this finding (its duplicate group)' }),
  last_seen: Type.String(),
  first_scan_id: Type.Integer(),
  last_scan_id: Type.Integer(),
  state: Type.Union([Type.Literal('open'), Type.Literal('fixed')], {
    description: 'fixed: a later complete scan of the same target and tool did not find it',
  }),
  regression: Type.Boolean({ description: 'found again after it had been fixed' }),
  fixed_at: Nullable(Type.String()),
  fixed_scan_id: Nullable(Type.Integer()),
})
