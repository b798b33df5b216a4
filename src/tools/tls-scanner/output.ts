// output_data of the SSL/TLS Scanner: `protocols` (accepted versions and their suites) and `certificates`.
import type { ScanContext } from '../../toolkit/tool.js'
import type { TlsReport } from '../lib/tls/report.js'

export function outputReport(ctx: Pick<ScanContext, 'output'>, report: TlsReport): void {
  ctx.output(
    'protocols',
    report.protocols.map((p) => ({
      name: p.name,
      accepted: p.accepted,
      ciphers: p.ciphers.map((c) => ({
        name: c.name,
        ...(c.bits !== undefined ? { bits: c.bits } : {}),
        weak: c.weak,
        ...(c.reason ? { reason: c.reason } : {}),
      })),
    })),
  )
  ctx.output('certificates', report.certificates)
}
