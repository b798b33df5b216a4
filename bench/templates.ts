// Template engine against the community corpus (nuclei YAML), kept outside the repository:
//   npm run bench -- templates --corpus DIR [--http 1300] [--other 10] [--runs 1]
// 1. Coverage: a deterministic sample spread over the corpus's folders (every k-th file of each
//    folder in path order, all of network/, dns/ and ssl/, a few of each unsupported protocol), read by
//    Ward's loader; the share that loads per protocol and the top reasons for the rest.
// 2. Running: every loaded http template of the sample in one light Website Scanner scan (the real tool,
//    its egress and request clustering, `rate_limit` raised so the pacing does not set the rate) against
//    the URL-fuzzing test bed (404s, and planted exposures) on its own loopback address; the share that runs (a test that is neither
//    an error nor skipped), requests, requests saved by clustering, CPU per template, peak RSS, and
//    ffuf's request rate against the same host in the same run (when installed).
import { readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'
import os, { tmpdir } from 'node:os'
import { parseArgs, machine, fmt } from './_shared.js'
import { startServer, which, runCounted } from './url-fuzz.js'
import { runTool, type HarnessTest } from '../test/helpers/tool-harness.js'
import { websiteScanner } from '../src/tools/website-scanner/run.js'
import { loadTemplate, type Template } from '../src/tools/lib/templates/index.js'
import type { StoredTemplate, TemplateSource } from '../src/toolkit/templates.js'

const HOST = '127.0.119.1'
/** Folders of the corpus that hold no templates of their own. */
const NOT_TEMPLATES = new Set(['.github', 'profiles', 'helpers'])

function yamlFiles(dir: string, root = dir, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) {
      if (dir === root && NOT_TEMPLATES.has(e.name)) continue
      yamlFiles(p, root, out)
    } else if (/\.ya?ml$/.test(e.name) && dir !== root) out.push(relative(root, p))
  }
  return out
}

/** Every k-th file of each second-level folder, so the sample keeps the corpus's spread. */
function sample(files: string[], want: number): string[] {
  const byFolder = new Map<string, string[]>()
  for (const f of files.sort()) {
    const folder = f.split('/').slice(0, 2).join('/')
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f])
  }
  const step = Math.max(1, files.length / want)
  const out: string[] = []
  for (const list of byFolder.values()) {
    const n = Math.max(1, Math.round(list.length / step))
    for (let i = 0; i < n; i++) out.push(list[Math.floor((i * list.length) / n)]!)
  }
  return out
}

/** A reason without its particulars (names, numbers, quoted text), for grouping. */
const reasonKind = (r: string) =>
  r
    .replace(/^template [^:]+: /, '')
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '…')
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .slice(0, 110)

function topReasons(reasons: string[], n = 8): string[] {
  const count = new Map<string, number>()
  for (const r of reasons) count.set(reasonKind(r), (count.get(reasonKind(r)) ?? 0) + 1)
  return [...count.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([r, c]) => `${String(c).padStart(5)}  ${r}`)
}

interface Loaded {
  file: string
  group: string
  template?: Template
  /** Payload files the template reads, as an import stores them. */
  files?: Record<string, string>
  reason?: string
}

function loadSample(root: string, files: string[]): Loaded[] {
  return files.map((file) => {
    const group = file.split('/')[0]!
    const text = readFileSync(join(root, file), 'utf8')
    const readFile = (ref: string) => {
      for (const base of [dirname(join(root, file)), root]) {
        const p = resolve(base, ref)
        if (!p.startsWith(root)) continue
        try {
          if (statSync(p).size <= 1 << 20) return readFileSync(p, 'utf8')
        } catch {}
      }
      return null
    }
    const r = loadTemplate(text, { path: file, readFile })
    return r.ok ? { file, group, template: r.template, files: r.files } : { file, group, reason: r.reason }
  })
}

function printCoverage(loaded: Loaded[]): void {
  const groups = [...new Set(loaded.map((l) => l.group))].sort()
  console.log('\n== coverage: the sample read by the loader')
  console.log(`${'folder'.padEnd(14)} ${'sampled'.padStart(8)} ${'loaded'.padStart(8)} ${'share'.padStart(7)}`)
  for (const g of groups) {
    const all = loaded.filter((l) => l.group === g)
    const ok = all.filter((l) => l.template).length
    console.log(
      `${g.padEnd(14)} ${String(all.length).padStart(8)} ${String(ok).padStart(8)} ${`${fmt((100 * ok) / all.length)}%`.padStart(7)}`,
    )
  }
  for (const g of groups) {
    const reasons = loaded.filter((l) => l.group === g && l.reason).map((l) => l.reason!)
    if (reasons.length) console.log(`\ntop reasons not loaded, ${g}/:\n${topReasons(reasons).join('\n')}`)
  }
}

const sourceOf = (loaded: Loaded[], root: string): TemplateSource => ({
  async forProtocol(protocol) {
    return loaded
      .filter((l) => l.template?.protocol === protocol)
      .map(
        (l): StoredTemplate => ({ id: l.template!.id, path: l.file, yaml: readFileSync(join(root, l.file), 'utf8'), files: l.files ?? {} }),
      )
  },
})

async function scanWithTemplates(base: string, source: TemplateSource | undefined, ids: string[] = []) {
  let peak = process.memoryUsage().rss
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 50)
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const r = await runTool(websiteScanner, {
    target: base,
    // Named by id, every loaded template runs (the risky tags too: the bed is ours).
    params: { scan_type: 'light', rate_limit: 10_000, ...(source ? { templates: { ids } } : {}) },
    templates: source,
  })
  const seconds = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  clearInterval(timer)
  if (r.error) throw r.error
  return { r, seconds, cpuMs: (cpu.user + cpu.system) / 1000, peakMb: Math.max(peak, process.memoryUsage().rss) / 2 ** 20 }
}

