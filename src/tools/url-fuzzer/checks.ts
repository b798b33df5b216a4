// URL Fuzzer checks (tool 90): what a discovered path means. The fuzzer decides which path is which
// kind (src/tools/url-fuzzer/classify.ts); this file only says what each kind is.
import { OWASP, type Check } from '../../toolkit/check.js'

const WSTG = 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing'

export const vcsExposure = {
  id: 'fuzzer.exposure.vcs',
  name: 'Exposed version-control repository',
  description:
    'Files of a version-control repository (.git, .svn, .hg, .bzr) are served by the web server. They hold the ' +
    "site's source history, not only the published files.",
  impact:
    'An attacker can download the repository and rebuild the source code, including old revisions, hard-coded ' +
    'credentials, API keys and internal hostnames, and look for flaws offline.',
  risk: 'high',
  cwe: ['CWE-527'], // Exposure of Version-Control Repository to an Unauthorized Control Sphere
  owasp: OWASP.misconfig,
  recommendation:
    'Deploy a build artefact instead of a working copy, or deny every path that contains /.git, /.svn, /.hg or ' +
    '/.bzr in the web server configuration. Rotate any secret that ever appeared in the repository history.',
  references: [
    `${WSTG}/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information`,
    'https://cwe.mitre.org/data/definitions/527.html',
  ],
  tags: ['exposure', 'source-code', 'misconfiguration'],
} as const satisfies Check

export const backupExposure = {
  id: 'fuzzer.exposure.backup',
  name: 'Exposed backup or archive file',
  description:
    'A backup copy, archive or database dump (.bak, .old, ~, .swp, .zip, .tar.gz, .sql ...) is downloadable. ' +
    'Such files are served as plain bytes, so server-side code inside them is not executed but disclosed.',
  impact:
    'An attacker can read source code, configuration with credentials or whole database contents (user records, ' +
    'password hashes) from the file.',
  risk: 'medium',
  cwe: ['CWE-530'], // Exposure of Backup File to an Unauthorized Control Sphere
  owasp: OWASP.misconfig,
  recommendation:
    'Remove backups, archives and dumps from the document root and keep them in a location the web server does ' +
    'not serve. Deny common backup suffixes (.bak, .old, .orig, .swp, ~, .sql, .zip, .tar.gz) in the server configuration.',
  references: [
    `${WSTG}/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information`,
    'https://cwe.mitre.org/data/definitions/530.html',
  ],
  tags: ['exposure', 'backup', 'misconfiguration'],
} as const satisfies Check

export const configExposure = {
  id: 'fuzzer.exposure.config',
  name: 'Exposed configuration file',
  description:
    'A configuration or environment file (.env, web.config, .htpasswd, settings or credentials files, a copy of ' +
    'config.php) is served to anyone who asks for it.',
  impact:
    'Configuration files usually hold database passwords, API tokens, signing keys and internal addresses; an ' +
    'attacker who reads them can often log in to the backing services directly.',
  risk: 'medium',
  cwe: ['CWE-538', 'CWE-260'], // File and Directory Information Exposure; Password in Configuration File
  owasp: OWASP.misconfig,
  recommendation:
    'Keep configuration and secrets outside the document root, deny dot-files and configuration suffixes in the ' +
    'web server, and rotate every secret the exposed file contained.',
  references: [
    `${WSTG}/02-Configuration_and_Deployment_Management_Testing/03-Test_File_Extensions_Handling_for_Sensitive_Information`,
    'https://cwe.mitre.org/data/definitions/538.html',
    'https://cwe.mitre.org/data/definitions/260.html',
  ],
  tags: ['exposure', 'secrets', 'misconfiguration'],
} as const satisfies Check

