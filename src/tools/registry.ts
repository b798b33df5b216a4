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
import { REFUSED_TOOLS, refusedTool } from './refused.js'

/** The public tools, whatever the configuration. */
export const TOOL_MANIFESTS: readonly ToolManifest<any>[] = [
  subdomainFinderManifest,
  portScannerManifest,
  udpScannerManifest,
  urlFuzzerManifest,
  websiteScannerManifest,
  netvulnManifest,
  tlsScannerManifest,
]

/** Every manifest in this build, the diagnostic tool's included (for catalogue tests). */
export const ALL_MANIFESTS: readonly ToolManifest<any>[] = [...TOOL_MANIFESTS, diagnosticManifest]

export interface CatalogueOptions {
  /** The diagnostic tool exercises the engine in tests and demos; never available by default. */
  diagnostic: boolean
}

/** The catalogue a Ward process offers: the public tools, and the diagnostic tool when enabled. */
export function createToolCatalogue(o: CatalogueOptions): ToolCatalogue {
  const list = o.diagnostic ? ALL_MANIFESTS : TOOL_MANIFESTS
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
  [...TOOL_MANIFESTS].sort((a, b) => a.id - b.id).map((t) => `${t.id} ${t.name}`).join(', ') +
  '. Refused with a 400 that says why: ' +
  REFUSED_TOOLS.map((t) => `${t.id} ${t.name}`).join(', ') +
  '.'
