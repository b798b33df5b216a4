// Tool 90, URL Fuzzer: requests words from a wordlist under the target's path and reports what exists.
// Sensitive discoveries (VCS folders, backups, config files, admin panels, debug endpoints) become
// findings by kind; the rest is one info finding per base URL. Every discovery is in output_data.urls.
// The sequence only: I/O is in probes/, decisions in detect/, what is written in output.ts.
import { defineTool, type ScanContext, type TestHandle } from '../../toolkit/tool.js'
import { DEFAULT_BUDGET, scanBudget } from '../../toolkit/budget.js'
import { loginForScan } from '../lib/http/auth/scan-login.js'
import { portOf, serviceOf } from '../lib/http/url.js'
import { urlFuzzerManifest } from './manifest.js'
import { KIND_TESTS } from './checks.js'
import type { UrlFuzzerParams } from './params.js'
import { resolveBase } from './probes/base-url.js'
import { openWordlist } from './probes/wordlist.js'
import { createFuzzer, type FuzzStats } from './probes/fuzz.js'
import { discoveryOutput, type KindTest } from './output.js'

export const urlFuzzer = defineTool(urlFuzzerManifest, async (ctx) => {
  const p = ctx.params
  const signal = ctx.signal
  // Logged in first (when tool_params.authentication asks): every request below carries the session.
  const net = await loginForScan(ctx as ScanContext<unknown>, p.authentication)
  const { base, trail } = await resolveBase(net, ctx.target, ctx.options, signal, (l) => ctx.log(l))
  if (signal.aborted) return
  for (const line of trail) ctx.log(`base: ${line}`)
  const source = await openWordlist(p.wordlist)
  ctx.log(
    `fuzzing ${base.href}: ${source.total} words × ${p.extensions.length + 1} suffixes × ${p.methods.length} methods, ` +
      `concurrency ${p.concurrency}, ${p.rate_limit} req/s`,
  )

  const calibration = await ctx.test(
    'Soft-404 calibration',
    'Requests random nonexistent paths to learn how the site answers them, so such answers are not reported.',
  )
  const kindTests = new Map<string, KindTest>()
  for (const k of KIND_TESTS) kindTests.set(k.check.id, { handle: await ctx.test(k.name, k.description), found: 0 })
  const discoveryTest = await ctx.test(
    'Path discovery',
    `Requests every word of the wordlist under ${base.href} and lists the paths that exist.`,
  )
  const out = discoveryOutput(ctx, kindTests, { port: portOf(base), protocol: 'tcp', service: serviceOf(base) })

  const fuzzer = createFuzzer({
    http: (url, req) => net.http(url, req),
    base,
    source,
    extensions: p.extensions,
    methods: p.methods,
    statusCodes: new Set(p.status_codes),
    concurrency: p.concurrency,
    // The fuzzer is its scan's only user of the budget: its concurrency is the per-host limit.
    budget: scanBudget(ctx, { total: Math.max(DEFAULT_BUDGET.total, p.concurrency), perHost: p.concurrency }),
    rateLimit: p.rate_limit,
    followRedirects: p.follow_redirects,
    signal,
    onDiscovery: out.add,
    onProgress: (done, total) => ctx.progress(done, total),
    onCalibrated: (key, sig) =>
      ctx.log(
        `soft-404 [${key}]: nonexistent paths answer ${sig.probes.map((x) => `${x.status}/${x.length}b${x.location ? ` -> ${x.location}` : ''}`).join(', ')}`,
      ),
    log: (line) => ctx.log(line),
  })

  const calibrationError = await calibrate(ctx, fuzzer.soft404, p)
  if (calibrationError) await calibration.error(calibrationError)
  else await calibration.done()
  const stats = calibrationError && signal.aborted ? undefined : await fuzzer.run()
  if (stats) logStats(ctx, stats)
  const plain = await out.finish(discoveryTest, base)

  // A test that found nothing but did not get through the wordlist did not pass: it did not finish.
  const incomplete = !stats ? calibrationError : stats.aborted ? 'the scan was stopped before the end of the wordlist' : stats.gaveUp
  const finish = async (t: TestHandle, found: number) => (incomplete && !found ? t.error(incomplete) : t.done())
  for (const { handle, found } of kindTests.values()) await finish(handle, found)
  await finish(discoveryTest, plain)
})

/** The site's answer for nonexistent paths at the base, per method, before any word is tried. The error, if any. */
async function calibrate(
  ctx: Pick<ScanContext, 'log' | 'signal'>,
  soft404: ReturnType<typeof createFuzzer>['soft404'],
  p: Pick<UrlFuzzerParams, 'methods' | 'status_codes'>,
): Promise<string | undefined> {
  try {
    for (const m of p.methods) {
      const sig = await soft404.signatureFor(m, 'x')
      const soft = sig?.statuses.filter((s) => p.status_codes.includes(s)) ?? []
      if (soft.length)
        ctx.log(`${m}: the site answers ${soft.join('/')} for nonexistent paths (catch-all); such answers are filtered by signature`)
    }
    return undefined
  } catch (e) {
    return ctx.signal.aborted ? 'the scan was stopped during calibration' : `calibration failed: ${(e as Error).message}`
  }
}

function logStats(ctx: Pick<ScanContext, 'log'>, stats: FuzzStats): void {
  const secs = stats.elapsedMs / 1000
  ctx.log(
    `${stats.requests} requests in ${secs.toFixed(1)} s (${Math.round(stats.requests / Math.max(secs, 0.001))} req/s): ` +
      `${stats.discoveries} found, ${stats.filtered} soft-404 answers filtered, ${stats.errors} errors` +
      (stats.aborted ? ', stopped before the end of the wordlist' : ''),
  )
  if (stats.gaveUp) ctx.log(`gave up: ${stats.gaveUp}`)
}
