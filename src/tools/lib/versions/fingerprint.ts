// Banner → (product, version) facts, for the version → CVE step. Pure; complements detectService
// with the products the catalogue knows, including ones hidden in a longer banner (OpenSSL in a Server header).
import type { Product } from './cve-catalogue.js'

export type ProductVersion = { product: Product; version: string; source: string }

const VERSION = String.raw`(\d+(?:\.\d+)+(?:[a-z]+\d*)?(?:-(?:alpha|beta|rc)\d*)?)`

/** Patterns looked for anywhere in a banner, header or INFO reply. */
const PATTERNS: ReadonlyArray<{ product: Product; re: RegExp }> = [
  { product: 'openssh', re: new RegExp(String.raw`\bOpenSSH[_-]` + VERSION, 'i') },
  { product: 'vsftpd', re: new RegExp(String.raw`\bvsFTPd ` + VERSION, 'i') },
  { product: 'proftpd', re: new RegExp(String.raw`\bProFTPD ` + VERSION, 'i') },
  { product: 'exim', re: new RegExp(String.raw`\bExim ` + VERSION, 'i') },
  { product: 'apache-httpd', re: new RegExp(String.raw`\bApache/` + VERSION, 'i') },
  { product: 'nginx', re: new RegExp(String.raw`\bnginx/` + VERSION, 'i') },
  { product: 'openssl', re: new RegExp(String.raw`\bOpenSSL/` + VERSION, 'i') },
  { product: 'redis', re: new RegExp(String.raw`\bredis_version:` + VERSION, 'i') },
]

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

/** detectService's product names → catalogue products (lower-case, letters and digits only). */
const PRODUCT_ALIASES: Readonly<Record<string, Product>> = {
  openssh: 'openssh',
  apache: 'apache-httpd',
  apachehttpd: 'apache-httpd',
  apachehttpserver: 'apache-httpd',
  httpd: 'apache-httpd',
  nginx: 'nginx',
  proftpd: 'proftpd',
  vsftpd: 'vsftpd',
  exim: 'exim',
  eximsmtpd: 'exim',
  redis: 'redis',
  rediskeyvaluestore: 'redis',
  openssl: 'openssl',
}

export function productFromName(name: string | null | undefined): Product | null {
  if (!name) return null
  return PRODUCT_ALIASES[name.toLowerCase().replace(/[^a-z0-9]/g, '')] ?? null
}

/** Unique by product (first source wins). */
export function uniqueProducts(list: ProductVersion[]): ProductVersion[] {
  const seen = new Set<Product>()
  return list.filter((p) => (seen.has(p.product) ? false : (seen.add(p.product), true)))
}
