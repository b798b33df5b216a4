// The diagnostic tool's one check: a sample finding with no meaning outside engine tests.
import { OWASP, type Check } from '../../toolkit/check.js'

export const diagnosticCheck = {
  id: 'diagnostic.sample',
  name: 'Diagnostic sample finding',
  description: 'A finding recorded by the diagnostic tool.',
  impact: 'None: the diagnostic tool only exercises the scan engine.',
  risk: 'low',
  cwe: ['CWE-1059'],
  owasp: OWASP.none,
  recommendation: 'Nothing to fix.',
  references: ['https://cwe.mitre.org/data/definitions/1059.html'],
} as const satisfies Check

export const diagnosticChecks = [diagnosticCheck] as const satisfies readonly Check[]
