// Checks of the Subdomain Finder (tool 20): DNS exposure, email anti-spoofing policy, takeover risk.
import { OWASP, type Check } from '../../toolkit/check.js'

const SPF_RFC = 'https://www.rfc-editor.org/rfc/rfc7208'
const DMARC_RFC = 'https://www.rfc-editor.org/rfc/rfc7489'
const CWE_290 = 'https://cwe.mitre.org/data/definitions/290.html'

export const dnsSubdomainFound = {
  id: 'subdomain.dns.subdomain-found',
  name: 'Subdomain found',
  description: "The name exists in DNS under the scanned domain (found by brute force, zone transfer or the domain's own records).",
  impact: 'Each subdomain is a host to attack; forgotten ones (old test, staging or admin systems) are often the weakest.',
  risk: 'info',
  cwe: [],
  owasp: OWASP.none,
  recommendation: 'Keep an inventory of your DNS names; remove the records of systems that are no longer used.',
  references: [
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/01-Information_Gathering/04-Enumerate_Applications_on_Webserver',
  ],
  tags: ['dns', 'recon'],
} as const satisfies Check

export const dnsWildcard = {
  id: 'subdomain.dns.wildcard',
  name: 'Wildcard DNS record',
  description:
    'Random names under the domain resolve, so the zone has a wildcard record (*.domain). Brute-force results equal to the wildcard answer were discarded.',
  impact:
    'Every mistyped or invented name reaches the wildcard host; phishing pages and cookie-scoped attacks can use arbitrary names, ' +
    'and a takeover of the wildcard target exposes every name at once.',
  risk: 'info',
  cwe: [],
  owasp: OWASP.none,
  recommendation:
    'Use explicit records for the names you serve unless the wildcard is deliberate, and make sure its target stays under your control.',
  references: ['https://www.rfc-editor.org/rfc/rfc4592'],
  tags: ['dns', 'wildcard'],
} as const satisfies Check

export const dnsAxfrAllowed = {
  id: 'subdomain.dns.axfr-allowed',
  name: 'DNS zone transfer (AXFR) allowed to anyone',
  description: 'A name server of the domain sent the whole zone to the scanner in answer to an AXFR request.',
  impact:
    'The zone lists every host name, internal address, mail and service record at once: a complete map of the network for ' +
    'an attacker, including systems never meant to be found.',
  risk: 'medium',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Allow zone transfers only to your secondary servers, authenticated with TSIG (BIND: allow-transfer { key xfr-key; };).',
  references: [
    'https://cisa.gov/uscert/ncas/alerts/TA15-103A',
    'https://www.rfc-editor.org/rfc/rfc5936',
    'https://nvd.nist.gov/vuln/detail/CVE-1999-0532',
  ],
  cve: ['CVE-1999-0532'],
  tags: ['dns', 'axfr', 'information-disclosure'],
} as const satisfies Check

export const dnsSpfMissing = {
  id: 'subdomain.dns.spf-missing',
  name: 'No SPF record',
  description: 'The domain publishes no SPF (v=spf1) TXT record, so receivers cannot tell which servers may send its mail.',
  impact: 'Anyone can send mail that claims to come from the domain and pass the checks receivers make, for phishing and fraud.',
  risk: 'medium',
  cwe: ['CWE-290'],
  owasp: OWASP.misconfig,
  recommendation:
    'Publish an SPF record that lists your senders and ends in -all (e.g. "v=spf1 mx include:_spf.mailprovider.example -all"); ' +
    'a domain that sends no mail publishes "v=spf1 -all".',
  references: [SPF_RFC, 'https://www.cisa.gov/news-events/directives/bod-18-01-enhance-email-and-web-security', CWE_290],
  tags: ['dns', 'email', 'spoofing'],
} as const satisfies Check

export const dnsSpfWeak = {
  id: 'subdomain.dns.spf-weak',
  name: 'Permissive or invalid SPF record',
  description:
    'The SPF record does not reject unlisted senders (+all, ?all or no "all"), or the domain publishes ' +
    'several SPF records, which makes SPF fail for every message.',
  impact: "Mail forged in the domain's name is accepted as legitimate (+all even makes forged mail pass SPF).",
  risk: 'medium',
  cwe: ['CWE-290'],
  owasp: OWASP.misconfig,
  recommendation: 'Publish exactly one SPF record and end it with -all (or ~all while you roll it out).',
  references: [SPF_RFC, 'https://www.rfc-editor.org/rfc/rfc7208#section-5.1', CWE_290],
  tags: ['dns', 'email', 'spoofing'],
} as const satisfies Check

export const dnsDmarcMissing = {
  id: 'subdomain.dns.dmarc-missing',
  name: 'No DMARC record',
  description: 'The domain publishes no DMARC (v=DMARC1) record at _dmarc.<domain>.',
  impact:
    'Receivers have no instruction to reject mail whose visible From: address forges the domain, and the owner gets no reports of abuse.',
  risk: 'medium',
  cwe: ['CWE-290'],
  owasp: OWASP.misconfig,
  recommendation: 'Publish "v=DMARC1; p=none; rua=mailto:..." to collect reports, then move to p=quarantine and p=reject.',
  references: [DMARC_RFC, 'https://www.cisa.gov/news-events/directives/bod-18-01-enhance-email-and-web-security', CWE_290],
  tags: ['dns', 'email', 'spoofing'],
} as const satisfies Check

export const dnsDmarcWeak = {
  id: 'subdomain.dns.dmarc-weak',
  name: 'DMARC policy does not enforce',
  description:
    'The DMARC record only monitors (p=none), applies its policy to part of the mail (pct below 100), has no policy, or is published more than once.',
  impact: 'Mail that fails DMARC, including mail forging the domain, is still delivered.',
  risk: 'low',
  cwe: ['CWE-290'],
  owasp: OWASP.misconfig,
  recommendation: 'Once the reports show your legitimate mail passing, set p=quarantine or p=reject with pct=100.',
  references: [DMARC_RFC, 'https://www.rfc-editor.org/rfc/rfc7489#section-6.3', CWE_290],
  tags: ['dns', 'email', 'spoofing'],
} as const satisfies Check

export const dnsDanglingCname = {
  id: 'subdomain.dns.dangling-cname',
  name: 'Dangling CNAME (possible subdomain takeover)',
  description: 'The subdomain is a CNAME to a name that does not exist (NXDOMAIN).',
  impact:
    'Whoever registers the missing name (a cloud app, bucket, page or the expired domain) serves content under your subdomain: ' +
    'phishing, cookie theft and bypass of same-site protections.',
  risk: 'high',
  cwe: ['CWE-672'],
  owasp: OWASP.misconfig,
  recommendation:
    'Delete the CNAME, or re-claim the resource it points to; remove DNS records before deprovisioning the service behind them.',
  references: [
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/10-Test_for_Subdomain_Takeover',
    'https://developer.mozilla.org/en-US/docs/Web/Security/Subdomain_takeovers',
    'https://github.com/EdOverflow/can-i-take-over-xyz',
  ],
  tags: ['dns', 'takeover'],
} as const satisfies Check

export const subdomainFinderChecks = [
  dnsSubdomainFound,
  dnsWildcard,
  dnsAxfrAllowed,
  dnsSpfMissing,
  dnsSpfWeak,
  dnsDmarcMissing,
  dnsDmarcWeak,
  dnsDanglingCname,
] as const satisfies readonly Check[]
