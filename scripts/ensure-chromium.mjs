// The browser tests (test/web/*browser*) drive Debian's chromium through playwright-core. When it is
// missing and we run as root, install it with apt-get (Debian package `chromium`); otherwise say why
// the browser tests will skip. `node scripts/ensure-chromium.mjs` alone, or called by scripts/test.mjs.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'

export const CHROMIUM = process.env.WARD_CHROMIUM || '/usr/bin/chromium'

/** null when chromium is there (or was installed now), else why the browser tests skip. */
export function ensureChromium({ quiet = false } = {}) {
  if (existsSync(CHROMIUM)) return null
  if (process.platform !== 'linux' || typeof process.getuid !== 'function' || process.getuid() !== 0)
    return `${CHROMIUM} is missing and this is not root on Linux: install Debian's chromium (apt-get install chromium) to run the browser tests`
  if (!existsSync('/usr/bin/apt-get')) return `${CHROMIUM} is missing and apt-get is not available to install it`
  if (!quiet) process.stderr.write(`installing Debian's chromium for the browser tests (apt-get install chromium) ...\n`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const opts = { stdio: quiet ? 'ignore' : 'inherit', env }
  spawnSync('apt-get', ['update'], opts)
  const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], opts)
  if (r.status !== 0 || !existsSync(CHROMIUM)) return `apt-get install chromium failed (exit ${r.status}); the browser tests skip`
  return null
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const why = ensureChromium()
  console.log(why ?? `chromium is ready at ${CHROMIUM}`)
}
