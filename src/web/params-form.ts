// A form for a tool's tool_params, generated from its JSON schema (the same one GET /tools shows and
// POST /scans validates against), and the way back from form fields to a tool_params object. A new
// tool parameter therefore appears on the page without page code.
import { checkedIf, html, option, type SafeHtml } from './html.js'

export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  const?: unknown
  default?: unknown
  description?: string
  minimum?: number
  maximum?: number
  maxLength?: number
  writeOnly?: boolean
}

const consts = (s: JsonSchema) => (s.anyOf ?? []).filter((o) => o.const !== undefined).map((o) => String(o.const))
const isEnum = (s: JsonSchema) => !!s.anyOf && s.anyOf.every((o) => o.const !== undefined)
const label = (name: string) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())
const shownDefault = (v: unknown) => (v === undefined ? '' : Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? '' : String(v))

/**
 * Form controls for one tool; field names are `p.<tool id>.<path>`. `values` (an earlier scan's
 * tool_params, "Scan again") fill the fields instead of the defaults; credential objects are never
 * written into a page: the form says they are kept.
 */
export function paramsFields(
  toolId: number,
  schema: JsonSchema,
  path: string[] = [],
  values?: Record<string, unknown>,
  idTag = '',
): SafeHtml {
  return html`${Object.entries(schema.properties ?? {}).map(([name, s]) => {
    const members = values && isPlainObject(values[name]) ? (values[name] as Record<string, unknown>) : undefined
    return field(toolId, [...path, name], valued(s, values, name), members, values !== undefined && values[name] !== undefined, idTag)
  })}`
}

/** A labelled form field: the label, its control, then what follows the control (help lines). */
const labelled = (id: string, title: string, control: SafeHtml, ...after: (SafeHtml | '')[]) =>
  html`<div class="field"><label for="${id}">${title}</label>${control}${after}</div>`

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** The schema with the earlier value as its default (objects are filled member by member). */
const valued = (s: JsonSchema, values: Record<string, unknown> | undefined, name: string): JsonSchema =>
  values && values[name] !== undefined && !isPlainObject(values[name]) ? { ...s, default: values[name] } : s

function field(toolId: number, path: string[], s: JsonSchema, values?: Record<string, unknown>, given = false, idTag = ''): SafeHtml {
  const name = `p.${toolId}.${path.join('.')}`
  const id = `p-${toolId}-${path.join('-')}${idTag}`
  const title = label(path[path.length - 1]!)
  const help = s.description ? html`<small>${s.description}</small>` : ''
  if (s.type === 'object' && s.properties)
    return html`<fieldset><legend>${title}</legend>${help}${paramsFields(toolId, s, path, values)}</fieldset>`
  if (s.type === 'boolean') {
    const on = s.default === true
    // The hidden field says the box was on the form, so an unticked box means false rather than "not given".
    return html`<div class="field"><input type="hidden" name="${name}" value="false">${[
      html`<label><input type="checkbox" id="${id}" name="${name}" value="true"${checkedIf(on)}> ${title}</label>${help}</div>`,
    ]}`
  }
  if (isEnum(s)) {
    const options = consts(s).map((c) => option(c, c, c === String(s.default)))
    return labelled(id, title, html`<select id="${id}" name="${name}">${options}</select>`, help)
  }
  if (s.type === 'integer' || s.type === 'number') {
    // One help line: what it is, then its range.
    const range =
      s.minimum !== undefined || s.maximum !== undefined
        ? `${s.minimum ?? ''} to ${s.maximum ?? ''}${s.default === undefined ? ', empty: the tool decides' : ''}`
        : ''
    const line = [s.description, range && (s.description ? `(${range})` : range)].filter(Boolean).join(' ')
    const bounds = [s.minimum !== undefined ? html` min="${s.minimum}"` : '', s.maximum !== undefined ? html` max="${s.maximum}"` : '']
    const input = html`<input type="number" id="${id}" name="${name}" value="${shownDefault(s.default)}"${bounds}>`
    return labelled(id, title, input, line ? html`<small>${line}</small>` : '')
  }
  if (isObjectUnion(s)) return unionFields(toolId, path, s, id, name, title, given)
  if (isObjectList(s)) {
    // A list of objects (user name and password pairs): written as JSON.
    const members = Object.keys(s.items?.properties ?? {})
      .map((k) => `"${k}": …`)
      .join(', ')
    const input = html`<textarea id="${id}" name="${name}" rows="2" autocomplete="off" spellcheck="false" placeholder='[{${members}}]'></textarea>`
    return labelled(id, title, input, help, html`<small>JSON: a list of {${members}}</small>`)
  }
  if (s.type === 'array' || s.anyOf) {
    // How to write a list is said once above the parameters; a field adds only its named choices.
    const choices = consts(s)
    const hint = choices.length && !s.description ? html`<small>${choices.join(' or ')}, or a list</small>` : ''
    return labelled(id, title, html`<textarea id="${id}" name="${name}" rows="2">${shownDefault(s.default)}</textarea>`, help, hint)
  }
  // A credential is typed, never shown: no value is ever written back into the page.
  const maxLength = s.maxLength ? html` maxlength="${s.maxLength}"` : ''
  if (s.writeOnly)
    return labelled(id, title, html`<input type="password" id="${id}" name="${name}" autocomplete="new-password"${maxLength}>`, help)
  return labelled(id, title, html`<input type="text" id="${id}" name="${name}" value="${shownDefault(s.default)}"${maxLength}>`, help)
}

