// SSL/TLS checks: what each TLS weakness means. Shared protocol data: the SSL/TLS Scanner reports them on
// its one service, the Network Vulnerability Scanner on every TLS port it finds.
import { OWASP, type Check } from '../../../toolkit/check.js'

const cweUrl = (n: number) => `https://cwe.mitre.org/data/definitions/${n}.html`
const nvd = (cve: string) => `https://nvd.nist.gov/vuln/detail/${cve}`
const TLS_CHEAT_SHEET = 'https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html'
const MOZILLA_TLS = 'https://wiki.mozilla.org/Security/Server_Side_TLS'
const MODERN_CONFIG =
  'Allow only TLS 1.2 and TLS 1.3 with AEAD suites (AES-GCM, ChaCha20-Poly1305) and ECDHE key exchange, e.g. the Mozilla "intermediate" configuration.'

// ---- protocol versions ----

export const tlsProtocolSslv2 = {
  id: 'tls.protocol.sslv2',
  name: 'SSLv2 protocol accepted',
  description: 'The server completes an SSLv2 handshake. SSLv2 (1995) was prohibited by RFC 6176 and has no secure configuration.',
  impact:
    'An attacker in the network path can force weak (often 40-bit EXPORT) encryption and break it; a server key usable over SSLv2 also lets ' +
    'an attacker decrypt recorded TLS sessions that use the same RSA key (DROWN).',
  risk: 'high',
  cwe: ['CWE-327'], // Use of a Broken or Risky Cryptographic Algorithm
  owasp: OWASP.sensitiveData,
  recommendation: `Disable SSLv2 on this service and on every service sharing its certificate key. ${MODERN_CONFIG}`,
  references: ['https://datatracker.ietf.org/doc/html/rfc6176', 'https://drownattack.com/', nvd('CVE-2016-0800'), cweUrl(327)],
  cve: ['CVE-2016-0800'],
  tags: ['tls', 'protocol'],
} as const satisfies Check

export const tlsProtocolSslv3 = {
  id: 'tls.protocol.sslv3',
  name: 'SSLv3 protocol accepted',
  description:
    'The server completes an SSLv3 handshake. SSLv3 was deprecated by RFC 7568 because its CBC padding is unauthenticated (POODLE).',
  impact:
    "An attacker in the network path who can make the victim's browser send requests can decrypt secrets such as session cookies byte by byte (POODLE), " +
    'and SSLv3 allows only RC4 or CBC suites, both broken.',
  risk: 'high',
  cwe: ['CWE-327'],
  owasp: OWASP.sensitiveData,
  recommendation: `Disable SSLv3. ${MODERN_CONFIG}`,
  references: [
    'https://datatracker.ietf.org/doc/html/rfc7568',
    nvd('CVE-2014-3566'),
    'https://www.openssl.org/~bodo/ssl-poodle.pdf',
    cweUrl(327),
  ],
  cve: ['CVE-2014-3566'],
  tags: ['tls', 'protocol'],
} as const satisfies Check

export const tlsProtocolTls10 = {
  id: 'tls.protocol.tls10',
  name: 'TLS 1.0 protocol accepted',
  description: 'The server accepts TLS 1.0, deprecated by RFC 8996 (2021): it depends on SHA-1/MD5 and its CBC suites are open to BEAST.',
  impact:
    'Clients that still speak TLS 1.0 get weaker protection (predictable CBC IVs, SHA-1/MD5 handshake hashes); compliance regimes such as ' +
    'PCI DSS forbid it.',
  risk: 'medium',
  cwe: ['CWE-327'],
  owasp: OWASP.sensitiveData,
  recommendation: `Disable TLS 1.0. ${MODERN_CONFIG}`,
  references: ['https://datatracker.ietf.org/doc/html/rfc8996', TLS_CHEAT_SHEET, MOZILLA_TLS, cweUrl(327)],
  tags: ['tls', 'protocol'],
} as const satisfies Check

