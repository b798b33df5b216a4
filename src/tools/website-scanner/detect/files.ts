// Sensitive files and directory listings. Each file kind has a content matcher, and every hit must
// also differ from the site's "not found" answer (soft-404 profile), so catch-all pages never match.
import type { Check } from '../../../toolkit/check.js'
import { textEvidence } from '../../../toolkit/evidence.js'
import { backupExposed, directoryListing, dsStore, envExposed, gitExposed, phpinfoExposed, scmExposed, serverStatus } from '../checks.js'
import { looksLikeNotFound, type Soft404Profile } from '../../lib/http/soft404.js'
import { title } from './html.js'
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
const sqlDump = (b: Buffer, ct: string) =>
  notHtml(b, ct) && /(CREATE TABLE|INSERT INTO|-- MySQL dump|PostgreSQL database dump)/i.test(text(b))
const starts = (b: Buffer, magic: string) => b.subarray(0, magic.length).equals(Buffer.from(magic, 'latin1'))
/** zip, gzip, bzip2, xz, 7z, rar, or a tar header (ustar at 257). */
const archive = (b: Buffer) =>
  starts(b, 'PK\x03\x04') ||
  (b[0] === 0x1f && b[1] === 0x8b) ||
  starts(b, 'BZh') ||
  starts(b, '\xfd7zXZ\x00') ||
  starts(b, '7z\xbc\xaf\x27\x1c') ||
  starts(b, 'Rar!\x1a\x07') ||
  b.subarray(257, 262).toString('latin1') === 'ustar'
const phpSource = (b: Buffer) => /<\?php/.test(text(b))
/** Vim's swap file header ("b0VIM 8.2"): it holds the edited file's text. */
const vimSwap = (b: Buffer) => starts(b, 'b0VIM ')
const sqliteDb = (b: Buffer) => starts(b, 'SQLite format 3\x00')
const phpinfo = (b: Buffer) => /<title>[^<]*phpinfo\(\)\s*<\/title>|<h1 class="p">PHP Version \d/i.test(text(b))

export const SENSITIVE_FILES: readonly SensitiveFile[] = [
  { path: '/.git/HEAD', check: gitExposed, matches: (b) => /^(ref: refs\/[\w./-]+|[0-9a-f]{40})\s*$/.test(text(b).trim()) },
  { path: '/.git/config', check: gitExposed, matches: (b, ct) => notHtml(b, ct) && /^\s*\[core\]/m.test(text(b)) },
  { path: '/.env', check: envExposed, matches: (b, ct) => notHtml(b, ct) && /^\s*[A-Z][A-Z0-9_]*\s*=\s*\S*/m.test(text(b)) },
  { path: '/.DS_Store', check: dsStore, matches: (b) => b.subarray(0, 8).equals(Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31])) },
  { path: '/.svn/wc.db', check: scmExposed, matches: sqliteDb },
  { path: '/.svn/entries', check: scmExposed, matches: (b, ct) => notHtml(b, ct) && /^(?:8|9|10|12)\s*(?:\n\s*dir\s*\n|$)/.test(text(b)) },
  {
    path: '/.hg/requires',
    check: scmExposed,
    matches: (b, ct) => notHtml(b, ct) && /^(revlogv1|store|fncache|dotencode|generaldelta|share-safe)\s*$/m.test(text(b)),
  },
  { path: '/server-status', check: serverStatus, matches: (b) => /Apache Server Status|Server uptime:|Total Accesses:/i.test(text(b)) },
  {
    path: '/server-info',
    check: serverStatus,
    matches: (b) => /Apache Server Information|Server Module List|Current Configuration:/i.test(text(b)),
  },
  { path: '/phpinfo.php', check: phpinfoExposed, matches: phpinfo },
  { path: '/info.php', check: phpinfoExposed, matches: phpinfo },
  { path: '/backup.zip', check: backupExposed, matches: archive },
  { path: '/backup.tar.gz', check: backupExposed, matches: archive },
  { path: '/site.zip', check: backupExposed, matches: archive },
  { path: '/database.sql', check: backupExposed, matches: sqlDump },
  { path: '/dump.sql', check: backupExposed, matches: sqlDump },
  { path: '/config.php.bak', check: backupExposed, matches: phpSource },
  { path: '/wp-config.php.bak', check: backupExposed, matches: phpSource },
  { path: '/index.php.bak', check: backupExposed, matches: phpSource },
  { path: '/config.php~', check: backupExposed, matches: phpSource },
  { path: '/index.php~', check: backupExposed, matches: phpSource },
  { path: '/.index.php.swp', check: backupExposed, matches: vimSwap },
  { path: '/.config.php.swp', check: backupExposed, matches: vimSwap },
  { path: '/backup.sql', check: backupExposed, matches: sqlDump },
  { path: '/db.sql', check: backupExposed, matches: sqlDump },
  { path: '/web.config.bak', check: backupExposed, matches: (b) => /<configuration[\s>]/i.test(text(b)) },
  {
    path: '/.htpasswd',
    check: backupExposed,
    matches: (b, ct) => notHtml(b, ct) && /^[\w.-]+:(\$apr1\$|\$2[aby]\$|\{SHA\}|[./0-9A-Za-z]{13}$)/m.test(text(b)),
  },
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
    hits.push({
      check,
      url: f.url,
      confirmed: true,
      detail: `${f.path} is downloadable (${f.bytes.length} bytes${ct ? `, ${ct}` : ''}).`,
      evidence: textEvidence(`GET ${f.url} → ${f.status}\n\n${preview}`),
    })
  }
  return hits
}

