// Drupal Scanner checks (tool 280): what each Drupal weakness means. Core version problems use the
// shared version checks (cve.drupal-drupalgeddon2, cve.drupal-drupalgeddon3, eol.drupal, imported CVEs).
import { OWASP, type Check } from '../../toolkit/check.js'

const SECURITY = 'https://www.drupal.org/docs/security-in-drupal'

export const drupalVersionDisclosed = {
  id: 'drupal.version-disclosed',
  name: 'Drupal version disclosed',
  description: 'The site tells which Drupal version it runs (CHANGELOG.txt, core/CHANGELOG.txt, ?v= of core assets).',
  impact: 'An attacker learns at once which published vulnerabilities apply.',
  risk: 'info',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Keep Drupal up to date; deny the *.txt files of the code base (CHANGELOG.txt, INSTALL.txt ...) in the web server.',
  references: [SECURITY],
  tags: ['drupal', 'disclosure'],
} as const satisfies Check

export const drupalUserEnumeration = {
  id: 'drupal.users.enumeration',
  name: 'Drupal user names can be listed',
  description: 'User profile pages (/user/N) show user names to anonymous visitors.',
  impact: 'An attacker gets real account names (user 1 is the administrator) to aim password guessing at.',
  risk: 'low',
  cwe: ['CWE-203'],
  owasp: OWASP.brokenAccess,
  recommendation: 'Remove the "View user information" permission from anonymous users.',
  references: ['https://www.drupal.org/docs/user_guide/en/user-permissions.html'],
  tags: ['drupal', 'enumeration'],
} as const satisfies Check

export const drupalUpdateExposed = {
  id: 'drupal.update-php-exposed',
  name: 'Drupal update.php open to anyone',
  description: "update.php runs for anonymous visitors ($update_free_access / $settings['update_free_access'] is on).",
  impact: 'Anyone can start database updates, which can break the site or run pending update code at a time of their choosing.',
  risk: 'high',
  cwe: ['CWE-306'],
  owasp: OWASP.brokenAccess,
  recommendation: 'Set update_free_access to FALSE in settings.php; run updates with drush or as an administrator.',
  references: ['https://www.drupal.org/docs/updating-drupal/updating-drupal-core-via-drush'],
  tags: ['drupal', 'exposure'],
} as const satisfies Check

export const drupalInstallExposed = {
  id: 'drupal.install-php-exposed',
  name: 'Drupal installer open',
  description: 'install.php offers to install Drupal: the site is not installed yet, or its settings were lost.',
  impact: 'Whoever runs the installer first sets the administrator account and the database of the site.',
  risk: 'high',
  cwe: ['CWE-306'],
  owasp: OWASP.misconfig,
  recommendation: 'Finish the installation at once, or deny install.php in the web server.',
  references: [SECURITY],
  tags: ['drupal', 'exposure'],
} as const satisfies Check

export const drupalScannerChecks: readonly Check[] = [
  drupalVersionDisclosed,
  drupalUserEnumeration,
  drupalUpdateExposed,
  drupalInstallExposed,
]
