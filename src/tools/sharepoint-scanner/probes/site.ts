// The files and endpoints the SharePoint Scanner reads, one GET each (web services by their service
// page, never an operation); the answers go to detect/.
import type { Fetcher } from '../../lib/http/fetch.js'
import { mapLimit } from '../../../toolkit/limit.js'
import { answerOf, type Answer } from '../../lib/cms/answer.js'
import { VERSION_FILES } from '../data/endpoints.js'

export interface VersionFiles {
  service: Answer | null
  buildversion: Answer | null
  inf: Answer | null
  /** MicrosoftSharePointTeamServices of any of these answers (the header is sent even on a 401). */
  header: string | null
}

const TEAM_SERVICES = 'microsoftsharepointteamservices'

export async function fetchVersionFiles(fetch: Fetcher, base: URL): Promise<VersionFiles> {
  let header: string | null = null
  const get = async (path: string): Promise<Answer | null> => {
    const url = new URL(path, base).href
    const r = await fetch(url, { maxBodyBytes: 64 * 1024 })
    if (!r) return null
    header ??= r.headers[TEAM_SERVICES] ?? null
    return { url, status: r.status, location: r.headers.location ?? null, contentType: r.headers['content-type'] ?? '', body: r.text() }
  }
  const [service, buildversion, inf] = await Promise.all([
    get(VERSION_FILES.service),
    get(VERSION_FILES.buildversion),
    get(VERSION_FILES.inf),
  ])
  return { service, buildversion, inf, header }
}

/** One GET per path under the site, `concurrency` at a time. */
export async function fetchPaths(
  fetch: Fetcher,
  base: URL,
  paths: readonly string[],
  concurrency: number,
  signal: AbortSignal,
): Promise<Array<{ path: string; answer: Answer | null }>> {
  const out = await mapLimit(paths, concurrency, signal, async (path) => ({
    path,
    answer: await answerOf(fetch, new URL(path, base).href),
  }))
  return out.filter((x): x is { path: string; answer: Answer | null } => !!x)
}

/** A REST API read as JSON (nometadata: the rows are in `value`). */
export const fetchApi = (fetch: Fetcher, base: URL, path: string) =>
  answerOf(fetch, new URL(path, base).href, { headers: { accept: 'application/json;odata=nometadata' } })
