// Test bed for the URL fuzzer: a loopback HTTP server with planted paths of every exposure kind.
// Variants: 'normal' (404 for unknown paths), 'catch-all' (200 "not found" page echoing the path and a
// changing request number), 'redirect' (302 to /login?next=<path> for unknown paths).
// It counts requests, in-flight requests (and their maximum) and request times, for the concurrency
// and rate tests. Run as a script (`node --import tsx test/testbed/fuzz-site.ts --host H --variant V`)
// it prints {"port":N} and answers IPC messages 'stats' / 'reset' (used by bench/url-fuzz.ts).
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'

export type FuzzSiteVariant = 'normal' | 'catch-all' | 'redirect'

export interface Planted {
  status: number
  type: string
  body: string
  headers?: Record<string, string>
  /** Only this method gets `status`; others get 405. */
  method?: string
  /** The check the fuzzer must report for it (null: a plain discovery). */
  kind: string | null
}

const html = (title: string, text: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`

/** The truth: every planted path (relative to /) and what the fuzzer must call it. */
export const PLANTED: Readonly<Record<string, Planted>> = {
  '.git/HEAD': { status: 200, type: 'text/plain', body: 'ref: refs/heads/main\n', kind: 'fuzzer.exposure.vcs' },
  '.git/config': {
    status: 200,
    type: 'text/plain',
    body: '[core]\n\trepositoryformatversion = 0\n\tbare = false\n',
    kind: 'fuzzer.exposure.vcs',
  },
  'backup.zip': { status: 200, type: 'application/zip', body: 'PK\u0003\u0004 fake archive', kind: 'fuzzer.exposure.backup' },
  'db.sql': {
    status: 200,
    type: 'application/sql',
    body: 'CREATE TABLE users (id int, email text, password_hash text);\n',
    kind: 'fuzzer.exposure.backup',
  },
  'index.php.bak': {
    status: 200,
    type: 'application/octet-stream',
    body: '<?php include "lib/boot.php"; run(); ?>\n',
    kind: 'fuzzer.exposure.backup',
  },
  '.env': { status: 200, type: 'text/plain', body: 'APP_KEY=base64:planted\nDB_PASSWORD=planted-secret\n', kind: 'fuzzer.exposure.config' },
  'config.php.bak': {
    status: 200,
    type: 'text/plain',
    body: '<?php $db_user = "app"; $db_pass = "planted"; ?>\n',
    kind: 'fuzzer.exposure.config',
  },
  'web.config': {
    status: 200,
    type: 'application/xml',
    body: '<configuration><appSettings/></configuration>\n',
    kind: 'fuzzer.exposure.config',
  },
  'wp-admin': {
    status: 200,
    type: 'text/html',
    body: html('Log In', 'Username or email address, password, remember me.'),
    kind: 'fuzzer.exposure.admin-panel',
  },
  phpmyadmin: {
    status: 200,
    type: 'text/html',
    body: html('phpMyAdmin', 'Welcome to phpMyAdmin. Language, server choice, log in.'),
    kind: 'fuzzer.exposure.admin-panel',
  },
  'server-status': {
    status: 200,
    type: 'text/html',
    body: html('Apache Status', 'Server Version: Apache/2.4.58, current time, restart time, uptime.'),
    kind: 'fuzzer.exposure.debug',
  },
  'phpinfo.php': {
    status: 200,
    type: 'text/html',
    body: html('phpinfo()', 'PHP Version 8.2.1 System Linux build date configure command.'),
    kind: 'fuzzer.exposure.debug',
  },
  'actuator/env': {
    status: 200,
    type: 'application/json',
    body: '{"activeProfiles":["prod"],"propertySources":[]}',
    kind: 'fuzzer.exposure.debug',
  },
  login: { status: 200, type: 'text/html', body: html('Sign in', 'Enter your account name and password to continue.'), kind: null },
  'index.php': { status: 200, type: 'text/html', body: html('Welcome', 'Our shop sells hand-made furniture and lamps.'), kind: null },
  images: { status: 301, type: 'text/html', body: '', headers: { location: '/images/' }, kind: null },
  private: { status: 403, type: 'text/html', body: html('Forbidden', 'You do not have permission.'), kind: null },
  api: { status: 401, type: 'application/json', body: '{"error":"unauthorized"}', headers: { 'www-authenticate': 'Bearer' }, kind: null },
  'upload.php': { status: 200, type: 'text/plain', body: 'upload endpoint\n', method: 'POST', kind: null },
  'robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n', kind: null },
}

export interface FuzzSiteStats {
  requests: number
  inFlight: number
  maxInFlight: number
  /** performance.now() of each request's arrival. */
  times: number[]
  /** Request lines ("GET /path") in arrival order. */
  lines: string[]
}

export interface FuzzSite {
  url: string
  host: string
  port: number
  stats: FuzzSiteStats
  resetStats(): void
  close(): Promise<void>
}

export interface FuzzSiteOptions {
  host?: string
  port?: number
  variant?: FuzzSiteVariant
  /** Delay before each answer (ms), to make in-flight requests pile up. */
  delayMs?: number
  /** Record request lines and times (off for benchmarks). */
  record?: boolean
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string }
}

let requestCounter = 0
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')

function notFound(variant: FuzzSiteVariant, path: string, res: http.ServerResponse) {
  if (variant === 'catch-all') {
    const escaped = path.replace(/&/g, '&amp;').replace(/</g, '&lt;')
    const n = ++requestCounter
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      `<!doctype html><html><head><title>Page not found</title></head><body><h1>Oops!</h1>` +
        `<p>We could not find ${escaped} on this site. Try the <a href="/">home page</a> or <a href="/search">search</a>.</p>` +
        // A per-request token of letters only: not dropped as a "digit" token, so the soft-404 signature
        // must tolerate it.
        `<form action="/search"><input type="hidden" name="csrf" value="${letters(20 + (n % 7))}"></form>` +
        `<footer>Request ${n} served at ${Date.now()}</footer></body></html>`,
    )
  } else if (variant === 'redirect') {
    res.writeHead(302, { location: `/login?next=${encodeURIComponent(path)}`, 'content-type': 'text/html' })
    res.end('<a href="/login">Moved</a>')
  } else {
    res.writeHead(404, { 'content-type': 'text/html' })
    res.end(html('Not Found', 'The requested URL was not found on this server.'))
  }
}

export async function startFuzzSite(o: FuzzSiteOptions = {}): Promise<FuzzSite> {
  const variant = o.variant ?? 'normal'
  const record = o.record ?? true
  const stats: FuzzSiteStats = { requests: 0, inFlight: 0, maxInFlight: 0, times: [], lines: [] }
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    stats.requests++
    stats.inFlight++
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
    if (record) {
      stats.times.push(performance.now())
      stats.lines.push(`${req.method} ${req.url}`)
    }
    let counted = true
    const done = () => {
      if (counted) stats.inFlight--
      counted = false
    }
    res.on('finish', done)
    res.on('close', done)
    const answer = () => {
      const path = (req.url ?? '/').split('?')[0]!
      let rel = path.replace(/^\//, '')
      try {
        rel = decodeURIComponent(rel)
      } catch {
        /* as is */
      }
      const planted = PLANTED[rel]
      if (!planted) return notFound(variant, path, res)
      if (planted.method && planted.method !== req.method && req.method !== 'HEAD') {
        res.writeHead(405, { allow: planted.method, 'content-type': 'text/plain' })
        return res.end('method not allowed\n')
      }
      res.writeHead(planted.status, { 'content-type': planted.type, ...planted.headers })
      res.end(planted.body)
    }
    if (o.delayMs) setTimeout(answer, o.delayMs)
    else answer()
  }
  const server = o.tls ? https.createServer({ key: o.tls.key, cert: o.tls.cert }, handler) : http.createServer(handler)
  server.keepAliveTimeout = 10_000
  const host = o.host ?? '127.0.3.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: new URL(`${o.tls ? 'https' : 'http'}://${host}:${port}/`).href, // default ports drop out
    host,
    port,
    stats,
    resetStats() {
      Object.assign(stats, { requests: 0, inFlight: stats.inFlight, maxInFlight: 0, times: [], lines: [] })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// Script mode: a separate process, so a benchmark's client and server do not share an event loop.
if (process.argv[1] && /fuzz-site\.ts$/.test(process.argv[1])) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`)
    return i > 0 ? process.argv[i + 1] : undefined
  }
  const site = await startFuzzSite({
    host: arg('host') ?? '127.0.3.1',
    variant: (arg('variant') as FuzzSiteVariant) ?? 'normal',
    record: false,
  })
  process.stdout.write(JSON.stringify({ port: site.port }) + '\n')
  process.on('message', (m) => {
    if (m === 'stats') process.send?.({ requests: site.stats.requests, maxInFlight: site.stats.maxInFlight })
    if (m === 'reset') site.resetStats()
  })
  process.on('disconnect', () => void site.close().then(() => process.exit(0)))
}
