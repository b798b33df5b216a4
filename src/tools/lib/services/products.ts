// The one product vocabulary: which names (in service detection results, banners, Server and
// X-Powered-By headers, generator tags) mean which product, and which CPE names NVD gives it. The
// version catalogue (lib/versions) keys its families by these products; service detection's display
// names map onto them here.

export interface ProductInfo {
  /** How findings and outputs name the product. */
  label: string
  /** Names that mean this product, compared lower-case with letters and digits only ("Exim smtpd" → "eximsmtpd"). */
  aliases: readonly string[]
  /** The text before the version where it appears inside a longer banner ("OpenSSL/1.0.1f" in a Server header). */
  versionAfter?: RegExp
  /** The CPE vendor:product pairs NVD files it under, for imported CVEs ('apache:http_server'). */
  cpe: readonly string[]
}

export const PRODUCTS = {
  openssh: { label: 'OpenSSH', aliases: ['openssh'], versionAfter: /\bOpenSSH[_-]/i, cpe: ['openbsd:openssh'] },
  dropbear: {
    label: 'Dropbear SSH',
    aliases: ['dropbear', 'dropbearsshd'],
    versionAfter: /\bdropbear[_-]/i,
    cpe: ['dropbear_ssh_project:dropbear_ssh'],
  },
  'apache-httpd': {
    label: 'Apache httpd',
    aliases: ['apache', 'apachehttpd', 'apachehttpserver', 'httpd'],
    versionAfter: /\bApache\//i,
    cpe: ['apache:http_server'],
  },
  nginx: { label: 'nginx', aliases: ['nginx'], versionAfter: /\bnginx\//i, cpe: ['f5:nginx', 'nginx:nginx'] },
  'microsoft-iis': {
    label: 'Microsoft IIS',
    aliases: ['microsoftiis', 'microsoftiishttpd'],
    versionAfter: /\bMicrosoft-IIS\//i,
    cpe: ['microsoft:internet_information_services'],
  },
  jetty: { label: 'Jetty', aliases: ['jetty', 'eclipsejetty', 'jettyhttpd'], versionAfter: /\bJetty\(/i, cpe: ['eclipse:jetty'] },
  tomcat: {
    label: 'Apache Tomcat',
    aliases: ['tomcat', 'apachetomcat', 'apachecoyote'],
    versionAfter: /\bApache Tomcat\//i,
    cpe: ['apache:tomcat'],
  },
  werkzeug: { label: 'Werkzeug', aliases: ['werkzeug', 'werkzeughttpd'], versionAfter: /\bWerkzeug\//i, cpe: ['palletsprojects:werkzeug'] },
  php: { label: 'PHP', aliases: ['php'], versionAfter: /\bPHP\//i, cpe: ['php:php'] },
  openssl: { label: 'OpenSSL', aliases: ['openssl'], versionAfter: /\bOpenSSL\//i, cpe: ['openssl:openssl'] },
  proftpd: { label: 'ProFTPD', aliases: ['proftpd'], versionAfter: /\bProFTPD /i, cpe: ['proftpd:proftpd'] },
  vsftpd: { label: 'vsftpd', aliases: ['vsftpd'], versionAfter: /\bvsFTPd /i, cpe: ['beasts:vsftpd'] },
  exim: { label: 'Exim', aliases: ['exim', 'eximsmtpd'], versionAfter: /\bExim /i, cpe: ['exim:exim'] },
  postfix: { label: 'Postfix', aliases: ['postfix', 'postfixsmtpd'], cpe: ['postfix:postfix'] },
  dovecot: { label: 'Dovecot', aliases: ['dovecot', 'dovecotpop3d', 'dovecotimapd'], cpe: ['dovecot:dovecot'] },
  mysql: { label: 'MySQL', aliases: ['mysql', 'mysqlserver'], cpe: ['oracle:mysql'] },
  mariadb: { label: 'MariaDB', aliases: ['mariadb'], cpe: ['mariadb:mariadb'] },
  postgresql: { label: 'PostgreSQL', aliases: ['postgresql', 'postgres', 'postgresqldb'], cpe: ['postgresql:postgresql'] },
  redis: { label: 'Redis', aliases: ['redis', 'rediskeyvaluestore'], versionAfter: /\bredis_version:/i, cpe: ['redis:redis'] },
  memcached: { label: 'memcached', aliases: ['memcached'], cpe: ['memcached:memcached'] },
  mongodb: { label: 'MongoDB', aliases: ['mongodb', 'mongod'], cpe: ['mongodb:mongodb'] },
  elasticsearch: { label: 'Elasticsearch', aliases: ['elasticsearch', 'elasticsearchrestapi'], cpe: ['elastic:elasticsearch'] },
  bind: { label: 'ISC BIND', aliases: ['bind', 'iscbind', 'named'], cpe: ['isc:bind'] },
  samba: { label: 'Samba', aliases: ['samba', 'sambasmbd'], cpe: ['samba:samba'] },
  wordpress: { label: 'WordPress', aliases: ['wordpress'], cpe: ['wordpress:wordpress'] },
  drupal: { label: 'Drupal', aliases: ['drupal'], cpe: ['drupal:drupal'] },
  sharepoint: {
    label: 'Microsoft SharePoint',
    aliases: ['sharepoint', 'microsoftsharepoint', 'microsoftsharepointserver'],
    cpe: ['microsoft:sharepoint_server', 'microsoft:sharepoint_enterprise_server', 'microsoft:sharepoint_foundation'],
  },
  joomla: { label: 'Joomla', aliases: ['joomla'], cpe: ['joomla:joomla!'] },
  jquery: { label: 'jQuery', aliases: ['jquery'], cpe: ['jquery:jquery'] },
  'jquery-ui': { label: 'jQuery UI', aliases: ['jqueryui'], cpe: ['jqueryui:jquery_ui', 'jquery:jquery_ui'] },
  bootstrap: { label: 'Bootstrap', aliases: ['bootstrap', 'twitterbootstrap'], cpe: ['getbootstrap:bootstrap'] },
  angularjs: { label: 'AngularJS', aliases: ['angularjs'], cpe: ['angularjs:angular.js'] },
  vue: { label: 'Vue.js', aliases: ['vuejs', 'vue'], cpe: ['vuejs:vue.js'] },
  react: { label: 'React', aliases: ['react', 'reactdom'], cpe: ['facebook:react'] },
  lodash: { label: 'Lodash', aliases: ['lodash'], cpe: ['lodash:lodash'] },
  moment: { label: 'Moment.js', aliases: ['momentjs', 'moment'], cpe: ['momentjs:moment'] },
  handlebars: { label: 'Handlebars', aliases: ['handlebars', 'handlebarsjs'], cpe: ['handlebarsjs:handlebars'] },
  dompurify: { label: 'DOMPurify', aliases: ['dompurify'], cpe: ['cure53:dompurify'] },
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

/**
 * The CPE 2.2 URI NVD files a product under, with the version when known: "cpe:/a:openbsd:openssh:8.9p1".
 * null for products the vocabulary does not know.
 */
export function cpeOf(product: string | null | undefined, version: string | null | undefined): string | null {
  const key = productKey(product)
  if (!key) return null
  const info: ProductInfo = PRODUCTS[key]
  const [vendorProduct] = info.cpe
  if (!vendorProduct) return null
  return `cpe:/a:${vendorProduct}${version ? `:${version.toLowerCase().replace(/[^a-z0-9._~-]/g, '_')}` : ''}`
}
