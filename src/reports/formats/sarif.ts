// SARIF 2.1.0 for code-scanning tools (GitHub, Azure DevOps, ...). One rule per check (vuln_id), one
// result per finding. A finding of a running service has no source file, so each result names where it
// is twice: a logical location (host, port/protocol, URL) and an artifact URI of the same place, since
// some consumers ignore results without a physical location. partialFingerprints keep alerts stable
// across runs (see fingerprint.ts).
import { findingFingerprint } from './fingerprint.js'
import { findingLocation, severityOf, type FormatWriter, type Severity, type WireFinding } from './types.js'

/** GitHub's scale: >= 9 critical, 7..8.9 high, 4..6.9 medium, 0.1..3.9 low. */
const SECURITY_SEVERITY: Record<Severity, string> = { critical: '9.5', high: '8.0', medium: '5.5', low: '3.0', info: '0.0' }
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
}

/** SARIF messages read as sentences (the validator asks for the final period). */
const sentence = (s: string) => {
  const t = s.trim().replace(/\s+/g, ' ')
  return t === '' ? 'No description.' : /[.!?]$/.test(t) ? t : `${t}.`
}

/** "website.headers.csp-missing" → "WebsiteHeadersCspMissing": SARIF rule names are identifiers. */
const ruleName = (vulnId: string) =>
  vulnId
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('') || 'WardCheck'

const isHttpUrl = (s: string) => /^https?:\/\/[^\s]+$/i.test(s)
/** An IPv6 address in brackets, as a URI authority needs it. */
const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)

function tagsOf(f: WireFinding): string[] {
  const tags = ['security']
  const cwe = /^CWE-(\d+)$/i.exec((f.cwe ?? '').trim())
  if (cwe) tags.push(`external/cwe/cwe-${cwe[1]}`)
  for (const v of Object.values(f.owasp ?? {})) {
    const code = /^(A\d{2}:\d{4})/.exec(String(v ?? ''))
    if (code) tags.push(`external/owasp/${code[1]!.toLowerCase()}`)
  }
  return tags
}

function helpOf(f: WireFinding): { text: string; markdown: string } {
  const rec = (f.recommendation ?? '').trim()
  const refs = (f.references ?? []).filter((r) => typeof r === 'string' && r.trim() !== '')
  const text = [rec ? `Recommendation: ${rec}` : 'No recommendation given.', refs.length ? `References: ${refs.join(' ')}` : '']
    .filter(Boolean)
    .join('\n')
  const mdEscape = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>&]/g, (c) => `\\${c}`)
  const markdown = [
    rec ? `**Recommendation:** ${mdEscape(rec)}` : 'No recommendation given.',
    refs.length
      ? `**References:**\n${refs.map((r) => (isHttpUrl(r) ? `- <${r.replace(/[<>]/g, '')}>` : `- ${mdEscape(r)}`)).join('\n')}`
      : '',
  ]
    .filter(Boolean)
    .join('\n\n')
  return { text, markdown }
}

/** The SARIF rule of a finding's check (one per vuln_id, described by its first finding). */
function ruleOf(f: WireFinding) {
  const sev = severityOf(f.risk_level)
  const refs = (f.references ?? []).filter(isHttpUrl)
  return {
    id: f.vuln_id,
    name: ruleName(f.vuln_id),
    shortDescription: { text: sentence(f.name) },
    fullDescription: { text: sentence(f.risk_description || f.vuln_description || f.name) },
    help: helpOf(f),
    ...(refs.length ? { helpUri: refs[0] } : {}),
    defaultConfiguration: { level: LEVEL[sev] },
    properties: {
      tags: tagsOf(f),
      'security-severity': SECURITY_SEVERITY[sev],
      precision: f.confirmed ? 'high' : 'medium',
      ...(f.cwe ? { cwe: f.cwe } : {}),
      owasp: f.owasp ?? {},
    },
  }
}

export const toSarif: FormatWriter = (scan, findings, _tests, _threshold) => {
  const rules: unknown[] = []
  const ruleIndex = new Map<string, number>()
  const results = findings.map((f) => {
    const sev = severityOf(f.risk_level)
    let idx = ruleIndex.get(f.vuln_id)
    if (idx === undefined) {
      idx = rules.length
      ruleIndex.set(f.vuln_id, idx)
      rules.push(ruleOf(f))
    }
    const loc = findingLocation(scan, f)
    const portProto = loc.port !== null ? `${loc.port}${loc.protocol ? `/${loc.protocol}` : ''}` : null
    const fq = [loc.host, portProto, loc.url].filter(Boolean).join('/')
    const uri =
      loc.url && /^[a-z][a-z0-9+.-]*:\/\//i.test(loc.url)
        ? loc.url
        : `${loc.protocol ?? 'tcp'}://${bracketed(loc.host)}${loc.port !== null ? `:${loc.port}` : ''}/`
    return {
      ruleId: f.vuln_id,
      ruleIndex: idx,
      level: LEVEL[sev],
      message: { text: sentence(`${f.name} at ${loc.text}`) },
      locations: [
        {
          // The whole resource: a web page or service has no lines, so the region is its first position.
          physicalLocation: { artifactLocation: { uri: safeUri(uri) }, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } },
          logicalLocations: [{ name: loc.url ?? portProto ?? loc.host, fullyQualifiedName: fq, kind: 'resource' }],
        },
      ],
      partialFingerprints: { 'wardFinding/v1': findingFingerprint(scan.target, f) },
      properties: {
        severity: sev,
        risk_level: f.risk_level,
        confirmed: f.confirmed ?? false,
        host: loc.host,
        port: loc.port,
        protocol: loc.protocol,
        url: loc.url,
        cve: f.cve ?? [],
        in_cisa_catalog: f.in_cisa_catalog ?? false,
        finding_id: f.id,
      },
    }
  })
  const finished = scan.status_name === 'finished'
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Ward',
            ...(scan.server && isHttpUrl(scan.server) ? { informationUri: scan.server } : {}),
            version: '2',
            rules,
          },
        },
        // "<category>/<run id>": the category (tool + target) stays the same across runs, so code
        // scanning compares each run with the previous one of the same scan and closes fixed alerts.
        automationDetails: {
          id: `ward/${scan.tool_id}/${scan.target
            .trim()
            .toLowerCase()
            .replace(/[^a-z0-9.-]+/g, '_')}/${scan.id}`,
        },
        invocations: [
          {
            executionSuccessful: finished,
            ...(scan.start_time ? { startTimeUtc: scan.start_time } : {}),
            ...(scan.end_time ? { endTimeUtc: scan.end_time } : {}),
            ...(finished
              ? {}
              : {
                  toolExecutionNotifications: [
                    {
                      level: 'error',
                      message: {
                        text: sentence(`Scan ended "${scan.status_name}"${scan.status_message ? `: ${scan.status_message}` : ''}`),
                      },
                    },
                  ],
                }),
          },
        ],
        results,
        properties: { scan_id: scan.id, tool_id: scan.tool_id, target: scan.target, status: scan.status_name },
      },
    ],
  }
  return JSON.stringify(log, null, 2) + '\n'
}

/** A URI a SARIF consumer can parse: spaces and other unsafe characters percent-encoded. */
function safeUri(s: string): string {
  try {
    return new URL(s).href
  } catch {
    return encodeURI(s)
  }
}
