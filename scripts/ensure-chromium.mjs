// Debian packages some tests need: chromium for the browser tests (test/web/*browser*, driven by
// playwright-core) and poppler-utils' pdftotext for the tests that read a PDF's text. When one is
// missing and we run as root, install it with apt-get; otherwise say why those tests skip.
// `node scripts/ensure-chromium.mjs` alone, or called by scripts/test.mjs.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'

export const CHROMIUM = process.env.WARD_CHROMIUM || '/usr/bin/chromium'
export const PDFTOTEXT = '/usr/bin/pdftotext'

let updated = false

/** null when `bin` is there (or `pkg` was installed now), else why the tests needing it skip. */
export function ensureDebianPackage(bin, pkg, { quiet = false } = {}) {
  if (existsSync(bin)) return null
  if (process.platform !== 'linux' || typeof process.getuid !== 'function' || process.getuid() !== 0)
    return `${bin} is missing and this is not root on Linux: install Debian's ${pkg} (apt-get install ${pkg})`
  if (!existsSync('/usr/bin/apt-get')) return `${bin} is missing and apt-get is not available to install ${pkg}`
  if (!quiet) process.stderr.write(`installing Debian's ${pkg} for the tests (apt-get install ${pkg}) ...\n`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const opts = { stdio: quiet ? 'ignore' : 'inherit', env }
  if (!updated) spawnSync('apt-get', ['update'], opts)
  updated = true
  const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], opts)
  if (r.status !== 0 || !existsSync(bin)) return `apt-get install ${pkg} failed (exit ${r.status})`
  return null
}

export const ensureChromium = (o) => ensureDebianPackage(CHROMIUM, 'chromium', o)
export const ensurePdftotext = (o) => ensureDebianPackage(PDFTOTEXT, 'poppler-utils', o)

if (import.meta.url === `file://${process.argv[1]}`) {
  const why = ensureChromium()
  console.log(why ?? `chromium is ready at ${CHROMIUM}`)
  const pdf = ensurePdftotext()
  console.log(pdf ?? `pdftotext is ready at ${PDFTOTEXT}`)
}
