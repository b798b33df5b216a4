// The Tool contract: what the engine needs from a scanning tool, and what a tool gets to work with.
import type { PortCoverage } from './coverage.js'
import type { Static, TSchema } from '@sinclair/typebox'
import type { Check } from './check.js'
import type { Hit } from './hit.js'
import type { Egress } from './egress.js'
import type { VulnerabilityLookup } from './vulns.js'
import type { TemplateSource } from './templates.js'

export type TargetType = 'hostname' | 'ip_address' | 'url'
export type RedirectLevel = 'none' | 'check_accessibility' | 'same_host' | 'same_domain' | 'allow_all'

export interface ScanTarget {
  id: number
  name: string
  type: TargetType
}

/** What a test attaches as a finding: a detector's hit (toolkit/hit.ts). */
export type FindingInput = Hit

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

/** Service-wide settings a tool may need (from the configuration, handed over by the engine). */
export interface ScanSettings {
  /** Default DNS server ('ip[:port]') of tools that resolve names themselves; null = /etc/resolv.conf. */
  dnsResolver: string | null
}

export interface ScanContext<P = unknown> {
  scanId: number
  target: ScanTarget
  params: P
  options: { scanOriginalUrl: boolean; redirectLevel: RedirectLevel }
  settings: ScanSettings
  /** Aborted on stop, max_scan_time, the hard limit and shutdown; `signal.reason` says which. */
  signal: AbortSignal
  /** When `signal` will abort for time at the latest (epoch ms: max_scan_time or the hard limit); absent when unbounded. */
  deadline?: number
  /** Every connection goes through here: direct, or through the scan's VPN profile. */
  net: Egress
  /** Imported CVE knowledge (NVD feeds); absent where none is offered (tool tests without a database). */
  vulns?: VulnerabilityLookup
  /** Stored check templates (nuclei YAML); absent where none are offered (tool tests without a database). */
  templates?: TemplateSource
  /**
   * Names Ward knows in the scan's workspace (target names as stored: hostnames, IPs, URLs; hostnames
   * the Subdomain Finder found), at most `limit`; absent where there is no database (tool tests).
   */
  knownNames?(limit: number): Promise<string[]>
  /** Record a test (one check the tool performs). */
  test(name: string, description: string): Promise<TestHandle>
  /** Report progress; the engine turns it into a percentage and throttles writes. */
  progress(done: number, total: number): void
  /** One raw output line. */
  log(line: string): void
  /** Set a member of output_data next to `findings` (`ports`, `urls`, `certificates`, ...). */
  output(member: string, value: unknown): void
  /**
   * Ports the tool probed (and found open): a finding on a port is closed only by a scan that
   * probed that port (decisions.md, "Life cycle"). HTTP answers are recorded by the egress itself.
   */
  cover(ports: PortCoverage): void
  /**
   * Keeps a secret the scan found (a guessed password) sealed beside the scan, never shown anywhere;
   * `label` says what it opens ("ssh 10.0.0.5:22 root") and must not hold the secret.
   */
  keepSecret(label: string, secret: string): Promise<void>
}

/** A tool's run: scans one target through `ctx`, recording tests and findings as it goes. */
export type ToolRun<P = unknown> = (ctx: ScanContext<P>) => Promise<void>

/**
 * What Ward knows about a tool without loading its scanner: the API validates tool_params and lists
 * tools from this alone; only a worker calls `load()`, which imports the scanning code.
 */
export interface ToolManifest<S extends TSchema = TSchema> {
  /** The public tool_id (decisions.md). */
  id: number
  name: string
  /** One sentence: what the tool looks at and what it reports. */
  description: string
  /** TypeBox schema of tool_params; defaults live here. Validated before a scan is queued. */
  params: S
  /** Every check (vuln_id) the tool can report. */
  checks: readonly Check[]
  /** Rules the schema cannot say (a port range within 1..65535): the problem, or undefined. Run before queueing. */
  validateParams?: (params: Static<S>) => string | undefined
  supportsMaxScanTime: boolean
  /** Traffic the tool needs; an egress that cannot carry it ends the scan `failed to start`. */
  needs: { udp?: boolean }
  /** Whether a scan whose worker died may simply be started again. */
  restartable: boolean
  /** Imports the scanner (lazily, so reading manifests stays cheap). */
  load(): Promise<ToolRun<Static<S>>>
}

/** The manifest members most tools share: bounded by max_scan_time, TCP only, safe to restart. */
type ManifestDefaults = 'supportsMaxScanTime' | 'needs' | 'restartable'

/** A tool's manifest, with `supportsMaxScanTime`, `needs` and `restartable` stated only where a tool differs. */
export const defineManifest = <S extends TSchema>(
  m: Omit<ToolManifest<S>, ManifestDefaults> & Partial<Pick<ToolManifest<S>, ManifestDefaults>>,
): ToolManifest<S> => ({ supportsMaxScanTime: true, needs: {}, restartable: true, ...m })

/** A loaded tool: its manifest and its run, as tool tests and the worker use it. */
export interface Tool<S extends TSchema = TSchema> extends ToolManifest<S> {
  run: ToolRun<Static<S>>
}

export const defineTool = <S extends TSchema>(manifest: ToolManifest<S>, run: ToolRun<Static<S>>): Tool<S> => ({ ...manifest, run })

/** The tools a Ward offers, by public tool_id: what the API and the worker are handed. */
export interface ToolCatalogue {
  get(id: number): ToolManifest | undefined
  /** Known tool ids, ascending. */
  ids(): number[]
  all(): readonly ToolManifest[]
  /** Why Ward does not run a tool id the field's client knows (its name and the reason), or undefined. */
  refusal?(id: number): { name: string; reason: string } | undefined
}
