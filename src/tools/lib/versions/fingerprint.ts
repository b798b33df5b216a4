// Banner → (product, version) facts, for the version → CVE step. Pure; complements detectService
// with the products the catalogue knows, including ones hidden in a longer banner (OpenSSL in a Server header).
import { CATALOGUE_PRODUCTS, type Product } from './cve-catalogue.js'
import { PRODUCTS, productKey } from '../services/products.js'

export type ProductVersion = { product: Product; version: string; source: string }

const VERSION = String.raw`(\d+(?:\.\d+)+(?:[a-z]+\d*)?(?:-(?:alpha|beta|rc)\d*)?)`

/** Patterns looked for anywhere in a banner, header or INFO reply: the vocabulary's, for the catalogue's products. */
const PATTERNS: ReadonlyArray<{ product: Product; re: RegExp }> = CATALOGUE_PRODUCTS.map((product) => {
  const after = PRODUCTS[product].versionAfter
  return { product, re: new RegExp(after.source + VERSION, 'i') }
})

/** Every catalogue product named with a version in this text (one banner may name several). */
export function productsInBanner(text: string | null | undefined, source = 'banner'): ProductVersion[] {
  if (!text) return []
  const out: ProductVersion[] = []
  for (const { product, re } of PATTERNS) {
    const m = re.exec(text)
    if (m) out.push({ product, version: m[1], source })
  }
  return out
}

/** detectService's product names → catalogue products (through the one vocabulary). */
export function productFromName(name: string | null | undefined): Product | null {
  const key = productKey(name)
  return key && (CATALOGUE_PRODUCTS as readonly string[]).includes(key) ? (key as Product) : null
}

/** Unique by product (first source wins). */
export function uniqueProducts(list: ProductVersion[]): ProductVersion[] {
  const seen = new Set<Product>()
  return list.filter((p) => (seen.has(p.product) ? false : (seen.add(p.product), true)))
}
