// What the URL Fuzzer writes: output_data.urls (every discovery, capped), one finding per sensitive
// discovery under its kind's test, and one summary finding listing the plain discoveries.
import type { ScanContext, TestHandle } from '../../toolkit/tool.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import { pathDiscovery } from './checks.js'
import { classify } from './detect/classify.js'
import type { Discovery } from './probes/fuzz.js'

/** output_data.urls keeps at most this many entries (a misbehaving site could answer "found" to everything). */
export const MAX_OUTPUT_URLS = 10_000
const MAX_SUMMARY_ROWS = 1_000

export interface UrlEntry {
  url: string
  method: string
  status: number
  length: number
  content_type: string
  redirect: string | null
}

export interface KindTest {
  handle: TestHandle
  found: number
}

type Where = { port: number; protocol: 'tcp'; service: string }

const COLUMNS = ['Method', 'URL', 'Status', 'Length', 'Content type', 'Redirect']
const row = (d: Discovery) => [d.method, d.url, d.status, d.length, d.contentType, d.redirect ?? '']
// Stable order for the stored results (discovery order depends on timing).
const byUrl = (a: { url: string; method: string }, b: { url: string; method: string }) =>
  a.url < b.url ? -1 : a.url > b.url ? 1 : a.method < b.method ? -1 : 1

/** Records discoveries as they come: `add` for each, `finish` once at the end. */
export function discoveryOutput(ctx: Pick<ScanContext, 'log' | 'output'>, kindTests: ReadonlyMap<string, KindTest>, where: Where) {
  const urls: UrlEntry[] = []
  const plain: Discovery[] = []
  const seen = new Set<string>()
  const reported = new Set<string>()
  let lastOutput = 0
  const flush = (force = false) => {
    if (!force && performance.now() - lastOutput < 2000) return
    lastOutput = performance.now()
    ctx.output('urls', urls.slice())
  }

  async function add(d: Discovery): Promise<void> {
    // A word list may reach one URL twice ("index" + ".php" and "index.php").
    const id = `${d.method} ${d.url}`
    if (seen.has(id)) return
    seen.add(id)
    ctx.log(`found ${d.method} ${d.url} ${d.status} ${d.length}${d.redirect ? ` -> ${d.redirect}` : ''}`)
    if (urls.length < MAX_OUTPUT_URLS) {
      urls.push({ url: d.url, method: d.method, status: d.status, length: d.length, content_type: d.contentType, redirect: d.redirect })
    } else if (urls.length === MAX_OUTPUT_URLS)
      ctx.log(`output_data.urls is full (${MAX_OUTPUT_URLS}); further discoveries are only logged`)
    const kind = classify(d.path, d.status)
    if (!kind) {
      if (plain.length < MAX_OUTPUT_URLS) plain.push(d)
    } else if (!reported.has(`${kind.check.id} ${d.url}`)) {
      reported.add(`${kind.check.id} ${d.url}`)
      const t = kindTests.get(kind.check.id)!
      t.found++
      await t.handle.finding({
        check: kind.check,
        risk: kind.risk,
        url: d.url,
        ...where,
        detail: `${d.method} ${d.url} answered ${d.status} with ${d.length} bytes${d.contentType ? ` of ${d.contentType}` : ''}.`,
        evidence: tableEvidence(COLUMNS, [row(d)]),
      })
    }
    flush()
  }

  /** The summary finding and the final output; returns how many plain paths were found. */
  async function finish(discoveryTest: TestHandle, base: URL): Promise<number> {
    urls.sort(byUrl)
    plain.sort(byUrl)
    if (plain.length) {
      await discoveryTest.finding({
        check: pathDiscovery,
        url: base.href,
        ...where,
        detail:
          `${plain.length} path${plain.length === 1 ? '' : 's'} found under ${base.href}` +
          (plain.length > MAX_SUMMARY_ROWS ? `; the first ${MAX_SUMMARY_ROWS} are listed, all are in output_data.urls.` : '.'),
        evidence: tableEvidence(COLUMNS, plain.slice(0, MAX_SUMMARY_ROWS).map(row)),
      })
    }
    flush(true)
    return plain.length
  }

  return { add, finish }
}
