// The one way pages are written: `html\`...\`` escapes every interpolated value unless it is already
// SafeHtml (the result of another html`` or of `raw`), so scanner-supplied text — banners, titles,
// evidence — is shown as text everywhere by construction. Arrays are joined, null/undefined/false
// render nothing.
const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }

export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value
  }
}

export const escapeHtml = (s: string) => s.replace(/[&<>"'`]/g, (c) => ESC[c]!)

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[]

function render(v: Part): string {
  if (v === null || v === undefined || v === false) return ''
  if (v instanceof SafeHtml) return v.value
  if (Array.isArray(v)) return v.map(render).join('')
  return escapeHtml(String(v))
}

export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new SafeHtml(out)
}

/** Trusted markup written by Ward itself (never scanner or user text). */
export const raw = (s: string) => new SafeHtml(s)

/** A query string from the set members of `q` (for links that keep filters). */
export function qs(q: Record<string, string | number | boolean | undefined | null>): string {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '' && v !== false) p.set(k, String(v))
  const s = p.toString()
  return s ? `?${s}` : ''
}

/** ` selected` on the chosen `<option>`. */
export const selectedIf = (on: boolean | undefined) => (on ? html` selected` : '')

/** ` checked` on a ticked checkbox. */
export const checkedIf = (on: boolean | undefined) => (on ? html` checked` : '')

/** One `<option>` of a `<select>`. */
export const option = (value: string | number, label: Part, chosen: boolean) =>
  html`<option value="${value}"${selectedIf(chosen)}>${label}</option>`

/** A table's head row; a cell given as SafeHtml is a whole `<th …>` (one with a class), text is a plain `<th>`. */
export const tableHead = (...cells: (string | SafeHtml)[]) =>
  html`<thead><tr>${cells.map((c) => (c instanceof SafeHtml ? c : html`<th>${c}</th>`))}</tr></thead>`
