// The SSL/TLS Scanner reports the shared TLS checks (tools/lib/tls/checks.ts): the same vuln_ids the
// Network Vulnerability Scanner uses on TLS ports, one catalogue for both.
export { tlsChecks as tlsScannerChecks } from '../lib/tls/checks.js'
