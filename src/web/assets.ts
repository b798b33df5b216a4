// Static files of the web interface, read once at start from the repo and from npm packages (no CDN):
// served with a content hash in the URL, so browsers may keep them for a year.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

interface Asset {
  body: Buffer
  /** The same bytes compressed once at start (brotli, gzip): htmx and uPlot are ~50 KB each. */
  br: Buffer
  gzip: Buffer
  type: string
  hash: string
}

const SOURCES: Record<string, () => string> = {
  'ward.css': () => fileURLToPath(new URL('./assets/ward.css', import.meta.url)),
  'ward.js': () => fileURLToPath(new URL('./assets/ward.js', import.meta.url)),
  'favicon.svg': () => fileURLToPath(new URL('./assets/favicon.svg', import.meta.url)),
  'htmx.min.js': () => require.resolve('htmx.org/dist/htmx.min.js'),
  'uPlot.iife.min.js': () => require.resolve('uplot/dist/uPlot.iife.min.js'),
  'uPlot.min.css': () => require.resolve('uplot/dist/uPlot.min.css'),
}

let loaded: Map<string, Asset> | null = null

export function assets(): Map<string, Asset> {
  if (loaded) return loaded
  loaded = new Map()
  for (const [name, path] of Object.entries(SOURCES)) {
    const body = readFileSync(path())
    loaded.set(name, {
      body,
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(body, { level: 9 }),
      type: name.endsWith('.css') ? 'text/css; charset=utf-8' : name.endsWith('.svg') ? 'image/svg+xml' : 'text/javascript; charset=utf-8',
      hash: createHash('sha256').update(body).digest('hex').slice(0, 12),
    })
  }
  return loaded
}

export const assetUrl = (name: string) => `/assets/${name}?v=${assets().get(name)!.hash}`

/** The content codings a client accepts (q=0 refuses one). */
export function acceptedEncodings(acceptEncoding: string | undefined): Set<string> {
  return new Set(
    String(acceptEncoding ?? '')
      .split(',')
      .map((p) => p.trim().split(';'))
      .filter(([, q]) => !q || !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q))
      .map(([name]) => name!.trim().toLowerCase()),
  )
}

/** The best encoding of an asset this client accepts. */
export function assetEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = acceptedEncodings(acceptEncoding)
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null
}
