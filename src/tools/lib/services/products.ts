// The one product vocabulary: which names (in service detection results, banners, Server and
// X-Powered-By headers, generator tags) mean which product. The version → CVE tables (lib/versions)
// key their entries by these products; service detection's display names map onto them here.

export interface ProductInfo {
  /** How findings and outputs name the product. */
  label: string
  /** Names that mean this product, compared lower-case with letters and digits only ("Exim smtpd" → "eximsmtpd"). */
  aliases: readonly string[]
  /** The text before the version where it appears inside a longer banner ("OpenSSL/1.0.1f" in a Server header). */
  versionAfter?: RegExp
}

export const PRODUCTS = {
  openssh: { label: 'OpenSSH', aliases: ['openssh'], versionAfter: /\bOpenSSH[_-]/i },
  'apache-httpd': { label: 'Apache httpd', aliases: ['apache', 'apachehttpd', 'apachehttpserver', 'httpd'], versionAfter: /\bApache\//i },
  nginx: { label: 'nginx', aliases: ['nginx'], versionAfter: /\bnginx\//i },
  proftpd: { label: 'ProFTPD', aliases: ['proftpd'], versionAfter: /\bProFTPD /i },
  vsftpd: { label: 'vsftpd', aliases: ['vsftpd'], versionAfter: /\bvsFTPd /i },
  exim: { label: 'Exim', aliases: ['exim', 'eximsmtpd'], versionAfter: /\bExim /i },
  redis: { label: 'Redis', aliases: ['redis', 'rediskeyvaluestore'], versionAfter: /\bredis_version:/i },
  openssl: { label: 'OpenSSL', aliases: ['openssl'], versionAfter: /\bOpenSSL\//i },
  // Web components: named by web servers and frameworks, matched by the website scanner's table.
  php: { label: 'PHP', aliases: ['php'] },
  'microsoft-iis': { label: 'Microsoft IIS', aliases: ['microsoftiis'] },
} as const satisfies Record<string, ProductInfo>

export type ProductKey = keyof typeof PRODUCTS

const aliasKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '')

const BY_ALIAS: ReadonlyMap<string, ProductKey> = new Map(
  (Object.entries(PRODUCTS) as [ProductKey, ProductInfo][]).flatMap(([key, p]) => p.aliases.map((a) => [a, key] as const)),
)

/** The product a name means, or null when the vocabulary does not know it. */
export function productKey(name: string | null | undefined): ProductKey | null {
  if (!name) return null
  return BY_ALIAS.get(aliasKey(name)) ?? null
}
