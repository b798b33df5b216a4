// The wire shapes the export formats read: what any server of the v2 interface answers (Ward, or the
// public service). Everything beyond the spec's fields is optional, because the public service does not
// send it; risk_level is 0..4 in Ward and 0..3 in the public service (same meaning for 0..3).

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const
export type Severity = (typeof SEVERITIES)[number]

/** Severity name of a risk_level; out-of-range numbers are clamped rather than dropped. */
export function severityOf(level: number | null | undefined): Severity {
  const n = Number.isFinite(level) ? Math.trunc(level as number) : 0
  return SEVERITIES[Math.min(4, Math.max(0, n))]!
}

export const levelOf = (s: Severity): number => SEVERITIES.indexOf(s)

export interface WireFinding {
  id: number
  name: string
  vuln_id: string
  risk_level: number
  test_description?: string
  test_finished?: boolean
  confirmed?: boolean
  in_cisa_catalog?: boolean
  cve?: string[]
  vuln_description?: string
  vuln_evidence?: { type: string; data: { text?: string; headers?: string[]; rows?: string[][] } } | null
  risk_description?: string
  status?: string
  recommendation?: string
  references?: string[]
  verified?: boolean
  owasp?: { owasp_2017?: string; owasp_2021?: string; owasp_2025?: string } | null
  cwe?: string
  port?: number | null
  protocol?: string | null
  service?: string | null
  url?: string | null
  scan_id?: number
  target_id?: number
  created_at?: string
}

export interface WireTest {
  id: number
  name: string
  description?: string
  status?: string
  result?: string | null
  finding_ids?: number[]
  start_time?: string | null
  end_time?: string | null
}

/** What the formats need to know about the scan; `target` is the target's name as the user gave it. */
export interface ScanInfo {
  id: number
  target: string
  tool_id: number
  tool_name?: string
  status_name: string
  status_message?: string
  start_time?: string | null
  end_time?: string | null
  duration?: number
  /** Base URL of the server that ran the scan (shown in reports; SARIF's informationUri). */
  server?: string
}

/** Every format writer has this shape: a pure function of the scan, its findings and tests and the threshold. */
export type FormatWriter = (
  scan: ScanInfo,
  findings: readonly WireFinding[],
  tests: readonly WireTest[],
  threshold: Severity | null,
) => string

export const atOrAbove = (f: WireFinding, threshold: Severity | null) =>
  threshold !== null && levelOf(severityOf(f.risk_level)) >= levelOf(threshold)

/** Host of a target name (URL, host:port, bare host or IP literal), lower-cased. */
export function targetHost(target: string): string {
  const t = target.trim()
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    try {
      return new URL(t).hostname.toLowerCase()
    } catch {
      return t.toLowerCase()
    }
  }
  if (t.startsWith('[')) return t.slice(0, t.indexOf(']') + 1).toLowerCase()
  // One colon: host:port. Several: a bare IPv6 literal.
  return (t.split(':').length === 2 ? t.split(':')[0]! : t).toLowerCase()
}

/** Where a finding is: host, port/protocol and URL, as far as the finding says. */
export function findingLocation(
  scan: ScanInfo,
  f: WireFinding,
): { host: string; port: number | null; protocol: string | null; url: string | null; text: string } {
  const url = f.url ?? null
  let host = targetHost(scan.target)
  if (url) {
    try {
      host = new URL(url).hostname.toLowerCase()
    } catch {
      // keep the target's host
    }
  }
  const port = f.port ?? null
  const protocol = f.protocol ?? null
  const hostPort =
    port !== null ? `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}${protocol ? `/${protocol}` : ''}` : host
  return { host, port, protocol, url, text: url ?? hostPort }
}
