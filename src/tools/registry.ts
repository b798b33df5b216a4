// The tools Ward ships, by public tool_id (decisions.md). The engine and the API read only this map.
import type { Tool } from '../toolkit/tool.js'
import { diagnosticTool } from './diagnostic/index.js'
import { websiteScanner } from './website-scanner/index.js'
import { udpScanner } from './udp-scanner/index.js'
import { subdomainFinder } from './subdomain-finder/index.js'
import { urlFuzzer } from './url-fuzzer/index.js'
import { tlsScanner } from './tls-scanner/index.js'
import { portScanner } from './port-scanner/index.js'
import { networkVulnScanner } from './netvuln/index.js'

const tools: Tool<any>[] = [subdomainFinder, portScanner, udpScanner, urlFuzzer, websiteScanner, networkVulnScanner, tlsScanner]

const TOOLS: ReadonlyMap<number, Tool<any>> = new Map(tools.map((t) => [t.id, t]))

// The diagnostic tool exercises the engine in tests and demos; never available by default.
const diagnosticEnabled = () => process.env.WARD_ENABLE_DIAGNOSTIC_TOOL === '1'

export const knownToolIds = () => [...TOOLS.keys(), ...(diagnosticEnabled() ? [diagnosticTool.id] : [])].sort((a, b) => a - b)
export const getTool = (id: number): Tool<any> | undefined => TOOLS.get(id) ?? (diagnosticEnabled() && id === diagnosticTool.id ? diagnosticTool : undefined)
export const allTools = (): Tool<any>[] => [...TOOLS.values()]
