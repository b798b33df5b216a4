// Tool 170, Website Scanner: light (passive) and deep (crawl + active injection checks) web scans.
import { defineTool } from '../../toolkit/tool.js'
import { websiteParams } from './params.js'
import { runWebsiteScan } from './scan.js'

export const websiteScanner = defineTool({
  id: 170,
  name: 'Website Scanner',
  params: websiteParams,
  supportsMaxScanTime: true,
  needs: {},
  restartable: true,
  run: runWebsiteScan,
})

export { websiteScannerChecks } from './checks.js'
