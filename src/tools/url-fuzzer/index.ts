// Tool 90, URL Fuzzer: requests words from a wordlist under the target's path and reports what exists.
// Sensitive discoveries (VCS folders, backups, config files, admin panels, debug endpoints) become
// findings by kind; the rest is one info finding per base URL. Every discovery is in output_data.urls.
import { defineTool, type TestHandle } from '../../toolkit/tool.js'
import { urlFuzzerManifest } from './manifest.js'
import type { Check } from '../../toolkit/check.js'
import { adminPanelExposure, backupExposure, configExposure, debugExposure, pathDiscovery, vcsExposure } from './checks.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import { urlFuzzerParams } from './params.js'
import { resolveBase } from './base-url.js'
import type { ScanContext } from '../../toolkit/tool.js'
import { loginForScan } from '../lib/http/auth/scan-login.js'
import { openWordlist } from './wordlist.js'
import { createFuzzer, type Discovery } from './fuzz.js'
import { classify } from './classify.js'

export { urlFuzzerParams } from './params.js'

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

const KIND_TESTS: { check: Check; name: string; description: string }[] = [
  { check: vcsExposure, name: 'Version-control folders', description: 'Requests files of .git, .svn, .hg and .bzr repositories and reports those served.' },
  { check: backupExposure, name: 'Backup files and archives', description: 'Requests backup copies, archives and database dumps and reports those served.' },
  { check: configExposure, name: 'Configuration files', description: 'Requests environment, server and application configuration files and reports those served.' },
  { check: adminPanelExposure, name: 'Administration interfaces', description: 'Requests well-known administration paths and reports those that answer.' },
  { check: debugExposure, name: 'Debug and status endpoints', description: 'Requests phpinfo, server-status, actuator and framework debug paths and reports those served.' },
]