function printRun(tests: HarnessTest[], httpLoaded: number): void {
  const tpl = tests.filter((t) => t.name.startsWith('Template '))
  const ran = tpl.filter((t) => t.status === 'finished')
  const errors = tpl.filter((t) => t.status === 'error')
  const skipped = tpl.filter((t) => t.status === 'skipped')
  console.log(`\n== running: ${tpl.length} template tests of ${httpLoaded} loaded http templates`)
  console.log(
    `ran to an answer: ${ran.length} (${fmt((100 * ran.length) / Math.max(1, tpl.length), 1)}%), matched on the bed: ${ran.filter((t) => t.result === 'failed').length}`,
  )
  const matched = ran.filter((t) => t.result === 'failed').map((t) => t.name.split(':')[0]!.slice('Template '.length))
  if (matched.length)
    console.log(`matched (the bed is the URL fuzzer's site: 404s, and planted .git, .env, SQL dumps, robots.txt): ${matched.join(', ')}`)
  console.log(`errors: ${errors.length}, skipped: ${skipped.length}`)
  if (errors.length) console.log(`top errors:\n${topReasons(errors.map((t) => t.message ?? '')).join('\n')}`)
  if (skipped.length) console.log(`top skip reasons:\n${topReasons(skipped.map((t) => t.message ?? '')).join('\n')}`)
}

async function ffufRate(base: string, words: number): Promise<string> {
  const bin = await which('ffuf')
  if (!bin) return 'ffuf: not installed (apt-get install ffuf), no comparison'
  const list = join(mkdtempSync(join(tmpdir(), 'ward-ffuf-')), 'words.txt')
  writeFileSync(list, Array.from({ length: words }, (_, i) => `ward-bench-${i}`).join('\n'))
  const t0 = performance.now()
  const { cpuMs } = await runCounted(bin, ['-u', `${base}FUZZ`, '-w', list, '-s', '-t', '40', '-mc', '200'])
  const s = (performance.now() - t0) / 1000
  return `ffuf: ${fmt(words)} requests in ${fmt(s, 2)} s = ${fmt(words / s)} req/s, CPU ${fmt(cpuMs / words, 3)} ms per request (40 threads)`
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const root = resolve(a.get('corpus') ?? process.env.WARD_TEMPLATES_CORPUS ?? '')
  if (!a.get('corpus') && !process.env.WARD_TEMPLATES_CORPUS) {
    console.log('templates: give --corpus DIR (a checkout or download of projectdiscovery/nuclei-templates)')
    process.exit(2)
  }
  const httpWanted = Number(a.get('http') ?? 1300)
  const otherEach = Number(a.get('other') ?? 10)
  const files = yamlFiles(root)
  const inGroup = (g: string) => files.filter((f) => f.split('/')[0] === g)
  const groups = [...new Set(files.map((f) => f.split('/')[0]!))]
  const chosen = [
    ...sample(inGroup('http'), httpWanted),
    ...['network', 'dns', 'ssl'].flatMap(inGroup),
    ...groups.filter((g) => !['http', 'network', 'dns', 'ssl'].includes(g)).flatMap((g) => sample(inGroup(g), otherEach)),
  ]
  console.log(
    `templates: corpus ${root}: ${fmt(files.length)} files; sample ${fmt(chosen.length)}; ${machine()}; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  )
  const t0 = performance.now()
  const loaded = loadSample(root, chosen)
  console.log(`loader: ${fmt(chosen.length)} files in ${fmt(performance.now() - t0)} ms`)
  printCoverage(loaded)

  const server = await startServer('normal', HOST)
  const base = `http://${HOST}:${server.port}/`
  try {
    const plain = await scanWithTemplates(base, undefined)
    const before = (await server.stats()).requests
    const ids = loaded.flatMap((l) => (l.template?.protocol === 'http' ? [l.template.id] : []))
    console.log(
      `\n${fmt(ids.length)} loaded http templates, ${fmt(new Set(ids).size)} distinct ids (a later file with the same id replaces the earlier, as an import does)`,
    )
    const withT = await scanWithTemplates(base, sourceOf(loaded, root), ids)
    const bedRequests = (await server.stats()).requests - before
    const httpLoaded = loaded.filter((l) => l.template?.protocol === 'http').length
    printRun(withT.r.tests, httpLoaded)
    const o = withT.r.output.templates as { run: number; requests: number; requests_sent: number; requests_saved_by_clustering: number }
    const tplSeconds = withT.seconds - plain.seconds
    console.log(
      `\n== speed (light scan with templates, minus the same scan without: ${fmt(plain.seconds, 2)} s, ${fmt(plain.cpuMs)} ms CPU)`,
    )
    console.log(
      `templates run ${fmt(o.run)}; requests asked ${fmt(o.requests)}, sent ${fmt(o.requests_sent)}, saved by clustering ${fmt(o.requests_saved_by_clustering)}; the bed saw ${fmt(bedRequests)}`,
    )
    console.log(`time ${fmt(tplSeconds, 2)} s: ${fmt(o.requests_sent / tplSeconds)} req/s sent, ${fmt(o.run / tplSeconds)} templates/s`)
    console.log(
      `CPU ${fmt((withT.cpuMs - plain.cpuMs) / o.run, 2)} ms per template; peak RSS of the scanning process ${fmt(withT.peakMb)} MB (goal ≤ 250)`,
    )
    console.log(await ffufRate(base, Math.max(1000, o.requests_sent)))
  } finally {
    server.child.kill()
  }
}
