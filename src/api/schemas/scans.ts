import { Type } from '@sinclair/typebox'
import { Id, Nullable, Pagination } from './common.js'
import { SCAN_STATES } from '../../domain/scan-state.js'
import { toolIdDescription } from '../../tools/registry.js'

export const ScanState = Type.Union(SCAN_STATES.map((s) => Type.Literal(s)))
export const RedirectLevel = Type.Union(
  ['none', 'check_accessibility', 'same_host', 'same_domain', 'allow_all'].map((s) => Type.Literal(s)),
)

export const ResultSummary = Type.Object({
  text: Type.String(),
  critical: Type.Integer(),
  high: Type.Integer(),
  medium: Type.Integer(),
  low: Type.Integer(),
  info: Type.Integer(),
})

export const Scan = Type.Object({
  id: Type.Integer(),
  tool_id: Type.Integer(),
  target_id: Type.Integer(),
  workspace_id: Type.Integer(),
  status_name: ScanState,
  vpn_scan: Type.Boolean(),
  progress: Type.Integer({ description: 'percent 0..100' }),
  result_summary: ResultSummary,
  start_time: Nullable(Type.String({ description: 'ISO 8601 UTC, seconds' })),
  end_time: Nullable(Type.String()),
  duration: Type.Integer({ description: 'whole seconds (running scans: so far)' }),
  num_tests: Type.Integer(),
  num_finished_tests: Type.Integer(),
  status_message: Type.String({
    description:
      'why the scan is in its state; "" when there is nothing to say. ' +
      'A waiting scan says why it waits and its place in the queue ("waiting for a worker slot: 3rd in queue")',
  }),
  vpn_profile_uuid: Nullable(Type.String({ description: 'the VPN profile the scan goes through; null when none' })),
  scan_original_url: Type.Boolean({ description: 'scan the URL as given, without following redirects first' }),
  eta_seconds: Nullable(
    Type.Integer({
      minimum: 0,
      description: 'estimated seconds until the scan ends: null while waiting or until the running scan can be estimated; 0 once ended',
    }),
  ),
})

export const ReportCallback = Type.Object(
  {
    url: Type.String({ maxLength: 2048 }),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf')])),
    secret: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    only_on_change: Type.Optional(
      Type.Boolean({
        description:
          'deliver only when GET /scans/{id}/changes finds something changed since the previous scan; the changes are in the payload',
      }),
    ),
  },
  { additionalProperties: false },
)

export const FromScanId = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: 2147483647,
    description:
      'extension: start from the settings of this earlier scan (tool, target, tool_params, max_scan_time, VPN profile, URL options); ' +
      'fields given win; the report callback is not carried over',
  }),
)

export const SettingsId = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: 2147483647,
    description:
      'extension: start from saved scan settings (GET /scan-settings): their tool, tool_params and max_scan_time; fields given win; not with from_scan_id',
  }),
)

export const CreateScanBody = Type.Object({
  tool_id: Type.Optional(Type.Integer({ description: `${toolIdDescription()}; required unless from_scan_id or settings_id is given` })),
  from_scan_id: FromScanId,
  settings_id: SettingsId,
  target_id: Type.Optional(Id),
  target_name: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  workspace_id: Type.Optional(Nullable(Id)),
  vpn_profile_uuid: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  // No schema default: "not given" must stay visible, so from_scan_id can tell it from a value (1440 when neither gives one).
  max_scan_time: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1440, description: 'minutes; default 1440 (or the scan of from_scan_id)' }),
  ),
  report_callback: Type.Optional(Nullable(ReportCallback)),
  scan_original_url: Type.Optional(Type.Boolean({ description: 'default false (or the scan of from_scan_id)' })),
  redirect_level: Type.Optional(RedirectLevel),
  tool_params: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
})

export const ScansQuery = Type.Object({
  tool_id: Type.Optional(Id),
  workspace_id: Type.Optional(Id),
  target_id: Type.Optional(Id),
  status: Type.Optional(ScanState),
  'start_time[from]': Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 time, inclusive' })),
  'start_time[to]': Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 time, inclusive' })),
  ...Pagination,
})

export const TestRecord = Type.Object({
  id: Type.Integer(),
  scan_id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  status: Type.Union(['running', 'finished', 'skipped', 'error'].map((s) => Type.Literal(s))),
  result: Nullable(Type.Union(['passed', 'failed', 'error'].map((s) => Type.Literal(s)))),
  finding_ids: Type.Array(Type.Integer()),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String()),
})

export const TestsQuery = Type.Object({
  resource_type: Type.Optional(Type.Union([Type.Literal('scan'), Type.Literal('finding')])),
  resource_id: Type.Optional(Id),
})

const FindingRef = Type.Object({
  id: Type.Integer(),
  vuln_id: Type.String(),
  name: Type.String(),
  risk_level: Type.Integer(),
  port: Nullable(Type.Integer()),
  protocol: Nullable(Type.String()),
  service: Nullable(Type.String()),
  location: Nullable(Type.String()),
})
const PortFacts = Type.Object({
  port: Type.Integer(),
  protocol: Type.String(),
  service: Nullable(Type.String()),
  product: Nullable(Type.String()),
  version: Nullable(Type.String()),
})
const Subdomain = Type.Object({ hostname: Type.String(), ip_address: Nullable(Type.String()) })
const CertFacts = Nullable(
  Type.Object({ subject: Type.String(), issuer: Type.String(), valid_to: Type.String(), fingerprint_sha256: Type.String() }),
)

export const ChangesQuery = Type.Object({
  against: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'compare with this scan instead of the previous complete scan of the same target and tool',
    }),
  ),
})

export const ScanChanges = Type.Object({
  scan_id: Type.Integer(),
  against_scan_id: Nullable(Type.Integer({ description: 'null: no earlier complete scan of this target and tool, so everything is new' })),
  against_end_time: Nullable(Type.String()),
  complete: Type.Boolean({
    description: 'false for a partial scan (stopped, timed out, cut short): nothing is then reported gone, closed or removed',
  }),
  changed: Type.Boolean(),
  findings: Type.Object({
    new: Type.Array(FindingRef),
    gone: Type.Array(FindingRef, { description: 'fixed: in the earlier scan, not in this one' }),
    still: Type.Array(FindingRef),
    not_covered: Type.Array(FindingRef, {
      description:
        'in the earlier scan, at a location this scan did not look at ' +
        '(a port not probed, an origin that did not answer, a test that could not run): neither gone nor still',
    }),
  }),
  surface: Type.Object({
    ports: Type.Object({
      opened: Type.Array(PortFacts),
      closed: Type.Array(PortFacts),
      changed: Type.Array(Type.Object({ port: Type.Integer(), protocol: Type.String(), before: PortFacts, after: PortFacts })),
    }),
    subdomains: Type.Object({
      added: Type.Array(Subdomain),
      removed: Type.Array(Subdomain),
      address_changed: Type.Array(
        Type.Object({ hostname: Type.String(), before: Nullable(Type.String()), after: Nullable(Type.String()) }),
      ),
    }),
    tls: Type.Object({
      certificate: Nullable(
        Type.Object(
          { before: CertFacts, after: CertFacts },
          { description: 'set when the server certificate changed (fingerprint, issuer, expiry)' },
        ),
      ),
      protocols_added: Type.Array(Type.String()),
      protocols_removed: Type.Array(Type.String()),
      ciphers_added: Type.Array(Type.String({ description: '"<protocol> <cipher>"' })),
      ciphers_removed: Type.Array(Type.String()),
    }),
    urls: Type.Object({ found: Type.Array(Type.String()), gone: Type.Array(Type.String()) }),
  }),
})
