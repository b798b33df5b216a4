// The plugins and themes the WordPress Scanner knows: slugs probed actively (`popular`, and `all` for
// the longer list), the latest release when this list was written (November 2025), the NVD CPE for
// imported CVEs and the vulnerabilities Ward ships ranges for (NVD CVSS v3.1 base scores).
import type { KnownComponent } from '../../lib/cms/components.js'

const CRIT = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'

export const POPULAR_PLUGINS: readonly KnownComponent[] = [
  {
    slug: 'contact-form-7', name: 'Contact Form 7', latest: '6.1.3', cpe: 'rocklobster:contact_form_7',
    vulns: [{ cve: 'CVE-2020-35489', title: 'unrestricted file upload (double extension in file names)', versions: '<5.3.2', cvss: 10.0, vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', fixed: '5.3.2' }],
  },
  {
    slug: 'wp-file-manager', name: 'File Manager', latest: '8.0.2', cpe: 'webdesi9:file_manager',
    vulns: [{ cve: 'CVE-2020-25213', title: 'unauthenticated file upload and code execution through elFinder connector', versions: '>=6.0 <6.9', cvss: 9.8, vector: CRIT, fixed: '6.9' }],
  },
  {
    slug: 'duplicator', name: 'Duplicator', latest: '1.5.14', cpe: 'snapcreek:duplicator',
    vulns: [{ cve: 'CVE-2020-11738', title: 'unauthenticated arbitrary file download (path traversal)', versions: '<1.3.28', cvss: 7.5, vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', fixed: '1.3.28' }],
  },
  {
    slug: 'ultimate-member', name: 'Ultimate Member', latest: '2.10.6', cpe: 'ultimatemember:ultimate_member',
    vulns: [{ cve: 'CVE-2023-3460', title: 'unauthenticated privilege escalation to administrator', versions: '<2.6.7', cvss: 9.8, vector: CRIT, fixed: '2.6.7' }],
  },
  {
    slug: 'litespeed-cache', name: 'LiteSpeed Cache', latest: '7.6.2', cpe: 'litespeedtech:litespeed_cache',
    vulns: [{ cve: 'CVE-2024-28000', title: 'unauthenticated privilege escalation (weak role simulation hash)', versions: '>=1.9 <6.4', cvss: 9.8, vector: CRIT, fixed: '6.4' }],
  },
  {
    slug: 'really-simple-ssl', name: 'Really Simple Security', latest: '9.5.3', cpe: 'really-simple-plugins:really_simple_security',
    vulns: [{ cve: 'CVE-2024-10924', title: 'authentication bypass in two-factor REST endpoints', versions: '>=9.0.0 <9.1.2', cvss: 9.8, vector: CRIT, fixed: '9.1.2' }],
  },
  { slug: 'akismet', name: 'Akismet Anti-spam', latest: '5.5', cpe: 'automattic:akismet' },
  { slug: 'wordpress-seo', name: 'Yoast SEO', latest: '26.4', cpe: 'yoast:yoast_seo' },
  { slug: 'elementor', name: 'Elementor', latest: '3.33.2', cpe: 'elementor:website_builder' },
  { slug: 'woocommerce', name: 'WooCommerce', latest: '10.3.5', cpe: 'woocommerce:woocommerce' },
  { slug: 'wpforms-lite', name: 'WPForms Lite', latest: '1.9.8.4', cpe: 'wpforms:wpforms' },
  { slug: 'classic-editor', name: 'Classic Editor', latest: '1.6.7' },
  { slug: 'jetpack', name: 'Jetpack', latest: '15.2', cpe: 'automattic:jetpack' },
  { slug: 'wordfence', name: 'Wordfence Security', latest: '8.1.2', cpe: 'wordfence:wordfence_security' },
  { slug: 'all-in-one-seo-pack', name: 'All in One SEO', latest: '4.9.0', cpe: 'aioseo:all_in_one_seo' },
  { slug: 'wp-super-cache', name: 'WP Super Cache', latest: '3.0.2', cpe: 'automattic:wp_super_cache' },
  { slug: 'w3-total-cache', name: 'W3 Total Cache', latest: '2.8.14', cpe: 'boldgrid:w3_total_cache' },
  { slug: 'updraftplus', name: 'UpdraftPlus', latest: '1.25.9', cpe: 'updraftplus:updraftplus' },
  { slug: 'advanced-custom-fields', name: 'Advanced Custom Fields', latest: '6.6.2', cpe: 'advancedcustomfields:advanced_custom_fields' },
  { slug: 'redirection', name: 'Redirection', latest: '5.5.2', cpe: 'redirection.me:redirection' },
  { slug: 'wp-mail-smtp', name: 'WP Mail SMTP', latest: '4.6.0', cpe: 'wpmailsmtp:wp_mail_smtp' },
  { slug: 'limit-login-attempts-reloaded', name: 'Limit Login Attempts Reloaded', latest: '2.26.23' },
  { slug: 'mailchimp-for-wp', name: 'MC4WP', latest: '4.10.8' },
  { slug: 'duplicate-post', name: 'Yoast Duplicate Post', latest: '4.5' },
  { slug: 'google-site-kit', name: 'Site Kit by Google', latest: '1.165.0' },
  { slug: 'all-in-one-wp-migration', name: 'All-in-One WP Migration', latest: '7.100', cpe: 'servmask:all-in-one_wp_migration' },
  { slug: 'wp-fastest-cache', name: 'WP Fastest Cache', latest: '1.4.1', cpe: 'wpfastestcache:wp_fastest_cache' },
  { slug: 'instagram-feed', name: 'Smash Balloon Instagram Feed', latest: '6.10' },
  { slug: 'tablepress', name: 'TablePress', latest: '3.2.5', cpe: 'tablepress:tablepress' },
  { slug: 'revslider', name: 'Slider Revolution', latest: '6.7.38', cpe: 'themepunch:slider_revolution' },
]

/** Added by `enumerate: all`. */
export const MORE_PLUGINS: readonly KnownComponent[] = [
  'hello-dolly', 'wp-smushit', 'wp-optimize', 'autoptimize', 'cookie-notice', 'complianz-gdpr', 'sucuri-scanner', 'better-wp-security', 'all-in-one-wp-security-and-firewall',
  'wps-hide-login', 'loginizer', 'two-factor', 'google-analytics-for-wordpress', 'google-analytics-dashboard-for-wp', 'header-footer-code-manager', 'insert-headers-and-footers',
  'code-snippets', 'wpcode', 'shortcodes-ultimate', 'siteorigin-panels', 'so-widgets-bundle', 'beaver-builder-lite-version', 'essential-addons-for-elementor-lite',
  'elementskit-lite', 'premium-addons-for-elementor', 'header-footer-elementor', 'ninja-forms', 'formidable', 'forminator', 'fluentform', 'everest-forms', 'caldera-forms',
  'mailpoet', 'newsletter', 'the-events-calendar', 'events-manager', 'bbpress', 'buddypress', 'wp-statistics', 'wp-polls', 'nextgen-gallery', 'envira-gallery-lite',
  'regenerate-thumbnails', 'enable-media-replace', 'safe-svg', 'svg-support', 'wp-job-manager', 'easy-digital-downloads', 'give', 'paid-memberships-pro',
  'learnpress', 'tutor', 'polylang', 'sitepress-multilingual-cms', 'translatepress-multilingual', 'loco-translate', 'search-and-replace', 'better-search-replace',
  'wp-migrate-db', 'backwpup', 'backup', 'wpvivid-backuprestore', 'duplicator-pro', 'wp-reset', 'wp-rollback', 'user-role-editor', 'members', 'profile-builder',
  'post-smtp', 'easy-wp-smtp', 'wp-rocket', 'breeze', 'sg-cachepress', 'cloudflare', 'wp-downgrade', 'file-manager-advanced', 'filebird', 'media-library-assistant',
].map((slug) => ({ slug, name: slug, latest: '' }))

export const KNOWN_THEMES: readonly KnownComponent[] = [
  { slug: 'twentytwentyfive', name: 'Twenty Twenty-Five', latest: '1.3' },
  { slug: 'twentytwentyfour', name: 'Twenty Twenty-Four', latest: '1.3' },
  { slug: 'twentytwentythree', name: 'Twenty Twenty-Three', latest: '1.6' },
  { slug: 'twentytwentytwo', name: 'Twenty Twenty-Two', latest: '2.0' },
  { slug: 'twentytwentyone', name: 'Twenty Twenty-One', latest: '2.6' },
  { slug: 'twentytwenty', name: 'Twenty Twenty', latest: '2.9' },
  { slug: 'twentynineteen', name: 'Twenty Nineteen', latest: '3.1' },
  { slug: 'twentyseventeen', name: 'Twenty Seventeen', latest: '3.9' },
  { slug: 'twentysixteen', name: 'Twenty Sixteen', latest: '3.6' },
  { slug: 'twentyfifteen', name: 'Twenty Fifteen', latest: '4.0' },
  { slug: 'twentyfourteen', name: 'Twenty Fourteen', latest: '4.3' },
  { slug: 'astra', name: 'Astra', latest: '4.11.15' },
  { slug: 'hello-elementor', name: 'Hello Elementor', latest: '3.4.5' },
  { slug: 'generatepress', name: 'GeneratePress', latest: '3.6.0' },
  { slug: 'oceanwp', name: 'OceanWP', latest: '4.1.3' },
  { slug: 'kadence', name: 'Kadence', latest: '1.3.6' },
]

/** The slugs a scan probes for `enumerate`. */
export function pluginsToProbe(enumerate: 'none' | 'popular' | 'all'): readonly KnownComponent[] {
  return enumerate === 'none' ? [] : enumerate === 'popular' ? POPULAR_PLUGINS : [...POPULAR_PLUGINS, ...MORE_PLUGINS]
}

const BY_SLUG = new Map([...POPULAR_PLUGINS, ...MORE_PLUGINS.filter((p) => !POPULAR_PLUGINS.some((x) => x.slug === p.slug))].map((p) => [p.slug, p]))
const THEME_BY_SLUG = new Map(KNOWN_THEMES.map((t) => [t.slug, t]))
export const knownPlugin = (slug: string) => BY_SLUG.get(slug)
export const knownTheme = (slug: string) => THEME_BY_SLUG.get(slug)
