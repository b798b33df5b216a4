// Tool 170, Website Scanner: light (passive) and deep (crawl + active injection checks) web scans.
import { defineTool } from '../../toolkit/tool.js'
import { websiteScannerManifest } from './manifest.js'
import { websiteParams } from './params.js'
import { runWebsiteScan } from './scan.js'

export const websiteScanner = defineTool(websiteScannerManifest, runWebsiteScan)

export { websiteScannerChecks } from './checks.js'
