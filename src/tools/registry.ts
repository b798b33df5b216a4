// The tools Ward ships, by public tool_id (decisions.md): manifests only. Nothing here imports a
// scanner; a manifest's `load()` does, in the worker that runs the scan.
import type { ToolCatalogue, ToolManifest } from '../toolkit/tool.js'
import { diagnosticManifest } from './diagnostic/manifest.js'
import { websiteScannerManifest } from './website-scanner/manifest.js'
import { udpScannerManifest } from './udp-scanner/manifest.js'
import { subdomainFinderManifest } from './subdomain-finder/manifest.js'
import { urlFuzzerManifest } from './url-fuzzer/manifest.js'
import { tlsScannerManifest } from './tls-scanner/manifest.js'
import { portScannerManifest } from './port-scanner/manifest.js'
import { netvulnManifest } from './netvuln/manifest.js'
import { passwordAuditorManifest } from './password-auditor/manifest.js'
import { websiteReconManifest } from './website-recon/manifest.js'
import { vhostFinderManifest } from './vhost-finder/manifest.js'
import { wordpressScannerManifest } from './wordpress-scanner/manifest.js'
import { drupalScannerManifest } from './drupal-scanner/manifest.js'
import { sharepointScannerManifest } from './sharepoint-scanner/manifest.js'

// Tool ids the field's client knows that Ward does not run (decisions.md, "Tool ids"): a scan asking
// for one is refused with the reason, so a team moving to Ward learns why instead of "unknown tool".
export interface RefusedTool {
  id: number
  name: string
  /** Why Ward does not run it: completes "Ward does not run <name>: ...". */
  reason: string
}

export const REFUSED_TOOLS: readonly RefusedTool[] = [
  {
    id: 390,
    name: 'Domain Finder',
    reason:
      'it needs third-party data sources (WHOIS registries, reverse-WHOIS and passive-DNS services) that Ward does not query; ' +
      'add the domains you own as targets and use the Subdomain Finder (20) on each',
  },
  {
    id: 490,
    name: 'Sniper: exploitation',
    reason:
      'it would run exploits against the target; Ward only detects vulnerabilities (by version and safe probes) and never exploits them',
  },
  {
    id: 520,
    name: 'Cloud Scanner',
    reason:
      'it needs credentials of your cloud accounts (AWS, Azure, GCP) and reads their configuration through ' +
      "the providers' APIs, which Ward does not hold or call",
  },
]

/** The refusal of `id`, or undefined when Ward does not refuse it (it runs it, or does not know it). */
export const refusedTool = (id: number): RefusedTool | undefined => REFUSED_TOOLS.find((t) => t.id === id)

/** The public tools, whatever the configuration. */
// biome-ignore lint/suspicious/noExplicitAny: each manifest has its own params type; callers reach params only through the tool's schema
export const TOOL_MANIFESTS: readonly ToolManifest<any>[] = [
  subdomainFinderManifest,
  portScannerManifest,
  udpScannerManifest,
  urlFuzzerManifest,
  vhostFinderManifest,
  websiteScannerManifest,
  sharepointScannerManifest,
  wordpressScannerManifest,
  drupalScannerManifest,
  websiteReconManifest,
  netvulnManifest,
  passwordAuditorManifest,
  tlsScannerManifest,
]

/** Every manifest in this build, the diagnostic tool's included (for catalogue tests). */
// biome-ignore lint/suspicious/noExplicitAny: as TOOL_MANIFESTS
export const ALL_MANIFESTS: readonly ToolManifest<any>[] = [...TOOL_MANIFESTS, diagnosticManifest]

export interface CatalogueOptions {
  /** The diagnostic tool exercises the engine in tests and demos; never available by default. */
  diagnostic: boolean
}

/** The catalogue a Ward process offers: the public tools, and the diagnostic tool when enabled. */
export function createToolCatalogue(o: CatalogueOptions): ToolCatalogue {
  const list = o.diagnostic ? ALL_MANIFESTS : TOOL_MANIFESTS
  // biome-ignore lint/suspicious/noExplicitAny: as TOOL_MANIFESTS
  const byId: ReadonlyMap<number, ToolManifest<any>> = new Map(list.map((t) => [t.id, t]))
  const ids = [...byId.keys()].sort((a, b) => a - b)
  return {
    get: (id) => byId.get(id),
    ids: () => [...ids],
    all: () => list,
    refusal: (id) => (byId.has(id) ? undefined : refusedTool(id)),
  }
}

/** A tool's display name for reports, whichever tools this process offers. */
export const toolName = (id: number): string => ALL_MANIFESTS.find((t) => t.id === id)?.name ?? `Tool ${id}`

/** What the API document says of tool_id: the public tools by id, and the ids Ward refuses with why. */
export const toolIdDescription = (): string =>
  'The tool to run (GET /tools lists them with their tool_params): ' +
  [...TOOL_MANIFESTS]
    .sort((a, b) => a.id - b.id)
    .map((t) => `${t.id} ${t.name}`)
    .join(', ') +
  '. Refused with a 400 that says why: ' +
  REFUSED_TOOLS.map((t) => `${t.id} ${t.name}`).join(', ') +
  '.'
