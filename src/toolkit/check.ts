// A check is catalogue data: what a problem means. Tools decide *when* it fails; this says *what* it is.
// Shared by every tool (web, network, TLS, DNS): one catalogue, one shape.

export type Risk = 'info' | 'low' | 'medium' | 'high' | 'critical'

export const RISK_LEVEL: Readonly<Record<Risk, number>> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 }

export type Check = Readonly<{
  /** '<tool>.<area>.<slug>', never renamed once shipped; becomes the finding's vuln_id. */
  id: string
  /** The finding's name: a short title ("Missing Content-Security-Policy header"). */
  name: string
  /** What is wrong (vuln_description). */
  description: string
  /** What an attacker could do with it (risk_description). */
  impact: string
  risk: Risk
  /** 'CWE-693' style ids; the first one is the finding's `cwe`. */
  cwe: readonly `CWE-${number}`[]
  owasp: Readonly<{ '2017'?: string; '2021'?: string; '2025'?: string }>
  /** One actionable paragraph (recommendation). */
  recommendation: string
  references: readonly string[]
  /** CVE ids that always apply to this check (version checks add theirs per finding). */
  cve?: readonly string[]
  tags?: readonly string[]
}>

/** OWASP Top 10 category strings, written once so checks do not retype them. */
export const OWASP = {
  misconfig: {
    '2017': 'A6:2017-Security Misconfiguration',
    '2021': 'A05:2021-Security Misconfiguration',
    '2025': 'A02:2025-Security Misconfiguration',
  },
  injection: {
    '2017': 'A1:2017-Injection',
    '2021': 'A03:2021-Injection',
    '2025': 'A05:2025-Injection',
  },
  xss: {
    '2017': 'A7:2017-Cross-Site Scripting (XSS)',
    '2021': 'A03:2021-Injection',
    '2025': 'A05:2025-Injection',
  },
  brokenAccess: {
    '2017': 'A5:2017-Broken Access Control',
    '2021': 'A01:2021-Broken Access Control',
    '2025': 'A01:2025-Broken Access Control',
  },
  sensitiveData: {
    '2017': 'A3:2017-Sensitive Data Exposure',
    '2021': 'A02:2021-Cryptographic Failures',
    '2025': 'A04:2025-Cryptographic Failures',
  },
  vulnerableComponents: {
    '2017': 'A9:2017-Using Components with Known Vulnerabilities',
    '2021': 'A06:2021-Vulnerable and Outdated Components',
    '2025': 'A03:2025-Software Supply Chain Failures',
  },
  authFailures: {
    '2017': 'A2:2017-Broken Authentication',
    '2021': 'A07:2021-Identification and Authentication Failures',
    '2025': 'A07:2025-Authentication Failures',
  },
  ssrf: {
    '2017': '',
    '2021': 'A10:2021-Server-Side Request Forgery (SSRF)',
    '2025': 'A01:2025-Broken Access Control',
  },
  none: {},
} as const satisfies Record<string, Check['owasp']>
