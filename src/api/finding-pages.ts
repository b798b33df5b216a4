// Finished findings pages (the JSON text of GET /findings) kept in memory and served again while
// their workspace's findings change count (store/findings-version.ts) is unchanged. A list otherwise costs
// the decoding of 100 rows of 33 columns and writing them as text; a page served again costs one
// primary-key probe, which also checks membership at request time, as every uncached read does.
// Each API process keeps its own pages; the count is in the database, so they all see every write.
import { listFindingArrays, type FindingFilter } from '../store/findings.js'
import { findingsVersion } from '../store/findings-version.js'
import { findingsPageJson } from '../reports/finding-json.js'
import type { Db } from '../store/db.js'

interface Page {
  version: string
  json: string
}

export class FindingPages {
  private readonly pages = new Map<string, Page>()
  private size = 0
  /** Pages served from memory and built afresh (tests and the benchmark read them). */
  hits = 0
  misses = 0

  /** `maxChars`: the total length of the pages kept, the least recently used going first (0: none kept, none looked up). */
  constructor(
    private readonly db: Db,
    private readonly maxChars = 32 * 1024 * 1024,
  ) {}

  /** `{"data":[...]}` of the user's list `f`, exactly as built from the database. */
  async json(userId: number, f: FindingFilter): Promise<string> {
    if (this.maxChars === 0) return findingsPageJson(await listFindingArrays(this.db, userId, f))
    const v = await findingsVersion(this.db, userId, f)
    // No single workspace, or not a member: read and built each time (the answer is then as uncached).
    if (!v) return findingsPageJson(await listFindingArrays(this.db, userId, f))
    // Everything that shapes the answer besides the workspace's rows is in the filter; a member's
    // list of a workspace does not depend on who the member is.
    const key = `${v.workspaceId}:${JSON.stringify(f)}`
    const page = this.pages.get(key)
    if (page?.version === v.version) {
      this.hits++
      // Most recently used last: the oldest go first when memory runs short.
      this.pages.delete(key)
      this.pages.set(key, page)
      return page.json
    }
    this.misses++
    const json = findingsPageJson(await listFindingArrays(this.db, userId, f))
    this.keep(key, { version: v.version, json })
    return json
  }

  private keep(key: string, page: Page) {
    const old = this.pages.get(key)
    if (old) {
      this.size -= old.json.length
      this.pages.delete(key)
    }
    if (page.json.length > this.maxChars) return
    this.pages.set(key, page)
    this.size += page.json.length
    for (const [k, p] of this.pages) {
      if (this.size <= this.maxChars) break
      this.pages.delete(k)
      this.size -= p.json.length
    }
  }
}