/** Extensions of files a crawl follows links to only to classify them (dumps, archives, backups, databases). */
export const DOWNLOAD_EXT = /(\.(sql|dump|bak|old|orig|save|swp|bkp|backup|zip|gz|tgz|tar|7z|rar|bz2|xz|db|sqlite|sqlite3|mdb)|~)$/i

/**
 * A file the crawl fetched through a link, judged by its extension and content: a dump, an archive, an
 * editor or backup copy, or a database served as itself (not an HTML page) is exposed. One hit per file.
 */
export function detectCrawledFiles(files: FileObs[], profile: Soft404Profile): Hit[] {
  const hits: Hit[] = []
  const seen = new Set<string>()
  for (const f of files) {
    if (f.status !== 200 || !f.bytes.length || seen.has(f.url)) continue
    const ct = f.contentType ?? ''
    const ext = /\.([a-z0-9]+)$/i.exec(f.path)?.[1]?.toLowerCase() ?? (f.path.endsWith('~') ? '~' : '')
    const ok =
      ext === 'sql' || ext === 'dump'
        ? sqlDump(f.bytes, ct)
        : ['zip', 'gz', 'tgz', 'tar', '7z', 'rar', 'bz2', 'xz'].includes(ext)
          ? archive(f.bytes)
          : ['db', 'sqlite', 'sqlite3'].includes(ext)
            ? sqliteDb(f.bytes)
            : ext === 'mdb'
              ? f.bytes.subarray(4, 19).toString('latin1') === 'Standard Jet DB'
              : ext === 'swp'
                ? vimSwap(f.bytes)
                : notHtml(f.bytes, ct) // .bak, .old, ~ …: any non-page copy of a file
    if (!ok || looksLikeNotFound(profile, { status: f.status, body: f.bytes.toString('latin1'), contentType: ct }, f.path)) continue
    seen.add(f.url)
    hits.push({
      check: backupExposed,
      url: f.url,
      confirmed: true,
      detail: `${f.path} (linked from the site) is downloadable (${f.bytes.length}${f.bytes.length >= 65536 ? '+' : ''} bytes${ct ? `, ${ct}` : ''}).`,
      evidence: textEvidence(`GET ${f.url} → ${f.status}\n\n${printable(f.bytes)}`),
    })
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
  b
    .subarray(0, 300)
    .toString('latin1')
    .replace(/[^\x20-\x7e\n]/g, '.')
    .split('\n')
    .slice(0, 8)
    .join('\n')

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
    evidence: textEvidence(
      `GET ${p.url} → ${p.status}\n\n${p.body
        .replace(/<[^>]+>/g, ' ')
        .replace(/[ \t]+/g, ' ')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(0, 10)
        .join('\n')}`,
    ),
  }))
}
