// Website Scanner (tool 170) catalogue: what each web problem means. The scanner decides when one fails.
import { OWASP, type Check } from '../../toolkit/check.js'

const MDN = 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/'
const cwe = (n: number) => `https://cwe.mitre.org/data/definitions/${n}.html`

// ---------------------------------------------------------------- security headers

export const cspMissing = {
  id: 'website.headers.csp-missing',
  name: 'Missing Content-Security-Policy header',
  description: 'The HTML response sets no Content-Security-Policy, so the browser loads scripts and frames from any origin.',
  impact: 'An HTML or script injection flaw has no second line of defence: injected scripts run with the full privileges of the site.',
  risk: 'low',
  cwe: ['CWE-693'],
  owasp: OWASP.misconfig,
  recommendation:
    "Send Content-Security-Policy on every HTML response, e.g. default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'. " +
    'Roll it out with Content-Security-Policy-Report-Only first.',
  references: [
    `${MDN}Content-Security-Policy`,
    'https://cheatsheetseries.owasp.org/cheatsheets/Content_Security_Policy_Cheat_Sheet.html',
    cwe(693),
  ],
  tags: ['headers', 'xss'],
} as const satisfies Check

export const cspUnsafe = {
  id: 'website.headers.csp-unsafe',
  name: 'Weak Content-Security-Policy',
  description:
    "The Content-Security-Policy allows script sources that defeat it ('unsafe-inline', 'unsafe-eval', wildcards or whole schemes).",
  impact:
    'Injected inline scripts or scripts from attacker-controlled origins still run, so the policy does not stop cross-site scripting.',
  risk: 'low',
  cwe: ['CWE-693'],
  owasp: OWASP.misconfig,
  recommendation:
    "Remove 'unsafe-inline', 'unsafe-eval', '*', 'http:', 'https:' and 'data:' from " +
    "script-src/default-src; use nonces or hashes with 'strict-dynamic' for inline scripts.",
  references: [`${MDN}Content-Security-Policy/script-src`, 'https://csp-evaluator.withgoogle.com/', cwe(693)],
  tags: ['headers', 'xss'],
} as const satisfies Check

export const hstsMissing = {
  id: 'website.headers.hsts-missing',
  name: 'Missing Strict-Transport-Security header',
  description: 'The HTTPS site does not send Strict-Transport-Security, so browsers keep trying plain HTTP first.',
  impact:
    'A network attacker can intercept the first plain-HTTP request and strip TLS (SSL stripping), reading or changing traffic and cookies.',
  risk: 'low',
  cwe: ['CWE-319'],
  owasp: OWASP.sensitiveData,
  recommendation:
    'Send Strict-Transport-Security: max-age=31536000; includeSubDomains on every HTTPS response, and consider HSTS preloading.',
  references: [
    `${MDN}Strict-Transport-Security`,
    'https://cheatsheetseries.owasp.org/cheatsheets/HTTP_Strict_Transport_Security_Cheat_Sheet.html',
    cwe(319),
  ],
  tags: ['headers', 'tls'],
} as const satisfies Check

