// WordPress Scanner checks (tool 270): what each WordPress weakness means. Core version problems use
// the shared version checks (cve.wordpress-*, eol.wordpress, imported CVEs); detect/ says when.
import { OWASP, type Check } from '../../toolkit/check.js'

const WPSCAN = 'https://developer.wordpress.org/advanced-administration/security/hardening/'

export const wpVersionDisclosed = {
  id: 'wordpress.version-disclosed',
  name: 'WordPress version disclosed',
  description:
    'The site tells which WordPress version it runs (generator tag, readme.html, feeds, ?ver= of core assets or the login page).',
  impact: 'An attacker learns at once which published vulnerabilities apply and can skip probing.',
  risk: 'info',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation:
    'Keep WordPress up to date (hiding the version does not make an old one safe); remove readme.html and the generator tag if you want less to be read.',
  references: [WPSCAN],
  tags: ['wordpress', 'disclosure'],
} as const satisfies Check

export const wpPluginVulnerable = {
  id: 'wordpress.plugin.vulnerable',
  name: 'WordPress plugin or theme with a known vulnerability',
  description: 'A plugin or theme is installed in a version with a published vulnerability.',
  impact:
    'Plugins are where most WordPress sites are broken into: depending on the flaw an attacker can upload code, take over accounts or read data.',
  risk: 'high',
  cwe: ['CWE-1395'], // Dependency on Vulnerable Third-Party Component
  owasp: OWASP.vulnerableComponents,
  recommendation: 'Update the plugin or theme to the fixed release named in the finding, or remove it if it is not used.',
  references: ['https://wordpress.org/plugins/', 'https://nvd.nist.gov/'],
  tags: ['wordpress', 'plugin', 'cve', 'version'],
} as const satisfies Check

export const wpPluginOutdated = {
  id: 'wordpress.plugin.outdated',
  name: 'WordPress plugin or theme older than the latest release',
  description: 'A plugin or theme runs an older version than the latest release Ward knows of.',
  impact: 'Old releases miss security fixes that were not given a CVE, and are the first to be hit when one is.',
  risk: 'info',
  cwe: ['CWE-1104'],
  owasp: OWASP.vulnerableComponents,
  recommendation: 'Turn on automatic updates for plugins and themes, or update them regularly.',
  references: ['https://wordpress.org/documentation/article/plugins-themes-auto-updates/'],
  tags: ['wordpress', 'plugin', 'version'],
} as const satisfies Check