export const urlFuzzer = defineTool(urlFuzzerManifest, async (ctx) => {
  const p = ctx.params
  const signal = ctx.signal
  // Logged in first (when tool_params.authentication asks): every request below carries the session.
  const net = await loginForScan(ctx as ScanContext<unknown>, p.authentication)
  let resolved
  try {
    resolved = await resolveBase(net, ctx.target, ctx.options, signal)
  } catch (e) {
    if (signal.aborted) return
    throw e
  }
  const base = resolved.base
  for (const line of resolved.trail) ctx.log(`base: ${line}`)
  const source = await openWordlist(p.wordlist)
  const methods = p.methods
  const port = Number(base.port) || (base.protocol === 'https:' ? 443 : 80)
  const service = base.protocol === 'https:' ? 'https' : 'http'
  const where = { port, protocol: 'tcp' as const, service }
  ctx.log(
    `fuzzing ${base.href}: ${source.total} words × ${p.extensions.length + 1} suffixes × ${methods.length} methods, ` +
      `concurrency ${p.concurrency}, ${p.rate_limit} req/s`,
  )

  const calibration = await ctx.test('Soft-404 calibration', 'Requests random nonexistent paths to learn how the site answers them, so such answers are not reported.')
  const kindTests = new Map<string, { handle: TestHandle; found: number }>()
  for (const k of KIND_TESTS) kindTests.set(k.check.id, { handle: await ctx.test(k.name, k.description), found: 0 })
  const discoveryTest = await ctx.test('Path discovery', `Requests every word of the wordlist under ${base.href} and lists the paths that exist.`)

  const urls: UrlEntry[] = []
  const plain: Discovery[] = []
  const reported = new Set<string>()
  let lastOutput = 0
  const flushOutput = (force = false) => {
    if (!force && performance.now() - lastOutput < 2000) return
    lastOutput = performance.now()
    ctx.output('urls', urls.slice())
  }

  const seen = new Set<string>()
  const onDiscovery = async (d: Discovery) => {
    // A word list may reach one URL twice ("index" + ".php" and "index.php").
    const id = `${d.method} ${d.url}`
    if (seen.has(id)) return
    seen.add(id)
    ctx.log(`found ${d.method} ${d.url} ${d.status} ${d.length}${d.redirect ? ` -> ${d.redirect}` : ''}`)
    if (urls.length < MAX_OUTPUT_URLS) {
      urls.push({ url: d.url, method: d.method, status: d.status, length: d.length, content_type: d.contentType, redirect: d.redirect })
    } else if (urls.length === MAX_OUTPUT_URLS) ctx.log(`output_data.urls is full (${MAX_OUTPUT_URLS}); further discoveries are only logged`)
    const kind = classify(d.path, d.status)
    if (!kind) {
      if (plain.length < MAX_OUTPUT_URLS) plain.push(d)
      flushOutput()
      return
    }
    const key = `${kind.check.id} ${d.url}`
    if (!reported.has(key)) {
      reported.add(key)
      const t = kindTests.get(kind.check.id)!
      t.found++
      await t.handle.finding({
        check: kind.check,
        risk: kind.risk,
        url: d.url,
        ...where,
        detail: `${d.method} ${d.url} answered ${d.status} with ${d.length} bytes${d.contentType ? ` of ${d.contentType}` : ''}.`,
        evidence: tableEvidence(['Method', 'URL', 'Status', 'Length', 'Content type', 'Redirect'], [[d.method, d.url, d.status, d.length, d.contentType, d.redirect ?? '']]),
      })
    }
    flushOutput()
  }

  const fuzzer = createFuzzer({
    http: (url, req) => net.http(url, req),
    base,
    source,
    extensions: p.extensions,
    methods,
    statusCodes: new Set(p.status_codes),
    concurrency: p.concurrency,
    rateLimit: p.rate_limit,
    followRedirects: p.follow_redirects,
    signal,
    onDiscovery,
    onProgress: (done, total) => ctx.progress(done, total),
    onCalibrated: (key, sig) =>
      ctx.log(`soft-404 [${key}]: nonexistent paths answer ${sig.probes.map((x) => `${x.status}/${x.length}b${x.location ? ` -> ${x.location}` : ''}`).join(', ')}`),
    log: (line) => ctx.log(line),
  })

  // The site's answer for nonexistent paths at the base, per method, before any word is tried.
  let calibrationError: string | undefined
  try {
    for (const m of methods) {
      const sig = await fuzzer.soft404.signatureFor(m, 'x')
      const soft = sig?.statuses.filter((s) => p.status_codes.includes(s)) ?? []
      if (soft.length) ctx.log(`${m}: the site answers ${soft.join('/')} for nonexistent paths (catch-all); such answers are filtered by signature`)
    }
  } catch (e) {
    calibrationError = signal.aborted ? 'the scan was stopped during calibration' : `calibration failed: ${(e as Error).message}`
  }
  if (calibrationError) await calibration.error(calibrationError)
  else await calibration.done()

  const stats = calibrationError && signal.aborted ? undefined : await fuzzer.run()
  if (stats) {
    const secs = stats.elapsedMs / 1000
    ctx.log(
      `${stats.requests} requests in ${secs.toFixed(1)} s (${Math.round(stats.requests / Math.max(secs, 0.001))} req/s): ` +
        `${stats.discoveries} found, ${stats.filtered} soft-404 answers filtered, ${stats.errors} errors` +
        (stats.aborted ? ', stopped before the end of the wordlist' : ''),
    )
    if (stats.gaveUp) ctx.log(`gave up: ${stats.gaveUp}`)
  }

  // Stable order for the stored results (discovery order depends on timing).
  const byUrl = (a: { url: string; method: string }, b: { url: string; method: string }) => (a.url < b.url ? -1 : a.url > b.url ? 1 : a.method < b.method ? -1 : 1)
  urls.sort(byUrl)
  plain.sort(byUrl)
  if (plain.length) {
    const rows = plain.slice(0, MAX_SUMMARY_ROWS).map((d) => [d.method, d.url, d.status, d.length, d.contentType, d.redirect ?? ''])
    await discoveryTest.finding({
      check: pathDiscovery,
      url: base.href,
      ...where,
      detail:
        `${plain.length} path${plain.length === 1 ? '' : 's'} found under ${base.href}` +
        (plain.length > MAX_SUMMARY_ROWS ? `; the first ${MAX_SUMMARY_ROWS} are listed, all are in output_data.urls.` : '.'),
      evidence: tableEvidence(['Method', 'URL', 'Status', 'Length', 'Content type', 'Redirect'], rows),
    })
  }
  flushOutput(true)

  // A test that found nothing but did not get through the wordlist did not pass: it did not finish.
  const incomplete = !stats ? calibrationError : stats.aborted ? 'the scan was stopped before the end of the wordlist' : stats.gaveUp
  const finish = async (t: TestHandle, found: number) => (incomplete && !found ? t.error(incomplete) : t.done())
  for (const { handle, found } of kindTests.values()) await finish(handle, found)
  await finish(discoveryTest, plain.length)
})
