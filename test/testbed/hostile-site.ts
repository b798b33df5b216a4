// A hostile web site (issue 25, faults 3 and 4): every path answers 200 text/html with a page
// built to make a regex-based parser take quadratic (or a backtracking marker exponential) time.
// Any site can send these; the site owner needs no Ward account. Loopback only.
import http from 'node:http'

const KB512 = 174762 // '<a '.repeat(174762) is 512 KB

/** The pages that froze Ward's API: 512 KB of an unclosed tag start, repeated. */
export const HOSTILE_PAGES: Readonly<Record<string, string>> = {
  anchors: '<a '.repeat(KB512),
  metas: '<meta '.repeat(Math.floor((3 * KB512) / 6)),
  forms: '<form '.repeat(Math.floor((3 * KB512) / 6)),
  scripts: '<script src'.repeat(Math.floor((3 * KB512) / 11)),
  titles: '<title '.repeat(Math.floor((3 * KB512) / 7)),
  links: '<link href'.repeat(Math.floor((3 * KB512) / 10)),
}

/** A page that takes V8's backtracking engine exponential time for the marker /(a+)+$/. */
export const REDOS_MARKER = '/(a+)+$/'
export const REDOS_PAGE = 'a'.repeat(34) + '!'

export interface HostileSite {
  url: string
  requests(): number
  close(): Promise<void>
}

/** `kind`: which hostile page every path answers (`redos`: the marker's page, with a login form). */
export async function startHostileSite(host: string, kind: keyof typeof HOSTILE_PAGES | 'redos'): Promise<HostileSite> {
  let n = 0
  const body =
    kind === 'redos'
      ? `<html><body><form action="/login" method="post"><input name="username"><input type="password" name="password"></form>${REDOS_PAGE}</body></html>`
      : HOSTILE_PAGES[kind]!
  const server = http.createServer((req, res) => {
    n++
    req.resume()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(req.method === 'HEAD' ? undefined : body)
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
  const port = (server.address() as { port: number }).port
  return {
    url: `http://${host}:${port}/`,
    requests: () => n,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}
