// Website Recon (tool 310) checks. Outdated and vulnerable versions use the shared version checks.
import { OWASP, type Check } from '../../toolkit/check.js'

export const technologiesFound = {
  id: 'recon.technologies',
  name: 'Technologies in use',
  description:
    'The site shows which software it runs (server, language, framework, CMS, JavaScript libraries, ' +
    'analytics, CDN, WAF), through its headers, cookies, markup, scripts and favicon.',
  impact: 'An attacker learns which products and versions to look up exploits for; versions in headers and asset names make it cheaper.',
  risk: 'info',
  cwe: ['CWE-200'], // Exposure of Sensitive Information to an Unauthorized Actor
  owasp: OWASP.misconfig,
  recommendation:
    'Keep what is listed up to date; remove version numbers from Server and X-Powered-By headers and generator tags where the product allows it.',
  references: [
    'https://cwe.mitre.org/data/definitions/200.html',
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/01-Information_Gathering/08-Fingerprint_Web_Application_Framework',
  ],
  tags: ['recon', 'fingerprint'],
} as const satisfies Check

export const websiteReconChecks = [technologiesFound] as const satisfies readonly Check[]
