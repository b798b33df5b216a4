// A byte-exact HTTP/1.1 client for tests that must send what ordinary clients refuse to (raw bytes in
// the request target, duplicate or odd headers, a body whose length the server will refuse). One
// connection per request (`connection: close`), so the answer ends where the connection does.
import net from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

export interface RawRequest {
  method: string
  /** The request target exactly as sent (path and query, already encoded as the test wants). */
  target: string
  headers?: Array<[string, string]>
  body?: Buffer
}

function dechunk(b: Buffer): Buffer {
  const parts: Buffer[] = []
  let i = 0
  for (;;) {
    const eol = b.indexOf('\r\n', i)
    if (eol < 0) break
    const size = parseInt(b.subarray(i, eol).toString('latin1'), 16)
    if (!size) break
    parts.push(b.subarray(eol + 2, eol + 2 + size))
    i = eol + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/** Sends one request to 127.0.0.1:`port`; rejects when no complete answer arrives within `timeoutMs`. */
export function rawRequest(port: number, r: RawRequest, timeoutMs = 15000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: '127.0.0.1', port })
    const chunks: Buffer[] = []
    let settled = false
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs)
    function parse(): RawAnswer | null {
      const all = Buffer.concat(chunks)
      const end = all.indexOf('\r\n\r\n')
      if (end < 0) return null
      const lines = all.subarray(0, end).toString('latin1').split('\r\n')
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')
      if (!m) return null
      const headers: Record<string, string> = {}
      for (const l of lines.slice(1)) {
        const c = l.indexOf(':')
        if (c > 0) {
          const k = l.slice(0, c).trim().toLowerCase()
          const v = l.slice(c + 1).trim()
          headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`
        }
      }
      let body: Buffer = all.subarray(end + 4)
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body)
      else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']))
      return { status: Number(m[1]), headers, body }
    }
    function finish(err?: Error) {
      if (settled) return
      settled = true
      clearTimeout(timer)
      sock.destroy()
      const a = parse()
      if (a) resolve(a)
      else reject(err ?? new Error('the connection closed without an answer'))
    }
    sock.on('data', (d) => chunks.push(d))
    sock.on('end', () => finish())
    sock.on('close', () => finish())
    // A server that refuses a large body answers and closes while we still write: keep what was answered.
    sock.on('error', (e) => {
      if (parse()) finish()
      else setTimeout(() => finish(e), 50)
    })
    sock.on('connect', () => {
      const head = [`${r.method} ${r.target} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close']
      for (const [k, v] of r.headers ?? []) head.push(`${k}: ${v}`)
      if (r.body) head.push(`content-length: ${r.body.length}`)
      sock.write(Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'))
      if (r.body?.length) sock.write(r.body)
    })
  })
}
