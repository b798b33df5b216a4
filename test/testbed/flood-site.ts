// Test bed of runaway answers, on its own loopback address:
// - every `/a<N>.bak` answers 200 with a small body of its own (anything else 404), so a URL fuzzer
//   reports each as an exposed backup: the findings flood of a check without a cap;
// - every `/endless<N>` answers 200 with a body that never ends; the bed counts the bytes each such
//   answer got out before the client hung up (what a reader without a bound would have kept);
// - startEndlessSmtp: an SMTP greeting, then an answer to EHLO that never ends (no line end, ever).
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'

export interface FloodSite {
  url: string
  /** Bytes written into each endless answer before its connection closed, in closing order. */
  endlessSent: number[]
  /** Endless answers still being written. */
  endlessOpen(): number
  close(): Promise<void>
}

const CHUNK = Buffer.alloc(64 * 1024, '<p>endless</p>\n')

export async function startFloodSite(host: string): Promise<FloodSite> {
  const endlessSent: number[] = []
  let open = 0
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const bak = /^\/a(\d+)\.bak$/.exec(path)
    if (bak) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      return res.end(`-- dump ${bak[1]}\n${'INSERT INTO t VALUES (1);\n'.repeat(1 + (Number(bak[1]) % 7))}`)
    }
    if (/^\/endless\d*$/.test(path)) {
      open++
      let sent = 0
      res.writeHead(200, { 'content-type': 'text/html' })
      const pump = () => {
        while (!res.destroyed && res.write(CHUNK)) sent += CHUNK.length
        if (!res.destroyed) sent += CHUNK.length // the chunk that filled the buffer was accepted too
      }
      res.on('drain', pump)
      res.on('close', () => {
        open--
        endlessSent.push(sent)
      })
      return pump()
    }
    res.writeHead(404, { 'content-type': 'text/html' })
    res.end('<html><body><h1>Not Found</h1></body></html>')
  })
  await new Promise<void>((r) => server.listen({ host, port: 0 }, r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}/`,
    endlessSent,
    endlessOpen: () => open,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

export interface EndlessSmtp {
  port: number
  /** Bytes written into each connection's endless answer before it closed, in closing order. */
  sent: number[]
  close(): Promise<void>
}

export async function startEndlessSmtp(host: string): Promise<EndlessSmtp> {
  const sent: number[] = []
  const sockets = new Set<net.Socket>()
  const noLineEnd = Buffer.alloc(64 * 1024, 'x')
  const server = net.createServer((sock) => {
    sockets.add(sock)
    let n = 0
    let streaming = false
    sock.on('error', () => {})
    sock.on('close', () => {
      sockets.delete(sock)
      if (streaming) sent.push(n)
    })
    sock.write('220 mail.flood.test ESMTP ready\r\n')
    const pump = () => {
      while (!sock.destroyed && sock.write(noLineEnd)) n += noLineEnd.length
      if (!sock.destroyed) n += noLineEnd.length
    }
    sock.on('drain', pump)
    sock.on('data', (d) => {
      if (streaming || !/^(EHLO|HELO)/i.test(d.toString('latin1'))) return
      streaming = true
      sock.write('250-mail.flood.test ')
      pump()
    })
  })
  await new Promise<void>((r) => server.listen({ host, port: 0 }, r))
  return {
    port: (server.address() as AddressInfo).port,
    sent,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}