export const wpUserEnumeration = {
  id: 'wordpress.users.enumeration',
  name: 'WordPress user names can be listed',
  description:
    "Login names of the site's users can be read without logging in (/?author=N redirects, the REST API users endpoint or oEmbed author data).",
  impact: 'An attacker gets half of every login pair and can aim password guessing (xmlrpc.php, wp-login.php) at real accounts.',
  risk: 'low',
  cwe: ['CWE-203'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Restrict /wp-json/wp/v2/users to logged-in users, stop /?author=N from redirecting to author slugs, and use display names that differ from login names.',
  references: [WPSCAN, 'https://developer.wordpress.org/rest-api/reference/users/'],
  tags: ['wordpress', 'enumeration'],
} as const satisfies Check

export const wpXmlrpcEnabled = {
  id: 'wordpress.xmlrpc.enabled',
  name: 'WordPress XML-RPC interface enabled',
  description: 'xmlrpc.php answers XML-RPC calls from anyone.',
  impact:
    'XML-RPC accepts passwords outside the login page and its rate limits, and pingback.ping can be used to make the site send requests to third parties.',
  risk: 'low',
  cwe: ['CWE-307'],
  owasp: OWASP.authFailures,
  recommendation: 'Block xmlrpc.php in the web server unless a client (the mobile app, Jetpack) needs it.',
  references: ['https://codex.wordpress.org/XML-RPC_Support'],
  tags: ['wordpress', 'xmlrpc'],
} as const satisfies Check

export const wpXmlrpcMulticall = {
  id: 'wordpress.xmlrpc.multicall',
  name: 'WordPress XML-RPC system.multicall available',
  description: 'xmlrpc.php offers system.multicall, which runs many calls in one request.',
  impact:
    'An attacker can try hundreds of passwords in a single HTTP request, past rate limits and login-attempt counters that count requests.',
  risk: 'medium',
  cwe: ['CWE-307'],
  owasp: OWASP.authFailures,
  recommendation: 'Block xmlrpc.php, or remove system.multicall with the xmlrpc_methods filter.',
  references: ['https://blog.sucuri.net/2015/10/brute-force-amplification-attacks-against-wordpress-xmlrpc.html'],
  tags: ['wordpress', 'xmlrpc', 'brute-force'],
} as const satisfies Check

export const wpCronPublic = {
  id: 'wordpress.wp-cron.public',
  name: 'WordPress wp-cron.php callable from outside',
  description: 'wp-cron.php runs scheduled tasks for anyone who requests it.',
  impact: 'Repeated requests make the site run its task queue over and over, an easy way to load the server.',
  risk: 'info',
  cwe: ['CWE-400'],
  owasp: OWASP.misconfig,
  recommendation: 'Set DISABLE_WP_CRON in wp-config.php, run cron from the system scheduler and deny wp-cron.php in the web server.',
  references: ['https://developer.wordpress.org/plugins/cron/hooking-wp-cron-into-the-system-task-scheduler/'],
  tags: ['wordpress'],
} as const satisfies Check

export const wpDebugLog = {
  id: 'wordpress.debug-log',
  name: 'WordPress debug log downloadable',
  description: 'wp-content/debug.log, written when WP_DEBUG_LOG is on, is served to anyone.',
  impact: 'The log shows file paths, plugin names, database errors and sometimes queries, user data or secrets.',
  risk: 'medium',
  cwe: ['CWE-532'],
  owasp: OWASP.misconfig,
  recommendation:
    'Turn WP_DEBUG_LOG off in production (or log outside the document root), delete debug.log and deny *.log in the web server.',
  references: ['https://developer.wordpress.org/advanced-administration/debug/debug-wordpress/'],
  tags: ['wordpress', 'exposure'],
} as const satisfies Check

export const wpUploadsListing = {
  id: 'wordpress.uploads-listing',
  name: 'WordPress uploads folder listable',
  description: 'wp-content/uploads/ answers with a directory listing.',
  impact: 'Every uploaded file can be found, including drafts, private attachments, exports and backups that plugins put there.',
  risk: 'low',
  cwe: ['CWE-548'],
  owasp: OWASP.misconfig,
  recommendation: 'Turn directory listings off (Options -Indexes in Apache, autoindex off in nginx).',
  references: [WPSCAN],
  tags: ['wordpress', 'exposure'],
} as const satisfies Check

export const wpConfigBackup = {
  id: 'wordpress.config-backup',
  name: 'WordPress configuration backup downloadable',
  description: 'A copy of wp-config.php (wp-config.php.bak, ~, .save, .old ...) is served as text.',
  impact:
    'wp-config.php holds the database password and the authentication keys and salts: an attacker can log in to the database or forge login cookies.',
  risk: 'high',
  cwe: ['CWE-530'],
  owasp: OWASP.misconfig,
  recommendation:
    'Delete the copy, change the database password and the keys and salts in wp-config.php, and deny backup suffixes in the web server.',
  references: [WPSCAN],
  tags: ['wordpress', 'exposure', 'backup'],
} as const satisfies Check

export const wpInstallScript = {
  id: 'wordpress.install-script',
  name: 'WordPress installation script left open',
  description:
    "An installation script answers: WordPress's own installer offers to install, or a migration installer (Duplicator installer.php) was left behind.",
  impact:
    'Whoever runs the installer first can set up the site with their own administrator or point it at ' +
    'their own database, and a migration installer can overwrite the site.',
  risk: 'high',
  cwe: ['CWE-306'],
  owasp: OWASP.misconfig,
  recommendation: 'Finish the installation at once, or delete installer.php, installer-backup.php and the archive a migration left behind.',
  references: ['https://duplicator.com/knowledge-base/how-to-fix-installer-security-issues/'],
  tags: ['wordpress', 'exposure'],
} as const satisfies Check

export const wpRegistrationOpen = {
  id: 'wordpress.registration-open',
  name: 'WordPress user registration open',
  description: 'Anyone can create an account on the site (wp-login.php?action=register shows the registration form).',
  impact: 'Accounts for anyone widen the attack surface: plugin flaws reachable by subscribers become reachable by all.',
  risk: 'low',
  cwe: ['CWE-284'],
  owasp: OWASP.brokenAccess,
  recommendation: 'Untick "Anyone can register" in Settings → General unless the site needs it, and keep the default role at Subscriber.',
  references: ['https://wordpress.org/documentation/article/settings-general-screen/'],
  tags: ['wordpress'],
} as const satisfies Check

export const wordpressScannerChecks: readonly Check[] = [
  wpVersionDisclosed,
  wpPluginVulnerable,
  wpPluginOutdated,
  wpUserEnumeration,
  wpXmlrpcEnabled,
  wpXmlrpcMulticall,
  wpCronPublic,
  wpDebugLog,
  wpUploadsListing,
  wpConfigBackup,
  wpInstallScript,
  wpRegistrationOpen,
]
