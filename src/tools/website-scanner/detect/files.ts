// Sensitive files and directory listings. Each file kind has a content matcher, and every hit must
// also differ from the site's "not found" answer (soft-404 profile), so catch-all pages never match.
import type { Check } from '../../../toolkit/check.js'
import { textEvidence } from '../../../toolkit/evidence.js'
import { backupExposed, directoryListing, dsStore, envExposed, gitExposed, serverStatus } from '../checks.js'
import { looksLikeNotFound, type Soft404Profile } from '../../lib/http/soft404.js'
import { title } from '../html.js'
import type { Hit, PageObs } from './types.js'

export interface FileObs {
  path: string
  url: string
  status: number
  contentType?: string
  bytes: Buffer
}

export interface SensitiveFile {
  path: string
  check: Check
  /** Whether the bytes are really that kind of file (not an HTML error page). */
  matches(bytes: Buffer, contentType: string): boolean
}

const text = (b: Buffer) => b.subarray(0, 64 * 1024).toString('utf8')
const notHtml = (b: Buffer, ct: string) => !/html/i.test(ct) && !/^\s*<(!doctype|html|head|body)/i.test(text(b).slice(0, 200))
const sqlDump = (b: Buffer, ct: string) => notHtml(b, ct) && /(CREATE TABLE|INSERT INTO|-- MySQL dump|PostgreSQL database dump)/i.test(text(b))
const archive = (b: Buffer) => b.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')) || (b[0] === 0x1f && b[1] === 0x8b)
const phpSource = (b: Buffer) => /<\?php/.test(text(b))

export const SENSITIVE_FILES: readonly SensitiveFile[] = [
  { path: '/.git/HEAD', check: gitExposed, matches: (b) => /^(ref: refs\/[\w./-]+|[0-9a-f]{40})\s*$/.test(text(b).trim()) },
  { path: '/.git/config', check: gitExposed, matches: (b, ct) => notHtml(b, ct) && /^\s*\[core\]/m.test(text(b)) },
  { path: '/.env', check: envExposed, matches: (b, ct) => notHtml(b, ct) && /^\s*[A-Z][A-Z0-9_]*\s*=\s*\S*/m.test(text(b)) },
  { path: '/.DS_Store', check: dsStore, matches: (b) => b.subarray(0, 8).equals(Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31])) },
  { path: '/server-status', check: serverStatus, matches: (b) => /Apache Server Status|Server uptime:|Total Accesses:/i.test(text(b)) },
  { path: '/backup.zip', check: backupExposed, matches: archive },
  { path: '/backup.tar.gz', check: backupExposed, matches: archive },
  { path: '/site.zip', check: backupExposed, matches: archive },
  { path: '/database.sql', check: backupExposed, matches: sqlDump },
  { path: '/dump.sql', check: backupExposed, matches: sqlDump },
  { path: '/config.php.bak', check: backupExposed, matches: phpSource },
  { path: '/wp-config.php.bak', check: backupExposed, matches: phpSource },
  { path: '/index.php.bak', check: backupExposed, matches: phpSource },
  { path: '/config.php~', check: backupExposed, matches: phpSource },
  { path: '/web.config.bak', check: backupExposed, matches: (b) => /<configuration[\s>]/i.test(text(b)) },
  { path: '/.htpasswd', check: backupExposed, matches: (b, ct) => notHtml(b, ct) && /^[\w.-]+:(\$apr1\$|\$2[aby]\$|\{SHA\}|[./0-9A-Za-z]{13}$)/m.test(text(b)) },
]

/** Hits of one check over the fetched files (one per file, url = the file). */
export function detectFiles(check: Check, files: FileObs[], profile: Soft404Profile): Hit[] {
  const hits: Hit[] = []
  for (const f of files) {
    const spec = SENSITIVE_FILES.find((s) => s.path === f.path)
    if (!spec || spec.check.id !== check.id || f.status !== 200) continue
    const ct = f.contentType ?? ''
    if (!spec.matches(f.bytes, ct)) continue
    if (looksLikeNotFound(profile, { status: f.status, body: f.bytes.toString('latin1'), contentType: ct }, f.path)) continue
    const preview = check.id === envExposed.id || f.path === '/.htpasswd' ? redactSecrets(text(f.bytes)) : printable(f.bytes)
    hits.push({ check, url: f.url, confirmed: true, detail: `${f.path} is downloadable (${f.bytes.length} bytes${ct ? `, ${ct}` : ''}).`, evidence: textEvidence(`GET ${f.url} → ${f.status}\n\n${preview}`) })
  }
  return hits
}

/** First lines, with secret-looking values cut: evidence proves exposure without copying secrets. */
export function redactSecrets(s: string): string {
  return s
    .split('\n')
    .slice(0, 8)
    .map((l) => l.replace(/^(\s*[\w.-]+\s*[=:]\s*)(.*)$/, (_, k: string, v: string) => `${k}… (${v.trim().length} characters hidden)`))
    .join('\n')
}

const printable = (b: Buffer) =>
  b.subarray(0, 300).toString('latin1').replace(/[^\x20-\x7e\n]/g, '.').split('\n').slice(0, 8).join('\n')

const LISTING = [/<title>\s*Index of \//i, /<h1>\s*Index of \//i, /<title>\s*Directory listing for \//i, /\[To Parent Directory\]/i]

export function isDirectoryListing(p: PageObs): boolean {
  return p.status === 200 && LISTING.some((r) => r.test(p.body.slice(0, 64 * 1024)))
}

export function detectDirectoryListing(pages: PageObs[]): Hit[] {
  return pages.filter(isDirectoryListing).map((p) => ({
    check: directoryListing,
    url: p.url,
    confirmed: true,
    detail: `${new URL(p.url).pathname} lists its files${title(p.body) ? ` ("${title(p.body)}")` : ''}.`,
    evidence: textEvidence(`GET ${p.url} → ${p.status}\n\n${p.body.replace(/<[^>]+>/g, ' ').replace(/[ \t]+/g, ' ').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 10).join('\n')}`),
  }))
}
