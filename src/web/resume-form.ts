// A form sent after its session ended (expired, signed out elsewhere) is not lost: the sign-in page
// carries its fields, and once signed in the person sees them and sends them again with one click
// (with the new session's CSRF token; nothing is replayed without that click).
import { html, type SafeHtml } from './html.js'
import { sameOriginPath } from './next-path.js'

export interface Resume {
  /** Where the form was sent (a path of this site). */
  to: string
  fields: Record<string, string>
}

const MAX_FIELDS = 40
const MAX_VALUE = 4000
const PREFIX = 'resume.'

/** The path and query of a URL or path ('' when it is not one). */
export function pathOf(url: string | undefined): string {
  try {
    const u = new URL(String(url ?? ''), 'http://x')
    return u.pathname + u.search
  } catch {
    return ''
  }
}

/** A sent form as resume fields (the old CSRF token left out). */
export function resumeFrom(to: string, form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { resume_to: to }
  for (const [k, v] of Object.entries(form).slice(0, MAX_FIELDS)) if (k !== '_csrf') out[PREFIX + k] = v.slice(0, MAX_VALUE)
  return out
}

/** The kept form in a sign-in post, or null (none, or a destination that is not a plain path here). */
export function resumeOf(body: Record<string, unknown>): Resume | null {
  const to = typeof body.resume_to === 'string' ? body.resume_to : ''
  if (!to || sameOriginPath(to) !== to || to === '/') return null
  const fields: Record<string, string> = {}
  for (const [k, v] of Object.entries(body))
    if (k.startsWith(PREFIX) && typeof v === 'string' && Object.keys(fields).length < MAX_FIELDS)
      fields[k.slice(PREFIX.length)] = v.slice(0, MAX_VALUE)
  return { to, fields }
}

/** Hidden inputs that carry the kept form through the sign-in form. */
export const resumeFields = (r: Resume): SafeHtml =>
  html`<input type="hidden" name="resume_to" value="${r.to}">${hiddenFields(r.fields, PREFIX)}`

const hiddenFields = (fields: Record<string, string>, prefix = '') =>
  Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${prefix + k}" value="${v}">`)

/** After signing in again: the kept form, shown, to send with the new session's token. */
export function resumePage(r: Resume, csrf: string, back: string): SafeHtml {
  const shown = Object.entries(r.fields).filter(([, v]) => v !== '')
  return html`<div class="card"><h1>Send your form again</h1>
<p>You are signed in again. The form you sent when your session had ended is below, as you filled it: send it now, or go back without sending it.</p>
<dl class="props" data-testid="resume-fields">${shown.map(([k, v]) => html`<dt>${k.replace(/_/g, ' ')}</dt><dd>${v}</dd>`)}</dl>
<form method="post" action="${r.to}" class="actions"><input type="hidden" name="_csrf" value="${csrf}">${hiddenFields(r.fields)}
<button type="submit">Send it</button> <a class="button secondary" href="${back}">Back without sending</a></form></div>`
}
