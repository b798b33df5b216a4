// SharePoint Scanner checks (tool 260): what each SharePoint weakness means. Build problems use the
// shared version checks (cve.sharepoint-*, eol.sharepoint, imported CVEs).
import { OWASP, type Check } from '../../toolkit/check.js'

const ANONYMOUS = 'https://learn.microsoft.com/sharepoint/administration/plan-for-anonymous-access'

export const sharepointVersionDisclosed = {
  id: 'sharepoint.version-disclosed',
  name: 'SharePoint build disclosed',
  description:
    'The server tells its SharePoint build (MicrosoftSharePointTeamServices header, ' +
    '/_vti_pvt/service.cnf or buildversion.cnf), hence its product and update level.',
  impact: 'An attacker learns at once which published vulnerabilities the farm is still open to.',
  risk: 'info',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation:
    'Install the latest SharePoint update; remove the MicrosoftSharePointTeamServices header in IIS (outbound rule) and deny /_vti_pvt/ to anonymous visitors.',
  references: ['https://learn.microsoft.com/officeupdates/sharepoint-updates'],
  tags: ['sharepoint', 'disclosure'],
} as const satisfies Check

export const sharepointWebServicesAnonymous = {
  id: 'sharepoint.vti-bin.anonymous',
  name: 'SharePoint web services answer anonymous visitors',
  description: 'Web services under /_vti_bin/ (Lists.asmx, UserGroup.asmx, spsdisco.aspx ...) answer without credentials.',
  impact: 'Anyone can call the SOAP services of the site: list its lists, webs and, where anonymous access reaches them, users and groups.',
  risk: 'medium',
  cwe: ['CWE-284'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Turn off anonymous access on the web application, or deny /_vti_bin/ to anonymous visitors (Remote Interface permission off, IIS request filtering).',
  references: [ANONYMOUS],
  tags: ['sharepoint', 'exposure'],
} as const satisfies Check

export const sharepointUsersAnonymous = {
  id: 'sharepoint.api.users-anonymous',
  name: 'SharePoint site users listed to anonymous visitors',
  description: 'The REST API (/_api/web/siteusers) gives the site users, with their login names and e-mail addresses, to anyone.',
  impact: 'An attacker gets real domain account names and addresses to aim password guessing and phishing at.',
  risk: 'medium',
  cwe: ['CWE-200', 'CWE-284'],
  owasp: OWASP.brokenAccess,
  recommendation: 'Turn off anonymous access to the REST API (Remote Interface permission) or on the site altogether.',
  references: [ANONYMOUS],
  tags: ['sharepoint', 'enumeration'],
} as const satisfies Check

export const sharepointListsAnonymous = {
  id: 'sharepoint.api.lists-anonymous',
  name: 'SharePoint lists listed to anonymous visitors',
  description: 'The REST API (/_api/web/lists) names the lists and libraries of the site, with item counts, to anyone.',
  impact: 'An attacker sees what the site holds and where to look for documents left readable.',
  risk: 'low',
  cwe: ['CWE-200'],
  owasp: OWASP.brokenAccess,
  recommendation: 'Turn off anonymous access to the REST API, or limit anonymous access to the lists meant to be public.',
  references: [ANONYMOUS],
  tags: ['sharepoint', 'enumeration'],
} as const satisfies Check

export const sharepointLayoutsExposed = {
  id: 'sharepoint.layouts.exposed',
  name: 'SharePoint application pages open to anonymous visitors',
  description: 'Application pages under /_layouts/ (site contents, people, settings) show their content without credentials.',
  impact: 'Anyone can browse the structure of the site, its members and groups, and its settings pages.',
  risk: 'low',
  cwe: ['CWE-284'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Turn on the ViewFormPagesLockdown feature (limited-access user permission lockdown mode) on sites open to anonymous visitors.',
  references: ['https://learn.microsoft.com/sharepoint/security-for-sharepoint-server/plan-security-hardening'],
  tags: ['sharepoint', 'exposure'],
} as const satisfies Check

export const sharepointScannerChecks: readonly Check[] = [
  sharepointVersionDisclosed,
  sharepointWebServicesAnonymous,
  sharepointUsersAnonymous,
  sharepointListsAnonymous,
  sharepointLayoutsExposed,
]