export const hstsWeak = {
  id: 'website.headers.hsts-weak',
  name: 'Strict-Transport-Security max-age too short',
  description:
    'The Strict-Transport-Security header has a max-age below 180 days (15552000 s) or is malformed, so its protection lapses quickly.',
  impact: 'Once the short HSTS period expires, browsers fall back to plain HTTP and SSL stripping becomes possible again.',
  risk: 'low',
  cwe: ['CWE-319'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Set max-age to at least 31536000 (one year) and add includeSubDomains.',
  references: [`${MDN}Strict-Transport-Security`, 'https://hstspreload.org/', cwe(319)],
  tags: ['headers', 'tls'],
} as const satisfies Check

export const clickjacking = {
  id: 'website.headers.clickjacking',
  name: 'Missing clickjacking protection (X-Frame-Options / frame-ancestors)',
  description: 'The page sets neither X-Frame-Options nor a Content-Security-Policy frame-ancestors directive, so any site may frame it.',
  impact: 'An attacker frames the page invisibly on a site of theirs and tricks users into clicking buttons of this site (clickjacking).',
  risk: 'medium',
  cwe: ['CWE-1021'],
  owasp: OWASP.misconfig,
  recommendation:
    "Send Content-Security-Policy: frame-ancestors 'self' (or 'none'), and X-Frame-Options: DENY or SAMEORIGIN for older browsers.",
  references: [`${MDN}X-Frame-Options`, 'https://cheatsheetseries.owasp.org/cheatsheets/Clickjacking_Defense_Cheat_Sheet.html', cwe(1021)],
  tags: ['headers'],
} as const satisfies Check

export const xctoMissing = {
  id: 'website.headers.xcto-missing',
  name: 'Missing X-Content-Type-Options header',
  description: 'The response does not send X-Content-Type-Options: nosniff, so browsers may guess (sniff) content types.',
  impact: 'Uploaded or reflected content can be interpreted as script or HTML by the browser, enabling cross-site scripting.',
  risk: 'low',
  cwe: ['CWE-693'],
  owasp: OWASP.misconfig,
  recommendation: 'Send X-Content-Type-Options: nosniff on every response and set a correct Content-Type.',
  references: [`${MDN}X-Content-Type-Options`, 'https://owasp.org/www-project-secure-headers/', cwe(693)],
  tags: ['headers'],
} as const satisfies Check

export const referrerPolicyMissing = {
  id: 'website.headers.referrer-policy-missing',
  name: 'Missing or unsafe Referrer-Policy header',
  description:
    'The response sends no Referrer-Policy, or one (unsafe-url, no-referrer-when-downgrade) that leaks full URLs to other sites.',
  impact: 'Full URLs, including tokens or personal data in paths and query strings, leak to third-party sites through the Referer header.',
  risk: 'low',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Send Referrer-Policy: strict-origin-when-cross-origin (or no-referrer).',
  references: [`${MDN}Referrer-Policy`, 'https://owasp.org/www-project-secure-headers/', cwe(200)],
  tags: ['headers', 'privacy'],
} as const satisfies Check

export const permissionsPolicyMissing = {
  id: 'website.headers.permissions-policy-missing',
  name: 'Missing Permissions-Policy header',
  description:
    'The response sends no Permissions-Policy, so embedded content may request powerful browser features (camera, geolocation, ...).',
  impact: 'A compromised or malicious embedded frame can ask users for access to sensitive browser features in the name of this site.',
  risk: 'info',
  cwe: ['CWE-693'],
  owasp: OWASP.misconfig,
  recommendation: 'Send a Permissions-Policy that disables features the site does not use, e.g. camera=(), microphone=(), geolocation=().',
  references: [`${MDN}Permissions-Policy`, 'https://owasp.org/www-project-secure-headers/'],
  tags: ['headers'],
} as const satisfies Check

// ---------------------------------------------------------------- cookies

export const cookieSecure = {
  id: 'website.cookies.secure-missing',
  name: 'Cookie without Secure flag',
  description: 'A cookie set over HTTPS lacks the Secure attribute, so the browser also sends it over plain HTTP.',
  impact: 'A network attacker who makes the browser issue any plain-HTTP request to the site reads the cookie, e.g. a session identifier.',
  risk: 'low',
  cwe: ['CWE-614'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Set the Secure attribute on every cookie of an HTTPS site (and use the __Host- prefix for session cookies).',
  references: [`${MDN}Set-Cookie`, 'https://owasp.org/www-community/controls/SecureCookieAttribute', cwe(614)],
  tags: ['cookies'],
} as const satisfies Check

export const cookieHttpOnly = {
  id: 'website.cookies.httponly-missing',
  name: 'Cookie without HttpOnly flag',
  description: 'A cookie lacks the HttpOnly attribute, so page scripts can read it.',
  impact: 'Any cross-site scripting flaw lets an attacker steal the cookie, e.g. to hijack a session.',
  risk: 'low',
  cwe: ['CWE-1004'],
  owasp: OWASP.misconfig,
  recommendation: 'Set HttpOnly on every cookie that scripts do not need to read, and always on session cookies.',
  references: [`${MDN}Set-Cookie`, 'https://owasp.org/www-community/HttpOnly', cwe(1004)],
  tags: ['cookies'],
} as const satisfies Check

export const cookieSameSite = {
  id: 'website.cookies.samesite-missing',
  name: 'Cookie without SameSite attribute',
  description: 'A cookie has no SameSite attribute (or SameSite=None without Secure), so the browser decides when it is sent cross-site.',
  impact: 'The cookie may accompany requests forged by other sites, which helps cross-site request forgery.',
  risk: 'low',
  cwe: ['CWE-1275'],
  owasp: OWASP.brokenAccess,
  recommendation: 'Set SameSite=Lax (or Strict) on cookies; use SameSite=None only together with Secure when cross-site use is required.',
  references: [`${MDN}Set-Cookie#samesitesamesite-value`, 'https://owasp.org/www-community/SameSite', cwe(1275)],
  tags: ['cookies', 'csrf'],
} as const satisfies Check

// ---------------------------------------------------------------- disclosure and components

export const serverVersion = {
  id: 'website.disclosure.server-version',
  name: 'Server version disclosed in Server header',
  description: 'The Server header names the web server software together with its version.',
  impact: 'Attackers learn exactly which software and version to target, and can match it against public exploits.',
  risk: 'low',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation:
    'Configure the server to send a generic Server header without version (Apache: ServerTokens Prod; nginx: server_tokens off).',
  references: [
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/01-Information_Gathering/02-Fingerprint_Web_Server',
    cwe(200),
  ],
  tags: ['disclosure'],
} as const satisfies Check

export const poweredBy = {
  id: 'website.disclosure.powered-by',
  name: 'Technology disclosed in X-Powered-By header',
  description: 'The X-Powered-By (or X-AspNet-Version) header names the framework or language runtime behind the site.',
  impact: 'Attackers learn which framework and version to target without probing.',
  risk: 'low',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Remove X-Powered-By and X-AspNet-Version headers (PHP: expose_php = Off; Express: app.disable("x-powered-by")).',
  references: ['https://owasp.org/www-project-secure-headers/', cwe(200)],
  tags: ['disclosure'],
} as const satisfies Check

export const generatorMeta = {
  id: 'website.disclosure.generator',
  name: 'Software version disclosed in generator meta tag',
  description: 'The HTML page carries a <meta name="generator"> tag naming the CMS or site generator and its version.',
  impact: 'Attackers learn which CMS version runs the site and can look up its known vulnerabilities.',
  risk: 'info',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Remove the generator meta tag (most CMSs have a setting or a one-line filter for it).',
  references: [
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/01-Information_Gathering/08-Fingerprint_Web_Application_Framework',
    cwe(200),
  ],
  tags: ['disclosure'],
} as const satisfies Check

// ---------------------------------------------------------------- transport

export const httpNoRedirect = {
  id: 'website.transport.http-not-redirected',
  name: 'HTTP does not redirect to HTTPS',
  description: 'The site answers plain-HTTP requests with content instead of redirecting them to HTTPS.',
  impact: 'Users who type the address or follow an http:// link exchange data unencrypted; a network attacker can read and change it.',
  risk: 'medium',
  cwe: ['CWE-319'],
  owasp: OWASP.sensitiveData,
  recommendation:
    'Serve the site over HTTPS and answer every plain-HTTP request with a 301 redirect to the same URL over https://, then enable HSTS.',
  references: ['https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html', cwe(319)],
  tags: ['tls'],
} as const satisfies Check

// ---------------------------------------------------------------- CORS

export const basicAuthOverHttp = {
  id: 'website.transport.basic-auth-over-http',
  name: 'Credentials requested with HTTP Basic over plain HTTP',
  description: 'A page (often an admin area) answers 401 with a Basic authentication challenge over unencrypted HTTP.',
  impact: 'Browsers send the user name and password base64-encoded, i.e. in clear text, with every request: anyone on the path reads them.',
  risk: 'medium',
  cwe: ['CWE-523', 'CWE-319'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Serve the area over HTTPS only (redirect HTTP before asking for credentials), or restrict it to an internal network.',
  references: [cwe(523), 'https://datatracker.ietf.org/doc/html/rfc7617#section-4'],
  tags: ['transport', 'auth'],
} as const satisfies Check

export const passwordOverHttp = {
  id: 'website.transport.password-form-over-http',
  name: 'Password form served or submitted over plain HTTP',
  description: 'A form with a password field is served over HTTP, or submits to an http:// address.',
  impact: 'The password travels unencrypted, and a network attacker can also change the page to send it elsewhere.',
  risk: 'medium',
  cwe: ['CWE-319'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Serve login pages and their form targets over HTTPS only, and redirect HTTP to HTTPS with HSTS.',
  references: [cwe(319), 'https://developer.mozilla.org/en-US/docs/Web/Security/Insecure_passwords'],
  tags: ['transport', 'auth'],
} as const satisfies Check

export const corsWildcardCredentials = {
  id: 'website.cors.wildcard-credentials',
  name: 'CORS allows any origin with credentials',
  description: 'The response sends Access-Control-Allow-Origin: * together with Access-Control-Allow-Credentials: true.',
  impact:
    'The CORS policy is meant to open the site to every origin with credentials; browsers refuse this ' +
    'pair today, but it shows a policy that a small change turns into full cross-origin data theft.',
  risk: 'low',
  cwe: ['CWE-942'],
  owasp: OWASP.misconfig,
  recommendation:
    'List the trusted origins explicitly and send Access-Control-Allow-Credentials only for them; never combine it with a wildcard.',
  references: ['https://developer.mozilla.org/en-US/docs/Web/HTTP/CORS', 'https://portswigger.net/web-security/cors', cwe(942)],
  tags: ['cors'],
} as const satisfies Check

export const corsReflected = {
  id: 'website.cors.origin-reflected',
  name: 'CORS reflects arbitrary origins',
  description: 'The server copies any Origin request header into Access-Control-Allow-Origin, trusting every website.',
  impact:
    "Any website a user visits can read this site's responses in the user's name (with credentials when " +
    'Allow-Credentials is true): account data, tokens, CSRF secrets.',
  risk: 'high',
  cwe: ['CWE-942'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Check the Origin against an allow-list of exact trusted origins before echoing it; never reflect it unchecked and never trust the null origin.',
  references: [
    'https://portswigger.net/web-security/cors',
    'https://cheatsheetseries.owasp.org/cheatsheets/HTML5_Security_Cheat_Sheet.html#cross-origin-resource-sharing',
    cwe(942),
  ],
  tags: ['cors'],
} as const satisfies Check

// ---------------------------------------------------------------- content and files

export const directoryListing = {
  id: 'website.content.directory-listing',
  name: 'Directory listing enabled',
  description: 'The web server generates an index of the files of a directory that has no index page.',
  impact: 'Anyone can browse the files of the directory, including backups, uploads and configuration files that were never linked.',
  risk: 'medium',
  cwe: ['CWE-548'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Disable automatic indexes (Apache: Options -Indexes; nginx: autoindex off) and put an index page or a deny rule in every directory.',
  references: ['https://cwe.mitre.org/data/definitions/548.html', 'https://httpd.apache.org/docs/2.4/mod/mod_autoindex.html'],
  tags: ['files'],
} as const satisfies Check

export const gitExposed = {
  id: 'website.files.git-exposed',
  name: 'Git repository exposed (/.git/)',
  description: 'The .git folder of the site is served over HTTP (/.git/HEAD answers with a Git reference).',
  impact: 'An attacker downloads the whole repository: source code, history, and the credentials and keys ever committed.',
  risk: 'high',
  cwe: ['CWE-527'],
  owasp: OWASP.misconfig,
  recommendation:
    'Deny access to /.git (and other VCS folders) in the web server and deploy without the .git folder; rotate secrets found in the history.',
  references: [
    'https://cwe.mitre.org/data/definitions/527.html',
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
  ],
  tags: ['files', 'vcs'],
} as const satisfies Check

export const envExposed = {
  id: 'website.files.env-exposed',
  name: 'Environment file exposed (/.env)',
  description: "The application's .env file, holding configuration variables, is served over HTTP.",
  impact: 'Database passwords, API keys and application secrets in the file are readable by anyone.',
  risk: 'high',
  cwe: ['CWE-538'],
  owasp: OWASP.misconfig,
  recommendation: 'Keep .env outside the document root or deny dotfiles in the web server; rotate every secret the file held.',
  references: [
    'https://cwe.mitre.org/data/definitions/538.html',
    'https://owasp.org/www-project-top-ten/2017/A6_2017-Security_Misconfiguration',
  ],
  tags: ['files', 'secrets'],
} as const satisfies Check

export const dsStore = {
  id: 'website.files.ds-store',
  name: 'macOS .DS_Store file exposed',
  description: 'A .DS_Store file, written by the macOS Finder, is served over HTTP and lists the names of the files in its folder.',
  impact: 'Attackers learn names of unlinked files and folders (backups, admin pages) and fetch them directly.',
  risk: 'low',
  cwe: ['CWE-538'],
  owasp: OWASP.misconfig,
  recommendation: 'Delete .DS_Store files from the deployment and deny dotfiles in the web server.',
  references: ['https://cwe.mitre.org/data/definitions/538.html', 'https://en.wikipedia.org/wiki/.DS_Store'],
  tags: ['files'],
} as const satisfies Check

export const backupExposed = {
  id: 'website.files.backup-exposed',
  name: 'Backup or configuration file exposed',
  description: 'A backup, dump or configuration file (e.g. backup.zip, database.sql, config.php.bak) is downloadable from the site.',
  impact: 'Such files reveal source code, database contents or credentials that the application normally keeps server-side.',
  risk: 'high',
  cwe: ['CWE-530'],
  owasp: OWASP.misconfig,
  recommendation:
    'Remove backups and dumps from the document root, keep configuration outside it, and deny *.bak, *.old, *.sql and archive extensions.',
  references: [
    'https://cwe.mitre.org/data/definitions/530.html',
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
  ],
  tags: ['files'],
} as const satisfies Check

export const scmExposed = {
  id: 'website.files.scm-exposed',
  name: 'Subversion or Mercurial metadata exposed (/.svn/, /.hg/)',
  description: 'The .svn or .hg folder of a working copy is served over HTTP (its entries, database or requires file answers).',
  impact:
    'An attacker rebuilds file names and often the source code of the site from the working-copy metadata (Subversion keeps pristine copies of every file).',
  risk: 'high',
  cwe: ['CWE-527'],
  owasp: OWASP.misconfig,
  recommendation: 'Deploy an export rather than a working copy, and deny /.svn and /.hg in the web server.',
  references: [
    cwe(527),
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
  ],
  tags: ['files', 'vcs'],
} as const satisfies Check

export const phpinfoExposed = {
  id: 'website.files.phpinfo',
  name: 'phpinfo() page exposed',
  description: 'A page that calls phpinfo() (e.g. /phpinfo.php, /info.php) is reachable by anyone.',
  impact:
    'It shows the PHP version and modules, server paths, environment variables (often with credentials) ' +
    'and configuration that help an attacker choose exploits.',
  risk: 'medium',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Delete phpinfo() test pages from the server.',
  references: [cwe(200), 'https://www.php.net/manual/en/function.phpinfo.php'],
  tags: ['files', 'disclosure'],
} as const satisfies Check

export const serverStatus = {
  id: 'website.files.server-status',
  name: 'Server status page exposed (/server-status)',
  description: "The web server's status page (Apache mod_status or similar) is reachable by anyone.",
  impact: 'It shows client addresses, requested URLs (with tokens in query strings), virtual hosts and the server version in real time.',
  risk: 'medium',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Restrict /server-status (and /server-info) to administrators, e.g. Require local or Require ip <admin network>.',
  references: ['https://httpd.apache.org/docs/2.4/mod/mod_status.html', cwe(200)],
  tags: ['files', 'disclosure'],
} as const satisfies Check

// ---------------------------------------------------------------- HTTP methods

export const traceEnabled = {
  id: 'website.methods.trace',
  name: 'HTTP TRACE method enabled',
  description: 'The server answers TRACE requests by echoing the request, headers included.',
  impact:
    'Combined with a client-side flaw, TRACE lets scripts read headers they should not see, such as HttpOnly cookies (cross-site tracing).',
  risk: 'low',
  cwe: ['CWE-693'],
  owasp: OWASP.misconfig,
  recommendation: 'Disable TRACE (Apache: TraceEnable off; most other servers disable it by default).',
  references: ['https://owasp.org/www-community/attacks/Cross_Site_Tracing', 'https://httpd.apache.org/docs/2.4/mod/core.html#traceenable'],
  tags: ['methods'],
} as const satisfies Check

export const unsafeMethods = {
  id: 'website.methods.unsafe-allowed',
  name: 'Unsafe HTTP methods allowed (PUT, DELETE)',
  description: 'The server advertises, in its OPTIONS answer, methods that write to the server (PUT, DELETE, MKCOL, ...).',
  impact: 'If these methods are really accepted, attackers may upload files (e.g. a web shell) or delete content.',
  risk: 'low', // inferred from the OPTIONS answer, not proven by writing to the server
  cwe: ['CWE-650'],
  owasp: OWASP.misconfig,
  recommendation: 'Disable WebDAV and every method the application does not need; allow only GET, HEAD and POST on static sites.',
  references: [
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/06-Test_HTTP_Methods',
    cwe(650),
  ],
  tags: ['methods'],
} as const satisfies Check

// ---------------------------------------------------------------- information

export const securityTxtMissing = {
  id: 'website.info.security-txt-missing',
  name: 'No security.txt file',
  description: 'The site publishes no /.well-known/security.txt, the standard place saying how to report vulnerabilities.',
  impact: 'People who find a vulnerability do not know whom to tell, so reports get lost or go public.',
  risk: 'info',
  cwe: [],
  owasp: OWASP.none,
  recommendation: 'Publish /.well-known/security.txt with at least Contact: and Expires: fields (RFC 9116).',
  references: ['https://www.rfc-editor.org/rfc/rfc9116', 'https://securitytxt.org/'],
  tags: ['info'],
} as const satisfies Check

export const robotsDisclosure = {
  id: 'website.info.robots-disclosure',
  name: 'robots.txt lists hidden paths',
  description: 'robots.txt names paths that the site asks crawlers to avoid.',
  impact: 'robots.txt is public: the paths it hides from search engines (admin areas, backups) are a map for attackers.',
  risk: 'info',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation:
    'Do not rely on robots.txt to hide anything; protect sensitive paths with authentication and remove them from robots.txt.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc9309',
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/01-Information_Gathering/03-Review_Webserver_Metafiles_for_Information_Leakage',
  ],
  tags: ['info'],
} as const satisfies Check

// ---------------------------------------------------------------- active (deep scan)

export const xssReflected = {
  id: 'website.injection.xss-reflected',
  name: 'Reflected cross-site scripting (XSS)',
  description: 'A request parameter is written back into the HTML page without encoding, so markup sent in it becomes part of the page.',
  impact:
    "An attacker sends a victim a crafted link; the injected script runs in the victim's session and can steal data or act as the victim.",
  risk: 'high',
  cwe: ['CWE-79'],
  owasp: OWASP.xss,
  recommendation:
    'Encode every parameter for its output context (HTML body, attribute, JavaScript) with the template ' +
    "engine's auto-escaping, and add a strict Content-Security-Policy.",
  references: [
    'https://owasp.org/www-community/attacks/xss/',
    'https://cheatsheetseries.owasp.org/cheatsheets/Cross_Site_Scripting_Prevention_Cheat_Sheet.html',
    cwe(79),
  ],
  tags: ['active', 'xss'],
} as const satisfies Check

export const sqliError = {
  id: 'website.injection.sqli-error',
  name: 'SQL injection (error-based)',
  description:
    'A quote sent in a parameter makes the application return a database syntax error: the parameter is pasted into an SQL statement.',
  impact: 'An attacker can read or change the database contents, bypass logins, and sometimes execute commands on the database server.',
  risk: 'critical',
  cwe: ['CWE-89'],
  owasp: OWASP.injection,
  recommendation: 'Use parameterised queries (prepared statements) for every database access, and do not show database errors to users.',
  references: [
    'https://owasp.org/www-community/attacks/SQL_Injection',
    'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html',
    cwe(89),
  ],
  tags: ['active', 'sqli'],
} as const satisfies Check

export const sqliBoolean = {
  id: 'website.injection.sqli-boolean',
  name: 'SQL injection (boolean-based)',
  description:
    'Appending an always-true condition to a parameter leaves the page unchanged while an always-false one changes it: the parameter is evaluated as SQL.',
  impact: 'An attacker can extract the whole database one bit at a time, bypass authentication and change data.',
  risk: 'critical',
  cwe: ['CWE-89'],
  owasp: OWASP.injection,
  recommendation: 'Use parameterised queries (prepared statements) for every database access; validate parameters by type.',
  references: [
    'https://owasp.org/www-community/attacks/Blind_SQL_Injection',
    'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html',
    cwe(89),
  ],
  tags: ['active', 'sqli'],
} as const satisfies Check

export const pathTraversal = {
  id: 'website.injection.path-traversal',
  name: 'Path traversal (arbitrary file read)',
  description: 'A parameter naming a file accepts ../ sequences or absolute paths, and the server returned a system file (/etc/passwd).',
  impact: 'An attacker reads any file the server process can: source code, configuration, credentials and keys.',
  risk: 'high',
  cwe: ['CWE-22'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Map user input to an allow-list of files or identifiers; if paths are needed, resolve them and check that they stay inside the intended folder.',
  references: ['https://owasp.org/www-community/attacks/Path_Traversal', cwe(22)],
  tags: ['active', 'files'],
} as const satisfies Check

export const openRedirect = {
  id: 'website.injection.open-redirect',
  name: 'Open redirect',
  description: 'A parameter decides where the site redirects to, and any external URL is accepted.',
  impact: 'Attackers send links on the trusted domain that land on their phishing site, and may steal OAuth tokens passed along redirects.',
  risk: 'medium',
  cwe: ['CWE-601'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Redirect only to relative paths or to an allow-list of destinations; map destinations to identifiers instead of taking URLs.',
  references: ['https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html', cwe(601)],
  tags: ['active'],
} as const satisfies Check

export const osCommand = {
  id: 'website.injection.os-command',
  name: 'OS command injection (time-based)',
  description:
    'A shell command separator followed by "sleep" in a parameter delays the answer by the requested time: the parameter reaches a shell.',
  impact: 'An attacker runs any command on the server with the privileges of the web application and takes the server over.',
  risk: 'critical',
  cwe: ['CWE-78'],
  owasp: OWASP.injection,
  recommendation:
    'Never build shell commands from input: call programs with an argument array (execFile/spawn without ' +
    'a shell) and validate arguments against an allow-list.',
  references: [
    'https://owasp.org/www-community/attacks/Command_Injection',
    'https://cheatsheetseries.owasp.org/cheatsheets/OS_Command_Injection_Defense_Cheat_Sheet.html',
    cwe(78),
  ],
  tags: ['active', 'rce'],
} as const satisfies Check

export const ssti = {
  id: 'website.injection.ssti',
  name: 'Server-side template injection',
  description: 'A template expression sent in a parameter (e.g. {{7*191}}) is evaluated by the server (the page shows 1337).',
  impact: 'Template engines usually reach the host language: an attacker can read server data and often execute code on the server.',
  risk: 'critical',
  cwe: ['CWE-1336'],
  owasp: OWASP.injection,
  recommendation:
    'Never build templates from user input; pass input to templates as data, and use a sandboxed engine where users must write templates.',
  references: ['https://portswigger.net/web-security/server-side-template-injection', cwe(1336)],
  tags: ['active', 'rce'],
} as const satisfies Check

export const lightChecks = [
  cspMissing,
  cspUnsafe,
  hstsMissing,
  hstsWeak,
  clickjacking,
  xctoMissing,
  referrerPolicyMissing,
  permissionsPolicyMissing,
  cookieSecure,
  cookieHttpOnly,
  cookieSameSite,
  serverVersion,
  poweredBy,
  generatorMeta,
  httpNoRedirect,
  basicAuthOverHttp,
  passwordOverHttp,
  corsWildcardCredentials,
  corsReflected,
  directoryListing,
  gitExposed,
  scmExposed,
  envExposed,
  dsStore,
  backupExposed,
  phpinfoExposed,
  serverStatus,
  traceEnabled,
  unsafeMethods,
  securityTxtMissing,
  robotsDisclosure,
] as const satisfies readonly Check[]

export const activeChecks = [
  xssReflected,
  sqliError,
  sqliBoolean,
  pathTraversal,
  openRedirect,
  osCommand,
  ssti,
] as const satisfies readonly Check[]

export const websiteScannerChecks = [...lightChecks, ...activeChecks] as const satisfies readonly Check[]