export const tlsProtocolTls11 = {
  id: 'tls.protocol.tls11',
  name: 'TLS 1.1 protocol accepted',
  description:
    'The server accepts TLS 1.1, deprecated by RFC 8996 (2021): it lacks modern AEAD suites and relies on SHA-1/MD5 in the handshake.',
  impact: 'Clients that negotiate TLS 1.1 get weaker protection than TLS 1.2/1.3 provide; current browsers no longer accept it at all.',
  risk: 'low',
  cwe: ['CWE-327'],
  owasp: OWASP.sensitiveData,
  recommendation: `Disable TLS 1.1. ${MODERN_CONFIG}`,
  references: ['https://datatracker.ietf.org/doc/html/rfc8996', TLS_CHEAT_SHEET, MOZILLA_TLS, cweUrl(327)],
  tags: ['tls', 'protocol'],
} as const satisfies Check

// ---- cipher suites (one check per weakness class) ----

export const tlsCipherNull = {
  id: 'tls.cipher.null',
  name: 'NULL cipher suites accepted (no encryption)',
  description: 'The server accepts cipher suites with NULL encryption: the connection is authenticated but the data travels in cleartext.',
  impact: 'Anyone in the network path can read everything sent over a connection that negotiates one of these suites.',
  risk: 'high',
  cwe: ['CWE-319', 'CWE-327'], // Cleartext Transmission of Sensitive Information
  owasp: OWASP.sensitiveData,
  recommendation: `Remove the NULL suites from the server's cipher list (OpenSSL: add !eNULL). ${MODERN_CONFIG}`,
  references: [TLS_CHEAT_SHEET, MOZILLA_TLS, cweUrl(319)],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherAnonymous = {
  id: 'tls.cipher.anonymous',
  name: 'Anonymous cipher suites accepted (no server authentication)',
  description: 'The server accepts anonymous Diffie-Hellman suites (ADH/AECDH), in which it never proves its identity with a certificate.',
  impact:
    'An attacker in the network path can impersonate the server and read or change the traffic of clients that negotiate these suites.',
  risk: 'high',
  cwe: ['CWE-287', 'CWE-327'], // Improper Authentication
  owasp: OWASP.sensitiveData,
  recommendation: `Remove the anonymous suites from the server's cipher list (OpenSSL: add !aNULL). ${MODERN_CONFIG}`,
  references: [TLS_CHEAT_SHEET, MOZILLA_TLS, cweUrl(287)],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherExport = {
  id: 'tls.cipher.export',
  name: 'EXPORT-grade cipher suites accepted',
  description: 'The server accepts 1990s export-grade suites (40/56-bit keys, 512-bit RSA or DH key exchange).',
  impact:
    'An attacker in the network path can downgrade connections to export-grade keys and break them in hours or less (FREAK, Logjam), then ' +
    'read and change the traffic.',
  risk: 'high',
  cwe: ['CWE-326', 'CWE-327'], // Inadequate Encryption Strength
  owasp: OWASP.sensitiveData,
  recommendation: `Remove every EXPORT suite (OpenSSL: add !EXP) and use DH groups of at least 2048 bits. ${MODERN_CONFIG}`,
  references: [nvd('CVE-2015-0204'), nvd('CVE-2015-4000'), 'https://weakdh.org/', cweUrl(326)],
  cve: ['CVE-2015-0204', 'CVE-2015-4000'],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherRc4 = {
  id: 'tls.cipher.rc4',
  name: 'RC4 cipher suites accepted',
  description: 'The server accepts RC4 suites, prohibited by RFC 7465 because of statistical biases in the RC4 keystream.',
  impact: 'With enough encryptions of the same secret (cookies, passwords), an attacker observing traffic can recover it.',
  risk: 'medium',
  cwe: ['CWE-327'],
  owasp: OWASP.sensitiveData,
  recommendation: `Remove RC4 from the server's cipher list (OpenSSL: add !RC4). ${MODERN_CONFIG}`,
  references: ['https://datatracker.ietf.org/doc/html/rfc7465', nvd('CVE-2013-2566'), nvd('CVE-2015-2808'), cweUrl(327)],
  cve: ['CVE-2013-2566', 'CVE-2015-2808'],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherDes = {
  id: 'tls.cipher.des',
  name: 'DES/3DES or other 64-bit block cipher suites accepted',
  description:
    'The server accepts suites built on DES, 3DES, IDEA or RC2: single DES is brute-forceable and all of them use 64-bit blocks.',
  impact:
    'On long-lived connections an attacker observing traffic can recover plaintext from 64-bit block collisions (SWEET32); single DES keys ' +
    'can be brute-forced outright.',
  risk: 'medium',
  cwe: ['CWE-327', 'CWE-326'],
  owasp: OWASP.sensitiveData,
  recommendation: `Remove DES, 3DES, IDEA and RC2 suites (OpenSSL: add !3DES:!DES:!IDEA:!RC2). ${MODERN_CONFIG}`,
  references: ['https://sweet32.info/', nvd('CVE-2016-2183'), MOZILLA_TLS, cweUrl(327)],
  cve: ['CVE-2016-2183'],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherCbcTls10 = {
  id: 'tls.cipher.cbc-tls10',
  name: 'CBC cipher suites accepted over SSLv3/TLS 1.0',
  description:
    'The server negotiates CBC-mode suites under SSLv3 or TLS 1.0, whose chained initialisation vectors are predictable (BEAST).',
  impact:
    "An attacker in the network path who can inject chosen plaintext into the victim's connection can decrypt secrets such as cookies.",
  risk: 'low',
  cwe: ['CWE-327'],
  owasp: OWASP.sensitiveData,
  recommendation: `Disable SSLv3 and TLS 1.0; where TLS 1.0 must stay for a while, prefer AEAD suites on TLS 1.2+. ${MODERN_CONFIG}`,
  references: [nvd('CVE-2011-3389'), 'https://datatracker.ietf.org/doc/html/rfc8996', cweUrl(327)],
  cve: ['CVE-2011-3389'],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherCbc = {
  id: 'tls.cipher.cbc',
  name: 'CBC cipher suites accepted over TLS 1.1/1.2 (Lucky Thirteen class)',
  description:
    'The server negotiates CBC-mode suites under TLS 1.1 or TLS 1.2. These suites authenticate before they encrypt (MAC-then-encrypt), ' +
    'so decryption time depends on the padding: the Lucky Thirteen class of padding-oracle attacks, which keeps coming back in implementations.',
  impact:
    "Where the TLS library's constant-time countermeasures are incomplete, an attacker in the network path who can make the client resend a " +
    'secret can recover it from timing differences; AEAD suites have no such oracle.',
  risk: 'low',
  cwe: ['CWE-327', 'CWE-208'], // Observable Timing Discrepancy
  owasp: OWASP.sensitiveData,
  recommendation: `Prefer AEAD suites and drop CBC ones where clients allow (OpenSSL: keep only ECDHE+AESGCM and ECDHE+CHACHA20). ${MODERN_CONFIG}`,
  references: [
    nvd('CVE-2013-0169'),
    'https://www.isg.rhul.ac.uk/tls/Lucky13.html',
    'https://datatracker.ietf.org/doc/html/rfc7457',
    cweUrl(208),
  ],
  cve: ['CVE-2013-0169'],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherNoForwardSecrecy = {
  id: 'tls.cipher.no-forward-secrecy',
  name: 'Cipher suites without forward secrecy accepted',
  description:
    'The server accepts suites with a static key exchange (RSA key transport, fixed DH/ECDH, PSK or Kerberos): the session keys follow ' +
    'from a long-term key instead of ephemeral (EC)DHE keys.',
  impact:
    "Anyone who records traffic today and later obtains the server's private key (theft, legal order, a future Heartbleed) can decrypt every " +
    'recorded session that used these suites.',
  risk: 'low',
  cwe: ['CWE-327'],
  owasp: OWASP.sensitiveData,
  recommendation: `Remove the static RSA/DH/ECDH suites (OpenSSL: add !kRSA:!kDH:!kECDH:!PSK) so that every connection uses ECDHE or DHE. ${MODERN_CONFIG}`,
  references: ['https://datatracker.ietf.org/doc/html/rfc7525#section-6.3', TLS_CHEAT_SHEET, MOZILLA_TLS, cweUrl(327)],
  tags: ['tls', 'cipher'],
} as const satisfies Check

export const tlsCipherWeakDh = {
  id: 'tls.cipher.weak-dh',
  name: 'Weak Diffie-Hellman group (under 2048 bits)',
  description: 'For its DHE suites the server sends a finite-field Diffie-Hellman group smaller than 2048 bits.',
  impact:
    'Groups of 1024 bits and less are within reach of well-resourced attackers, who can precompute a common prime once and then break ' +
    'individual key exchanges (Logjam); smaller groups fall to anyone.',
  risk: 'medium',
  cwe: ['CWE-326'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Use a DH group of at least 2048 bits (e.g. the RFC 7919 ffdhe2048 group) or drop DHE in favour of ECDHE.',
  references: ['https://weakdh.org/', nvd('CVE-2015-4000'), 'https://datatracker.ietf.org/doc/html/rfc7919', cweUrl(326)],
  tags: ['tls', 'cipher'],
} as const satisfies Check

// ---- certificate ----

const CERT_REFS = ['https://datatracker.ietf.org/doc/html/rfc5280', 'https://cabforum.org/baseline-requirements-documents/']

export const tlsCertExpired = {
  id: 'tls.cert.expired',
  name: 'Certificate has expired',
  description: 'A certificate the server presents is past its notAfter date.',
  impact:
    "Clients reject the connection or show a warning users learn to click through, which trains them to accept an attacker's certificate too.",
  risk: 'medium',
  cwe: ['CWE-324', 'CWE-295'], // Use of a Key Past its Expiration Date
  owasp: OWASP.sensitiveData,
  recommendation: 'Renew the certificate now and automate renewal (e.g. ACME) with monitoring of the expiry date.',
  references: [...CERT_REFS, cweUrl(324)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertNotYetValid = {
  id: 'tls.cert.not-yet-valid',
  name: 'Certificate is not yet valid',
  description: 'A certificate the server presents has a notBefore date in the future.',
  impact: "Clients reject the connection or warn; users who click through can no longer tell a genuine certificate from an attacker's.",
  risk: 'medium',
  cwe: ['CWE-295'], // Improper Certificate Validation
  owasp: OWASP.sensitiveData,
  recommendation: 'Install a certificate whose validity period has started, and check the clock of the machine that issued it.',
  references: [...CERT_REFS, cweUrl(295)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertExpiringSoon = {
  id: 'tls.cert.expiring-soon',
  name: 'Certificate expires within 30 days',
  description: 'A certificate the server presents expires within the next 30 days.',
  impact: 'If it is not renewed in time, clients will refuse the service or warn their users.',
  risk: 'low',
  cwe: ['CWE-324'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Renew the certificate before it expires and automate renewal (e.g. ACME) with expiry monitoring.',
  references: [...CERT_REFS, cweUrl(324)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertSelfSigned = {
  id: 'tls.cert.self-signed',
  name: 'Self-signed certificate',
  description: "The server's certificate is signed by its own key, so no certificate authority vouches for it.",
  impact:
    'Clients cannot tell it from a certificate an attacker generates; users learn to accept warnings, enabling man-in-the-middle attacks.',
  risk: 'medium',
  cwe: ['CWE-295'],
  owasp: OWASP.sensitiveData,
  recommendation:
    'Use a certificate issued by a publicly trusted CA (or, for internal services, by an internal CA that clients are configured to trust).',
  references: [...CERT_REFS, cweUrl(295)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertUntrusted = {
  id: 'tls.cert.untrusted',
  name: 'Certificate chain is not trusted',
  description:
    'The certificate chain does not lead to a root in the trust store (unknown CA, or intermediate certificates missing from the chain).',
  impact: "Clients reject the connection or warn; an attacker's certificate would look the same to users who click through.",
  risk: 'medium',
  cwe: ['CWE-296', 'CWE-295'], // Improper Following of a Certificate's Chain of Trust
  owasp: OWASP.sensitiveData,
  recommendation: 'Serve a certificate from a trusted CA together with all intermediate certificates, in order, leaf first.',
  references: [...CERT_REFS, cweUrl(296)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertHostnameMismatch = {
  id: 'tls.cert.hostname-mismatch',
  name: 'Certificate does not match the host name',
  description:
    'Neither the subject alternative names nor the common name of the certificate cover the name (or IP address) that was scanned.',
  impact: "Clients reject the connection or warn; users who click through can be served an attacker's certificate for any name.",
  risk: 'medium',
  cwe: ['CWE-297'], // Improper Validation of Certificate with Host Mismatch
  owasp: OWASP.sensitiveData,
  recommendation: 'Issue a certificate whose subjectAltName lists every name (and IP address) clients use to reach this service.',
  references: ['https://datatracker.ietf.org/doc/html/rfc6125', ...CERT_REFS, cweUrl(297)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertWeakKey = {
  id: 'tls.cert.weak-key',
  name: 'Certificate uses a weak key',
  description: 'A certificate the server presents has a public key below current minimums (RSA/DSA under 2048 bits, EC under 224 bits).',
  impact: 'A well-resourced attacker can factor or break the key and impersonate the server or decrypt recorded RSA key exchanges.',
  risk: 'medium',
  cwe: ['CWE-326'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Issue a new certificate with an RSA key of at least 2048 bits (3072 recommended) or an ECDSA P-256/P-384 key.',
  references: ['https://csrc.nist.gov/publications/detail/sp/800-131a/rev-2/final', ...CERT_REFS, cweUrl(326)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertWeakSignature = {
  id: 'tls.cert.weak-signature',
  name: 'Certificate signed with a weak hash (SHA-1/MD5)',
  description: 'A certificate the server presents (other than a root) is signed with SHA-1 or MD5.',
  impact: 'Chosen-prefix collisions on SHA-1 and MD5 are practical, so an attacker can obtain a forged certificate with a valid signature.',
  risk: 'medium',
  cwe: ['CWE-328', 'CWE-327'], // Use of Weak Hash
  owasp: OWASP.sensitiveData,
  recommendation: 'Reissue the certificate (and any intermediate) with a SHA-256 or stronger signature.',
  references: ['https://shattered.io/', 'https://csrc.nist.gov/publications/detail/sp/800-131a/rev-2/final', cweUrl(328)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertShortSerial = {
  id: 'tls.cert.short-serial',
  name: 'Certificate serial number shorter than 64 bits',
  description:
    "The serial number of the server's certificate has fewer than 8 bytes. The CA/Browser Forum requires at least 64 bits of random output " +
    'in serial numbers, which makes the content of a certificate unpredictable to whoever requests it.',
  impact:
    'Predictable serials were the prerequisite of the MD5 chosen-prefix certificate forgery; a short serial also marks a CA that does not ' +
    'follow current issuance rules.',
  risk: 'low',
  cwe: ['CWE-330'], // Use of Insufficiently Random Values
  owasp: OWASP.sensitiveData,
  recommendation: 'Reissue the certificate from a CA that draws serial numbers with at least 64 random bits (OpenSSL: -rand_serial).',
  references: ['https://cabforum.org/baseline-requirements-documents/', 'https://www.win.tue.nl/hashclash/rogue-ca/', cweUrl(330)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertNoRevocationInfo = {
  id: 'tls.cert.no-revocation-info',
  name: 'Certificate names no OCSP responder or CRL',
  description:
    "The server's certificate carries neither a CRL distribution point nor an OCSP responder address (Authority Information Access).",
  impact:
    'If the key is ever compromised, clients have no way to learn that the certificate was revoked and keep trusting it until it expires.',
  risk: 'low',
  cwe: ['CWE-299'], // Improper Check for Certificate Revocation
  owasp: OWASP.sensitiveData,
  recommendation:
    'Issue certificates with a CRL distribution point and an OCSP URI (every public CA does); internal CAs should publish revocation too.',
  references: [
    'https://datatracker.ietf.org/doc/html/rfc5280#section-4.2.1.13',
    'https://datatracker.ietf.org/doc/html/rfc6960',
    cweUrl(299),
  ],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertNoCt = {
  id: 'tls.cert.no-ct',
  name: 'No Certificate Transparency proof (SCT)',
  description:
    "The server's certificate chains to a trusted root but carries no signed certificate timestamp: none embedded in the certificate and " +
    'none sent in the TLS signed_certificate_timestamp extension.',
  impact:
    'Browsers that enforce Certificate Transparency (Chrome, Safari) reject the certificate; a ' +
    'certificate missing from CT logs also escapes monitoring for mis-issuance.',
  risk: 'low',
  cwe: ['CWE-295'],
  owasp: OWASP.sensitiveData,
  recommendation: 'Use a certificate logged to Certificate Transparency logs with embedded SCTs (every public CA issues them by default).',
  references: ['https://datatracker.ietf.org/doc/html/rfc6962', 'https://certificate.transparency.dev/', cweUrl(295)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

export const tlsCertOcspStaplingMissing = {
  id: 'tls.cert.ocsp-stapling-missing',
  name: 'OCSP stapling not offered',
  description:
    'The certificate names an OCSP responder, but the server did not staple an OCSP response when the client asked for one (status_request).',
  impact:
    "Each client must ask the CA's responder itself, which leaks the sites it visits to the CA and slows connections; most browsers then " +
    'skip the check when the responder is slow, so revocation is not enforced.',
  risk: 'info',
  cwe: ['CWE-299'],
  owasp: OWASP.sensitiveData,
  recommendation:
    'Enable OCSP stapling (nginx: ssl_stapling on; Apache: SSLUseStapling on) and make sure the server can reach the responder.',
  references: ['https://datatracker.ietf.org/doc/html/rfc6066#section-8', 'https://datatracker.ietf.org/doc/html/rfc6961', cweUrl(299)],
  tags: ['tls', 'certificate'],
} as const satisfies Check

// ---- service configuration and implementation flaws ----

export const tlsHstsMissing = {
  id: 'tls.hsts.missing',
  name: 'HTTPS service without HTTP Strict Transport Security',
  description: 'The HTTPS response carries no Strict-Transport-Security header with a positive max-age.',
  impact:
    'A network attacker can strip HTTPS from the first visit or from plain http:// links and read or change the traffic (SSL stripping).',
  risk: 'low',
  cwe: ['CWE-319', 'CWE-523'], // Unprotected Transport of Credentials
  owasp: OWASP.misconfig,
  recommendation: 'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains" on every HTTPS response (add preload once ready).',
  references: [
    'https://datatracker.ietf.org/doc/html/rfc6797',
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Strict-Transport-Security',
    'https://cheatsheetseries.owasp.org/cheatsheets/HTTP_Strict_Transport_Security_Cheat_Sheet.html',
  ],
  tags: ['tls', 'headers'],
} as const satisfies Check

export const tlsCompression = {
  id: 'tls.compression',
  name: 'TLS compression enabled',
  description: 'The server selects DEFLATE compression in the TLS handshake when the client offers it.',
  impact: 'An attacker who can inject chosen plaintext and observe ciphertext lengths can recover secrets such as session cookies (CRIME).',
  risk: 'medium',
  cwe: ['CWE-200'], // Exposure of Sensitive Information to an Unauthorized Actor
  owasp: OWASP.sensitiveData,
  recommendation: 'Disable TLS-level compression (OpenSSL: SSL_OP_NO_COMPRESSION, the default since 1.1.0); upgrade old TLS libraries.',
  references: [nvd('CVE-2012-4929'), 'https://datatracker.ietf.org/doc/html/rfc7457', cweUrl(200)],
  cve: ['CVE-2012-4929'],
  tags: ['tls'],
} as const satisfies Check

export const tlsRenegotiationInsecure = {
  id: 'tls.renegotiation.insecure',
  name: 'Secure renegotiation (RFC 5746) not supported',
  description:
    'The ServerHello carries no renegotiation_info extension although the client signalled support (TLS_EMPTY_RENEGOTIATION_INFO_SCSV), ' +
    'so the server does not implement RFC 5746 secure renegotiation.',
  impact:
    "If the server allows renegotiation at all, a man in the middle can splice his own request in front of a victim's authenticated session (CVE-2009-3555).",
  risk: 'medium',
  cwe: ['CWE-20'], // Improper Input Validation (NVD's classification of CVE-2009-3555)
  owasp: OWASP.vulnerableComponents,
  recommendation: 'Upgrade the TLS library to one that implements RFC 5746, or disable renegotiation entirely.',
  references: ['https://datatracker.ietf.org/doc/html/rfc5746', nvd('CVE-2009-3555'), cweUrl(20)],
  cve: ['CVE-2009-3555'],
  tags: ['tls'],
} as const satisfies Check

export const tlsRenegotiationClientInitiated = {
  id: 'tls.renegotiation.client-initiated',
  name: 'Client-initiated renegotiation accepted',
  description: 'The server renegotiates a TLS 1.2 (or older) session when the client asks for it on an established connection.',
  impact:
    'Each renegotiation costs the server a full handshake (its private-key operation) but the client little, so a few clients can keep ' +
    'its CPU busy over a handful of connections (THC-SSL-DoS); it also keeps renegotiation attack surface open.',
  risk: 'low',
  cwe: ['CWE-400'], // Uncontrolled Resource Consumption
  owasp: OWASP.misconfig,
  recommendation:
    'Refuse client-initiated renegotiation (OpenSSL: SSL_OP_NO_RENEGOTIATION; nginx and Apache refuse it ' +
    'by default) or move clients to TLS 1.3, which has none.',
  references: ['https://datatracker.ietf.org/doc/html/rfc5746', 'https://www.thc.org/thc-ssl-dos/', nvd('CVE-2011-1473'), cweUrl(400)],
  cve: ['CVE-2011-1473'],
  tags: ['tls'],
} as const satisfies Check

export const tlsHeartbleed = {
  id: 'tls.heartbleed',
  name: 'OpenSSL Heartbleed (CVE-2014-0160)',
  description:
    'The server echoes a TLS heartbeat request whose declared payload length exceeds what RFC 6520 allows: its heartbeat code does not check ' +
    'the length, the Heartbleed bug of OpenSSL 1.0.1 to 1.0.1f.',
  impact:
    'Any client can read up to 64 KB of server memory per request, repeatedly, without authentication: private keys, session cookies, passwords.',
  risk: 'high',
  cwe: ['CWE-125'], // Out-of-bounds Read
  owasp: OWASP.vulnerableComponents,
  recommendation:
    'Upgrade OpenSSL to a fixed release (1.0.1g or later; any supported version) and restart every service using it, then replace the ' +
    'certificate key, revoke the old certificate and invalidate sessions and passwords that may have leaked.',
  references: [
    'https://heartbleed.com/',
    nvd('CVE-2014-0160'),
    'https://www.cisa.gov/known-exploited-vulnerabilities-catalog',
    'https://datatracker.ietf.org/doc/html/rfc6520',
    cweUrl(125),
  ],
  cve: ['CVE-2014-0160'],
  tags: ['tls', 'openssl', 'kev'],
} as const satisfies Check

export const tlsChecks = [
  tlsProtocolSslv2,
  tlsProtocolSslv3,
  tlsProtocolTls10,
  tlsProtocolTls11,
  tlsCipherNull,
  tlsCipherAnonymous,
  tlsCipherExport,
  tlsCipherRc4,
  tlsCipherDes,
  tlsCipherCbcTls10,
  tlsCipherCbc,
  tlsCipherNoForwardSecrecy,
  tlsCipherWeakDh,
  tlsCertExpired,
  tlsCertNotYetValid,
  tlsCertExpiringSoon,
  tlsCertSelfSigned,
  tlsCertUntrusted,
  tlsCertHostnameMismatch,
  tlsCertWeakKey,
  tlsCertWeakSignature,
  tlsCertShortSerial,
  tlsCertNoRevocationInfo,
  tlsCertNoCt,
  tlsCertOcspStaplingMissing,
  tlsHstsMissing,
  tlsCompression,
  tlsRenegotiationInsecure,
  tlsRenegotiationClientInitiated,
  tlsHeartbleed,
] as const satisfies readonly Check[]
