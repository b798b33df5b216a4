// Find Virtual Hosts checks (tool 160): what a name answering on the target's address means. When a
// name is a virtual host is decided in detect/; this file only says what each finding is.
import { OWASP, type Check } from '../../toolkit/check.js'

const WSTG = 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing'

export const vhostDiscovered = {
  id: 'vhost.discovered',
  name: 'Virtual host found',
  description:
    'The web server on the target address serves a site of its own for this name: its answer differs from the ' +
    "answer to the address's default name and from the answer to a random name.",
  impact:
    'Every virtual host is attack surface of its own. Sites reachable only by name are easily forgotten in ' +
    'inventories, patching and monitoring.',
  risk: 'info',
  cwe: [],
  owasp: OWASP.none,
  recommendation:
    'Check that every virtual host listed is known, maintained and meant to be reachable from where the scan ran; remove the ones that are not.',
  references: [`${WSTG}/01-Information_Gathering/04-Enumerate_Applications_on_Webserver`],
  tags: ['vhost', 'inventory'],
} as const satisfies Check

export const vhostInternalExposed = {
  id: 'vhost.internal-exposed',
  name: 'Internal virtual host answers on a public address',
  description:
    'A virtual host whose name marks it as internal, development, staging, test or administration ' +
    '(dev., staging., admin., intranet. ...) answers on the target address, to anyone who sends its name.',
  impact:
    'Development and staging sites often run debug modes, old code, default or shared credentials and test data ' +
    'copied from production; administration and intranet sites were built for a trusted network. Reachable from ' +
    'outside, they are usually the weakest door into the organisation, and hiding them by name only protects nothing: ' +
    'names leak through certificates, DNS and guessing.',
  risk: 'medium',
  cwe: ['CWE-668'], // Exposure of Resource to Wrong Sphere
  owasp: OWASP.misconfig,
  recommendation:
    'Serve internal, development and administration sites only on internal addresses or behind the VPN, or restrict ' +
    'them by source address and authentication in the web server; remove server blocks of sites that are no longer used.',
  references: [
    `${WSTG}/01-Information_Gathering/04-Enumerate_Applications_on_Webserver`,
    'https://cwe.mitre.org/data/definitions/668.html',
  ],
  tags: ['vhost', 'exposure', 'misconfiguration'],
} as const satisfies Check

export const vhostFinderChecks: readonly Check[] = [vhostDiscovered, vhostInternalExposed]