export const adminPanelExposure = {
  id: 'fuzzer.exposure.admin-panel',
  name: 'Administration interface reachable',
  description:
    'An administration interface (a CMS back office, phpMyAdmin, Adminer, an application server manager) answers ' +
    'requests from the scanning host.',
  impact:
    'Administration interfaces are the first target of password guessing and of exploits for the admin software; ' +
    'a weak or reused password gives full control of the application or its database.',
  risk: 'low',
  cwe: ['CWE-419'], // Unprotected Primary Channel
  owasp: OWASP.misconfig,
  recommendation:
    'Restrict administration interfaces to a management network, VPN or allow-list of addresses, require strong ' +
    'authentication with a second factor, and remove admin tools (phpMyAdmin, Adminer) that are not needed.',
  references: [
    `${WSTG}/02-Configuration_and_Deployment_Management_Testing/05-Enumerate_Infrastructure_and_Application_Admin_Interfaces`,
    'https://cwe.mitre.org/data/definitions/419.html',
  ],
  tags: ['exposure', 'admin', 'attack-surface'],
} as const satisfies Check

export const debugExposure = {
  id: 'fuzzer.exposure.debug',
  name: 'Debug or status endpoint exposed',
  description:
    'A diagnostic endpoint (phpinfo, Apache server-status/server-info, Spring Boot actuator, framework debug ' +
    'consoles or profilers) is publicly reachable.',
  impact:
    'Diagnostic pages disclose software versions, file paths, environment variables, client addresses and ' +
    'requested URLs (with their tokens); some (heap dumps, env endpoints, debug consoles) leak secrets or allow code execution.',
  risk: 'medium',
  cwe: ['CWE-489', 'CWE-215'], // Active Debug Code; Insertion of Sensitive Information Into Debugging Code
  owasp: OWASP.misconfig,
  recommendation:
    'Disable debug endpoints in production builds, or bind them to localhost / a management port and require ' +
    'authentication (e.g. management.endpoints.web.exposure.include=health for Spring Boot, Require ip for mod_status).',
  references: [
    `${WSTG}/02-Configuration_and_Deployment_Management_Testing/02-Test_Application_Platform_Configuration`,
    'https://httpd.apache.org/docs/2.4/mod/mod_status.html',
    'https://docs.spring.io/spring-boot/reference/actuator/endpoints.html',
    'https://cwe.mitre.org/data/definitions/489.html',
  ],
  tags: ['exposure', 'debug', 'misconfiguration'],
} as const satisfies Check

export const pathDiscovery = {
  id: 'fuzzer.discovery.path',
  name: 'Discovered paths',
  description:
    'Paths that are not linked from a known page but answer with a status counted as found. One finding per ' +
    'scanned base URL lists them; each path is also in output_data.urls.',
  impact:
    'Unlinked content widens the attack surface: old applications, test pages and APIs are often less maintained ' + 'than the main site.',
  risk: 'info',
  cwe: [],
  owasp: OWASP.none,
  recommendation: 'Review the list: remove what is not meant to be published and protect what must stay reachable but is not public.',
  references: [`${WSTG}/01-Information_Gathering/04-Enumerate_Applications_on_Webserver`],
  tags: ['discovery', 'attack-surface'],
} as const satisfies Check

export const urlFuzzerChecks = [
  vcsExposure,
  backupExposure,
  configExposure,
  adminPanelExposure,
  debugExposure,
  pathDiscovery,
] as const satisfies readonly Check[]

/** The tests a scan reports, one per exposure kind (the discovery summary is its own test). */
export const KIND_TESTS: readonly { check: Check; name: string; description: string }[] = [
  {
    check: vcsExposure,
    name: 'Version-control folders',
    description: 'Requests files of .git, .svn, .hg and .bzr repositories and reports those served.',
  },
  {
    check: backupExposure,
    name: 'Backup files and archives',
    description: 'Requests backup copies, archives and database dumps and reports those served.',
  },
  {
    check: configExposure,
    name: 'Configuration files',
    description: 'Requests environment, server and application configuration files and reports those served.',
  },
  {
    check: adminPanelExposure,
    name: 'Administration interfaces',
    description: 'Requests well-known administration paths and reports those that answer.',
  },
  {
    check: debugExposure,
    name: 'Debug and status endpoints',
    description: 'Requests phpinfo, server-status, actuator and framework debug paths and reports those served.',
  },
]
