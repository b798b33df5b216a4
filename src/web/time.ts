// Times on pages: the server writes the UTC time in a <time> element (its ISO form on hover and in
// datetime); ward.js rewrites the text in the reader's own time zone, relative when recent.
import { toApiTime } from '../store/time.js'
import { html, type SafeHtml } from './html.js'

/** A stored time as a <time> element; '' for none. */
export function when(stored: string | null | undefined, empty = ''): SafeHtml | string {
  const iso = toApiTime(stored)
  if (!iso) return empty
  // Without script, still short and readable: "2026-11-25 17:50 UTC".
  return html`<time datetime="${iso}" title="${iso}" data-when>${iso.slice(0, 16).replace('T', ' ')} UTC</time>`
}
