// Website Recon benchmark: Ward's tool 310 and `whatweb -a 3` (when installed) on the same loopback
// recon beds (127.0.81.40+): which planted technologies each names (by name, and with the right
// version), and how long each takes per site.
import { spawn, spawnSync } from 'node:child_process'
import { runTool } from '../test/helpers/tool-harness.js'
import { websiteRecon } from '../src/tools/website-recon/run.js'
import { SITES, startReconSite } from '../test/testbed/recon-sites.js'
import { machine } from './_shared.js'

/** whatweb's plugin names for our technology names, where they differ. */
const WHATWEB_NAMES: Record<string, string[]> = {
  'Apache HTTP Server': ['Apache'],
  nginx: ['nginx'],
  PHP: ['PHP'],
  WordPress: ['WordPress'],
  jQuery: ['JQuery'],
  'jQuery UI': ['JQuery-UI', 'JQueryUI'],
  Bootstrap: ['Bootstrap'],
  'Font Awesome': ['Font-Awesome', 'FontAwesome'],
  Modernizr: ['Modernizr'],
  Cloudflare: ['Cloudflare', 'CloudFlare'],
  Express: ['X-Powered-By', 'Express'],
  'Google Analytics': ['Google-Analytics'],
  Ubuntu: ['Ubuntu'],
  HSTS: ['Strict-Transport-Security'],
  Laravel: ['Laravel'],
  React: ['React'],
  Lodash: ['Lodash'],
}

function whatweb(url: string): Promise<{ seconds: number; plugins: Map<string, string[]> } | null> {
  if (spawnSync('which', ['whatweb']).status !== 0) return Promise.resolve(null)
  return new Promise((resolve) => {
    const t0 = performance.now()
    const p = spawn('whatweb', ['-a', '3', '--color=never', '--log-json=-', '-q', url], { stdio: ['ignore', 'pipe', 'ignore'] })
    let out = ''
    p.stdout.on('data', (d) => (out += d))
    p.on('close', () => {
      const plugins = new Map<string, string[]>()
      for (const line of out.split('\n')) {
        try {
          const rec = JSON.parse(line.replace(/,$/, '')) as
            | { plugins?: Record<string, { version?: string[]; string?: string[] }> }
            | Array<{ plugins?: Record<string, { version?: string[]; string?: string[] }> }>
          for (const r of Array.isArray(rec) ? rec : [rec])
            for (const [k, v] of Object.entries(r.plugins ?? {})) plugins.set(k, [...(v.version ?? []), ...(v.string ?? [])])
        } catch {
          // not a JSON line
        }
      }
      resolve({ seconds: (performance.now() - t0) / 1000, plugins })
    })
  })
}

export async function run(): Promise<void> {
  console.log(`Website Recon vs whatweb -a 3 — ${machine()}\n`)
  const rows: string[] = []
  let total = 0
  const score = { ward: 0, wardVersion: 0, ww: 0, wwVersion: 0, wardS: 0, wwS: 0, versions: 0 }
  let wwMissing = false
  for (const [i, site] of SITES.entries()) {
    const bed = await startReconSite(`127.0.81.${40 + i}`, site)
    try {
      const r = await runTool(websiteRecon, { target: bed.url })
      const got = new Map((r.output.technologies as Array<{ name: string; version: string | null }>).map((t) => [t.name, t.version]))
      const ww = await whatweb(bed.url)
      if (!ww) wwMissing = true
      let ward = 0
      let wardV = 0
      let wwN = 0
      let wwV = 0
      for (const [name, version] of site.truth) {
        total++
        if (version) score.versions++
        if (got.has(name)) ward++
        if (version && got.get(name) === version) wardV++
        const keys = WHATWEB_NAMES[name] ?? [name]
        // whatweb names servers and OSes inside HTTPServer[...] and X-Powered-By[...]: those count too.
        const inStrings =
          ww &&
          ['HTTPServer', 'X-Powered-By'].flatMap((k) => ww.plugins.get(k) ?? []).filter((x) => x.toLowerCase().includes(name.toLowerCase()))
        const hit = ww && (keys.map((k) => ww.plugins.get(k)).find((v) => v !== undefined) ?? (inStrings?.length ? inStrings : undefined))
        if (hit) wwN++
        if (hit && version && hit.some((s) => s.includes(version))) wwV++
      }
      score.ward += ward
      score.wardVersion += wardV
      score.ww += wwN
      score.wwVersion += wwV
      score.wardS += r.elapsedMs / 1000
      score.wwS += ww?.seconds ?? 0
      const versions = site.truth.filter(([, v]) => v).length
      rows.push(
        `| ${site.name} | ${site.truth.length} | ${ward} (${wardV}/${versions} versions) in ${(r.elapsedMs / 1000).toFixed(2)} s, ${got.size} named | ${ww ? `${wwN} (${wwV}/${versions} versions) in ${ww.seconds.toFixed(2)} s, ${ww.plugins.size} plugins` : 'not installed'} |`,
      )
    } finally {
      await bed.close()
    }
  }
  console.log('| Site | Planted | Ward (tool 310) | whatweb -a 3 |\n|---|---|---|---|')
  for (const r of rows) console.log(r)
  console.log(
    `| **all** | ${total} | **${score.ward}** (${score.wardVersion}/${score.versions} versions) in ${score.wardS.toFixed(2)} s | ${wwMissing ? 'not installed' : `**${score.ww}** (${score.wwVersion}/${score.versions} versions) in ${score.wwS.toFixed(2)} s`} |`,
  )
}