const lastOf = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[v.length - 1] ?? '') : (v ?? ''))
const kindOf = (o: JsonSchema) => String((o.properties?.type as JsonSchema | undefined)?.const ?? '')
/** Members a form can hold: a free-form record (more fields, any names) has no place on it. */
const formable = (o: JsonSchema): JsonSchema => ({
  ...o,
  properties: Object.fromEntries(
    Object.entries(o.properties ?? {}).filter(([k, m]) => k !== 'type' && !(m.type === 'object' && !m.properties)),
  ),
})

/**
 * Kinds of one object (authentication: form login, basic, …): a choice of kind, then that kind's
 * members only (ward.js shows the chosen kind's and disables the others, so they are not sent).
 */
function unionFields(toolId: number, path: string[], s: JsonSchema, id: string, name: string, title: string, given: boolean): SafeHtml {
  const kinds = (s.anyOf ?? []).filter((o) => kindOf(o))
  const kept = given
    ? html`<small data-kept="${path.join('.')}">${[
        html`Kept from the earlier scan (its secrets stay sealed): leave "keep" chosen to keep it, or choose a kind to replace it.`,
      ]}</small>`
    : ''
  const options = kinds.map((o) => html`<option value="${kindOf(o)}">${kindOf(o)}</option>`)
  return html`<fieldset class="union"><legend>${title}</legend>${s.description ? html`<small>${s.description}</small>` : ''}${kept}
<div class="field"><label for="${id}-type">Kind</label><select id="${id}-type" name="${name}.type">${[
    html`<option value="">${given ? "keep the earlier scan's" : 'none'}</option>`,
    options,
  ]}</select></div>
${kinds.map((o) => html`<div data-show-if="${id}-type=${kindOf(o)}" hidden>${paramsFields(toolId, formable(o), path, undefined, `-${kindOf(o)}`)}</div>`)}
</fieldset>`
}

/**
 * Form fields → tool_params, typed by the schema. Empty fields are left out (the schema's default
 * applies); values that do not fit stay text, so validation names them.
 */
export function paramsFromForm(toolId: number, schema: JsonSchema, form: Record<string, string | string[]>): Record<string, unknown> {
  const prefix = `p.${toolId}.`
  const out: Record<string, unknown> = {}
  for (const [key, raw] of Object.entries(form)) {
    if (!key.startsWith(prefix)) continue
    const path = key.slice(prefix.length).split('.')
    let s: JsonSchema | undefined = schema
    path.forEach((p, i) => {
      // Inside kinds of one object, the members are those of the kind chosen on the form.
      if (s && isObjectUnion(s)) s = s.anyOf!.find((o) => kindOf(o) === lastOf(form[`${prefix}${path.slice(0, i).join('.')}.type`]))
      s = s?.properties && Object.hasOwn(s.properties, p) ? s.properties[p] : undefined
    })
    if (!s) continue
    const values = Array.isArray(raw) ? raw : [raw]
    const v = s.type === 'boolean' ? values.includes('true') : convert(s, values[values.length - 1]!.trim())
    if (v === undefined) continue
    let at = out
    for (const p of path.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>
    at[path[path.length - 1]!] = v
  }
  return out
}

const isObjectUnion = (s: JsonSchema) => !!s.anyOf?.length && s.anyOf.every((o) => o.type === 'object')
const isObjectList = (s: JsonSchema) => s.type === 'array' && s.items?.type === 'object'

function convert(s: JsonSchema, v: string): unknown {
  if (v === '') return undefined
  if (isObjectUnion(s) || isObjectList(s)) {
    try {
      return JSON.parse(v) as unknown
    } catch {
      return v // not JSON: validation names the member
    }
  }
  if (s.type === 'integer' || s.type === 'number') return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v
  if (isEnum(s) || s.type === 'string') return v
  if (consts(s).includes(v)) return v
  const array = s.type === 'array' ? s : s.anyOf?.find((o) => o.type === 'array')
  if (array) {
    const items = v
      .split(/[\n,]/)
      .map((x) => x.trim())
      .filter(Boolean)
    return array.items?.type === 'integer' ? items.map((x) => (/^\d+$/.test(x) ? Number(x) : x)) : items
  }
  return v
}
