// Whether a SharePoint endpoint answered an anonymous visitor, and what the REST API gave. Judged by
// content: a login page, a 401/403 or a catch-all 200 page counts as closed. Pure.
import type { Answer } from '../../lib/cms/answer.js'

const ok = (a: Answer | null): a is Answer => !!a && a.status === 200

/** The service page or WSDL of an .asmx, the discovery document of spsdisco.aspx, or the OData service document of listdata.svc. */
export const webServiceOpen = (a: Answer | null) =>
  ok(a) &&
  /<wsdl:definitions|The following operations are supported|<discovery\b|<service\b[^>]*xmlns="http:\/\/www\.w3\.org\/2007\/app"/i.test(
    a.body.slice(0, 65536),
  )

const LOGIN =
  /\/_login\/|\/_layouts\/(?:15\/)?Authenticate\.aspx|\/_trust\/|Sign in to your account|id="ctl00_PlaceHolderMain_signInControl/i

/** An application page with its SharePoint content, not the sign-in page it redirects or falls back to. */
export const layoutsPageOpen = (a: Answer | null) =>
  ok(a) && !LOGIN.test(a.body.slice(0, 65536)) && /_spPageContextInfo|class="ms-|id="DeltaPlaceHolderMain"/.test(a.body.slice(0, 200000))

/** The rows of an OData answer: `value` (nometadata/minimalmetadata) or `d.results` (verbose). Null when it is no OData JSON. */
function odataRows(a: Answer | null): Record<string, unknown>[] | null {
  if (!ok(a) || !/json/i.test(a.contentType)) return null
  let doc: unknown
  try {
    doc = JSON.parse(a.body)
  } catch {
    return null
  }
  const o = doc as { value?: unknown; d?: { results?: unknown } }
  const rows = Array.isArray(o?.value) ? o.value : Array.isArray(o?.d?.results) ? o.d.results : null
  return rows ? rows.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object') : null
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 256) : null)

/** Site users of /_api/web/siteusers; null when the API did not answer with them. */
export function siteUsers(a: Answer | null): Array<{ login: string; name: string; email: string | null }> | null {
  const rows = odataRows(a)
  if (!rows) return null
  return rows
    .map((r) => ({ login: str(r.LoginName), name: str(r.Title) ?? '', email: str(r.Email) }))
    .filter((u): u is { login: string; name: string; email: string | null } => !!u.login)
}

/** Lists of /_api/web/lists (hidden system lists left out); null when the API did not answer with them. */
export function siteLists(a: Answer | null): Array<{ title: string; items: number | null }> | null {
  const rows = odataRows(a)
  if (!rows) return null
  return rows
    .filter((r) => r.Hidden !== true)
    .map((r) => ({ title: str(r.Title), items: typeof r.ItemCount === 'number' ? r.ItemCount : null }))
    .filter((l): l is { title: string; items: number | null } => !!l.title)
}
