// output_data.services of the Network Vulnerability Scanner: each open port's service, TLS, product,
// version, banner, and every product version seen on it.
import type { ScanContext } from '../../toolkit/tool.js'
import { PRODUCTS } from '../lib/services/products.js'
import { uniqueProducts } from '../lib/versions/fingerprint.js'
import type { PortInfo } from './detect/services.js'

export function outputServices(ctx: Pick<ScanContext, 'output'>, infos: readonly PortInfo[]): void {
  ctx.output(
    'services',
    infos.map((p) => ({
      port: p.port,
      protocol: 'tcp',
      service: p.service,
      tls: p.tls,
      product: p.detected.product,
      version: p.detected.version,
      banner: p.detected.banner,
      products: uniqueProducts(p.products).map((v) => ({ product: PRODUCTS[v.product].label, version: v.version, source: v.source })),
    })),
  )
}
