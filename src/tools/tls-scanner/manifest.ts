// The SSL/TLS Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { TlsScannerParams } from './params.js'
import { tlsScannerChecks } from './checks.js'

export const tlsScannerManifest: ToolManifest<typeof TlsScannerParams> = defineManifest({
  id: 450,
  name: 'SSL/TLS Scanner',
  description:
    'Analyses one TLS service: protocol versions, cipher suites, certificate chain, HSTS, compression, renegotiation and Heartbleed.',
  params: TlsScannerParams,
  checks: tlsScannerChecks,
  supportsMaxScanTime: false,
  load: async () => (await import('./run.js')).tlsScanner.run,
})
