// Text shaping for the PDF: clean untrusted strings, cap their length, format times and places.
import type { ReportFinding } from '../report-model.js'

// C0/C1 controls other than \n and \t, lone surrogates, and bidi overrides (which could make a
// finding's text display reversed).
const UNSAFE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Printable text: controls dropped, CRLF → LF, tabs expanded, at most `max` characters. */
export function clean(s: string | null | undefined, max = Infinity): string {
  if (!s) return ''
  let t = s.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').replace(UNSAFE, '')
  if (t.length > max) t = `${t.slice(0, max).replace(/[\uD800-\uDBFF]$/, '')}… [${t.length - max} more characters in the JSON output]`
  return t
}

/** A short one-line label: cleaned, newlines flattened, cut with an ellipsis. */
export function oneLine(s: string | null | undefined, max: number): string {
  const t = clean(s).replace(/\s+/g, ' ').trim()
  return t.length > max ? `${t.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…` : t
}

/** Cell text: one capped string, newlines kept (they wrap inside the cell). */
export const cell = (s: string | null | undefined, max: number): string => clean(s, max)

/** `2026-11-21T10:15:00Z` → `2026-11-21 10:15:00 UTC`; unset → `—`. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return clean(iso, 64)
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/** Whole seconds → `1 h 02 min 05 s`, `3 min 20 s`, `12 s`. */
export function formatDuration(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const r = s % 60
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min ${String(r).padStart(2, '0')} s`
  if (m > 0) return `${m} min ${String(r).padStart(2, '0')} s`
  return `${r} s`
}

/** Where a finding was found: URL, then port/protocol and service. */
export function findingLocation(f: ReportFinding): string {
  const parts: string[] = []
  if (f.url) parts.push(oneLine(f.url, 500))
  if (f.port != null) parts.push(`${f.port}/${f.protocol ?? 'tcp'}`)
  else if (f.protocol) parts.push(f.protocol)
  if (f.service) parts.push(oneLine(f.service, 60))
  return parts.join(' · ')
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
