// Banner → (product, version) facts, for the version → CVE step. Pure; complements detectService
// with the products of the vocabulary that say where their version sits in a longer banner
// (OpenSSL in a Server header, redis_version in an INFO reply).
import { PRODUCTS, productKey, type ProductInfo, type ProductKey } from '../services/products.js'

export type ProductVersion = { product: ProductKey; version: string; source: string }

const VERSION = String.raw`(\d+(?:\.\d+)+(?:[a-z]+\d*)?(?:-(?:alpha|beta|rc)\d*)?)`

/** Patterns looked for anywhere in a banner, header or INFO reply: the vocabulary's `versionAfter`. */
const PATTERNS: ReadonlyArray<{ product: ProductKey; re: RegExp }> = (Object.entries(PRODUCTS) as [ProductKey, ProductInfo][]).flatMap(
  ([product, p]) => (p.versionAfter ? [{ product, re: new RegExp(p.versionAfter.source + VERSION, 'i') }] : []),
)

/** Every product named with a version in this text (one banner may name several). */
export function productsInBanner(text: string | null | undefined, source = 'banner'): ProductVersion[] {
  if (!text) return []
  const out: ProductVersion[] = []
  for (const { product, re } of PATTERNS) {
    const m = re.exec(text)
    if (m) out.push({ product, version: m[1]!, source })
  }
  return out
}

/** detectService's product names → vocabulary products. */
export function productFromName(name: string | null | undefined): ProductKey | null {
  return productKey(name)
}

/** Unique by product (first source wins). */
export function uniqueProducts(list: ProductVersion[]): ProductVersion[] {
  const seen = new Set<ProductKey>()
  return list.filter((p) => (seen.has(p.product) ? false : (seen.add(p.product), true)))
}

/** The product versions a detected service names: detection's product and version, then the products in its banner. */
export function productsOfService(d: { product: string | null; version: string | null; banner: string | null }): ProductVersion[] {
  const out: ProductVersion[] = []
  const named = productFromName(d.product)
  if (named && d.version) out.push({ product: named, version: d.version, source: 'service detection' })
  out.push(...productsInBanner(d.banner, 'banner'))
  return out
}
