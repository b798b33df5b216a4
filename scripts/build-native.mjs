// Builds the optional native addon (native/port-scan.c → native/build/port_scan.node): the port
// scans (raw-socket SYN scan, and the connect scan). It needs a C compiler and Node's headers; when
// either is missing the build writes the reason to native/build/port_scan.failed and Ward scans with
// Node's own sockets instead (slower; nothing else depends on the addon). Called by scripts/build.mjs, so `npm install` (prepare) builds it, and
// `ensureBuilt()` rebuilds it when the source is newer. Writes go to a temporary file renamed into
// place, so concurrent callers never load a half-written library.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SOURCE = join(ROOT, 'native', 'port-scan.c')
const OUT_DIR = join(ROOT, 'native', 'build')
export const ADDON = join(OUT_DIR, 'port_scan.node')
const FAILED = join(OUT_DIR, 'port_scan.failed')

const mtime = (f) => (existsSync(f) ? statSync(f).mtimeMs : 0)

/** Where node_api.h is: beside this Node (distribution layout), npm's nodedir, or node-gyp's cache. */
function nodeHeaders() {
  const v = process.versions.node
  const candidates = [
    join(dirname(process.execPath), '..', 'include', 'node'),
    process.env.npm_config_nodedir && join(process.env.npm_config_nodedir, 'include', 'node'),
    join(homedir(), '.cache', 'node-gyp', v, 'include', 'node'),
    '/usr/include/node',
  ].filter(Boolean)
  return candidates.find((d) => existsSync(join(d, 'node_api.h'))) ?? null
}

/** Builds the addon when it is missing or older than its source; returns null or why it could not. */
export function ensureNative({ quiet = false } = {}) {
  if (process.platform !== 'linux') return 'the port-scan addon is built on Linux only'
  const src = mtime(SOURCE)
  if (!src) return 'native/port-scan.c is missing'
  if (mtime(ADDON) >= src) return null
  if (mtime(FAILED) >= src) return 'the port-scan addon could not be built (see native/build/port_scan.failed)'
  mkdirSync(OUT_DIR, { recursive: true })
  const headers = nodeHeaders()
  let reason = null
  if (!headers) reason = "Node's C headers (node_api.h) were not found"
  else {
    const tmp = `${ADDON}.${process.pid}.tmp`
    const cc = process.env.CC || 'cc'
    const r = spawnSync(cc, ['-O2', '-Wall', '-shared', '-fPIC', '-I', headers, '-o', tmp, SOURCE, '-lm'], { encoding: 'utf8' })
    if (r.error || r.status !== 0) {
      rmSync(tmp, { force: true })
      reason = `${cc} failed: ${r.error?.message ?? r.stderr.trim().split('\n').slice(-3).join(' ')}`
    } else renameSync(tmp, ADDON)
  }
  if (reason) {
    writeFileSync(FAILED, `${reason}\n`)
    if (!quiet)
      process.stderr.write(`ward: port-scan addon not built (${reason}); port scans will use Node's sockets (slower) and no SYN scan\n`)
  }
  return reason
}
