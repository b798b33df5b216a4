// Pure: which kind of exposure a discovered path is, and how risky. No I/O.
// Only an answer that hands out content (2xx) exposes a file; a 401 still shows an admin login is
// reachable; anything else (403, redirects) is a plain discovery.
import type { Check, Risk } from '../../../toolkit/check.js'
import { adminPanelExposure, backupExposure, configExposure, debugExposure, vcsExposure } from '../checks.js'

export interface Classification {
  check: Check
  risk: Risk
}

const VCS_DIRS = new Set(['.git', '.svn', '.hg', '.bzr', '_darcs'])
const CVS_FILES = /(^|\/)cvs\/(root|entries|repository)$/

// Configuration and secrets, by file name (lower case). High: files that hold secrets by design.
const CONFIG_HIGH = [
  /^\.env(?!\.(example|sample|dist)$)(\..+)?$/,
  /^\.htpasswd/,
  /^(id_rsa|id_dsa|id_ecdsa|id_ed25519)(\..*)?$/,
  /^(credentials|secrets)\.(json|ya?ml|xml|ini)$/,
  /^\.(netrc|pypirc|npmrc|git-credentials|pgpass)$/,
  /^sftp-config\.json$/,
  /^\.ftpconfig$/,
  // Copies of server-side code that hold database passwords: served as text, not executed.
  new RegExp(
    String.raw`^(wp-config|config|config\.inc|configuration|settings|localsettings|database|db|conn(ect(ion)?)?|local_settings)` +
      String.raw`\.(php|inc|py|rb|asp|aspx)(\.(bak|old|orig|save|swp|tmp|txt|copy|backup|bk)|~)$`,
  ),
  /^\.(wp-config|config|configuration|settings)\.php\.sw[op]$/,
]
const CONFIG_MEDIUM = [
  /^\.env\.(example|sample|dist)$/,
  /^\.htaccess/,
  /^web\.config/,
  /^\.user\.ini$/,
  /^app\.config$/,
  /^appsettings(\.[a-z]+)?\.json$/,
  /^application(-[a-z]+)?\.(properties|ya?ml)$/,
  /^config\.(json|ya?ml|xml|ini|toml)$/,
  /^(settings|local_settings)\.py$/,
  /^(database|parameters|secrets)\.ya?ml$/,
  /^docker-compose\.ya?ml$/,
  /^\.(bash|zsh|mysql|psql)_history$/,
  /^\.dockerenv$/,
  /^\.ds_store$/,
]
const CONFIG_PATHS_HIGH = [/(^|\/)\.aws\/credentials$/, /(^|\/)\.ssh\/(id_[a-z0-9]+|authorized_keys)$/, /(^|\/)\.docker\/config\.json$/]

const ARCHIVE_OR_DUMP =
  /\.(zip|tar|tar\.gz|tgz|tar\.bz2|tbz2?|gz|bz2|xz|7z|rar|war|jar|sql|sql\.gz|sql\.zip|dump|sqlite3?|db|mdb|bak\.sql)$/
const BACKUP_COPY = /(\.(bak|bk|bck|bkp|backup|old|orig|save|saved|swp|swo|tmp|temp|copy|prev)|~)$/

const DEBUG_HIGH = [/^actuator\/(env|heapdump|threaddump|configprops|logfile|httptrace|trace|jolokia|gateway)$/, /(^|\/)heapdump$/]
const DEBUG_MEDIUM = [
  /(^|\/)(phpinfo|php_info|info|pi|i)\.php$/,
  /^phpinfo$/,
  /^server-(status|info)$/,
  /^nginx_status$/,
  /^actuator(\/(?!health$|info$)[a-z]+)?$/, // health and info are meant to be public
  /^(trace|elmah)\.axd$/,
  /^(__debug__|_debug|debug\.php)$/,
  /^_profiler(\/.*)?$/,
  /^(telescope|horizon)$/,
  /^(jmx-console|web-console|invoker\/jmxinvokerservlet)$/,
  /^_status$/,
]

const ADMIN_MEDIUM =
  /^(phpmyadmin|pma|myadmin|mysqladmin|sqladmin|pgadmin|phppgadmin|adminer|adminer\.php|manager\/html|host-manager\/html|jenkins|solr\/admin|jmx-console)$/
const ADMIN_LOW = new Set([
  'admin',
  'admin.php',
  'admin.html',
  'administrator',
  'admincp',
  'adminpanel',
  'admin-console',
  'admin_area',
  'webadmin',
  'siteadmin',
  'controlpanel',
  'cpanel',
  'wp-admin',
  'wp-login.php',
  'moderator',
  'typo3',
  'umbraco',
  'grafana',
  'kibana',
  'rabbitmq',
  'backoffice',
  'bitrix',
])

const stripSlashes = (p: string) => p.replace(/^\/+|\/+$/g, '')

function decode(p: string): string {
  try {
    return decodeURIComponent(p)
  } catch {
    return p
  }
}

/** The exposure kind of `path` (relative to the base URL) answered with `status`; null for a plain discovery. */
export function classify(path: string, status: number): Classification | null {
  const p = stripSlashes(decode(path)).toLowerCase()
  const segments = p.split('/')
  const name = segments[segments.length - 1] ?? ''
  const ok = status >= 200 && status < 300

  if (ok && (segments.some((s) => VCS_DIRS.has(s)) || CVS_FILES.test(p))) return { check: vcsExposure, risk: 'high' }

  if (ok) {
    if (CONFIG_HIGH.some((r) => r.test(name)) || CONFIG_PATHS_HIGH.some((r) => r.test(p))) return { check: configExposure, risk: 'high' }
    if (CONFIG_MEDIUM.some((r) => r.test(name))) return { check: configExposure, risk: 'medium' }
    if (ARCHIVE_OR_DUMP.test(name)) return { check: backupExposure, risk: 'high' }
    if (BACKUP_COPY.test(name) || /^\..+\.sw[op]$/.test(name)) return { check: backupExposure, risk: 'medium' }
    if (DEBUG_HIGH.some((r) => r.test(p))) return { check: debugExposure, risk: 'high' }
    if (DEBUG_MEDIUM.some((r) => r.test(p))) return { check: debugExposure, risk: 'medium' }
  }

  if (ok || status === 401) {
    if (ADMIN_MEDIUM.test(p) || segments.some((s) => ADMIN_MEDIUM.test(s))) return { check: adminPanelExposure, risk: 'medium' }
    if (segments.some((s) => ADMIN_LOW.has(s))) return { check: adminPanelExposure, risk: 'low' }
  }
  return null
}
