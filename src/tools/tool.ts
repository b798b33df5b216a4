// The Tool contract: what the engine needs from a scanning tool, and what a tool gets to work with.
import type { Static, TSchema } from '@sinclair/typebox'
import type { Check, Risk } from '../checks/check.js'
import type { Evidence } from '../domain/evidence.js'
import type { Egress } from '../engine/net/egress.js'

export type TargetType = 'hostname' | 'ip_address' | 'url'
export type RedirectLevel = 'none' | 'check_accessibility' | 'same_host' | 'same_domain' | 'allow_all'

export interface ScanTarget {
  id: number
  name: string
  type: TargetType
}

export interface FindingInput {
  check: Check
  /** Specific detail of this occurrence, appended to the check's description. */
  detail?: string
  evidence?: Evidence
  port?: number | null
  protocol?: 'tcp' | 'udp' | null
  service?: string | null
  /** Affected URL; part of the finding's identity (normalised). */
  url?: string | null
  /** Non-URL location that distinguishes occurrences (a hostname, a cipher, a cookie name...). */
  location?: string | null
  /** CVE ids of this occurrence, added to the check's own. */
  cve?: string[]
  /** The tool proved it (an active check got a proof) rather than inferring it. */
  confirmed?: boolean
  /** Overrides the check's risk (e.g. CVSS-based for version matches). */
  risk?: Risk
  /** Overrides the check's name (e.g. "Apache httpd 2.4.49: path traversal"). */
  name?: string
}

export interface TestHandle {
  /** Attach a finding to this test (the test's result becomes `failed`). */
  finding(f: FindingInput): Promise<void>
  /** The test completed: `failed` if it has findings, else `passed`. */
  done(): Promise<void>
  /** The test could not complete. */
  error(message: string): Promise<void>
  /** The test was not applicable. */
  skip(reason: string): Promise<void>
}

export interface ScanContext<P = unknown> {
  scanId: number
  target: ScanTarget
  params: P
  options: { scanOriginalUrl: boolean; redirectLevel: RedirectLevel }
  /** Aborted on stop, max_scan_time, the hard limit and shutdown; `signal.reason` says which. */
  signal: AbortSignal
  /** Every connection goes through here: direct, or through the scan's VPN profile. */
  net: Egress
  /** Record a test (one check the tool performs). */
  test(name: string, description: string): Promise<TestHandle>
  /** Report progress; the engine turns it into a percentage and throttles writes. */
  progress(done: number, total: number): void
  /** One raw output line. */
  log(line: string): void
  /** Set a member of output_data next to `findings` (`ports`, `urls`, `certificates`, ...). */
  output(member: string, value: unknown): void
}

export interface Tool<S extends TSchema = TSchema> {
  /** The public tool_id (decisions.md). */
  id: number
  name: string
  /** TypeBox schema of tool_params; defaults live here. Validated before a scan is queued. */
  params: S
  /** Rules the schema cannot say (a port range within 1..65535): the problem, or undefined. Run before queueing. */
  validateParams?: (params: Static<S>) => string | undefined
  supportsMaxScanTime: boolean
  /** Traffic the tool needs; an egress that cannot carry it ends the scan `failed to start`. */
  needs: { udp?: boolean }
  /** Whether a scan whose worker died may simply be started again. */
  restartable: boolean
  run(ctx: ScanContext<Static<S>>): Promise<void>
}

export const defineTool = <S extends TSchema>(tool: Tool<S>): Tool<S> => tool
