// A small client conversation over one TCP socket from the egress: buffered reads with a completion test,
// a time limit per read, the scan's AbortSignal, and a transcript for evidence.
import type { Socket } from 'node:net'
import type { Egress } from '../../../toolkit/egress.js'
import { NotApplicable } from '../../../toolkit/recorder.js'
import { SESSION_READ_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export interface ProbeTarget {
  net: Egress
  host: string
  port: number
  signal: AbortSignal
  /** Per connect and per read (default 4 s). */
  timeoutMs?: number
  /** TLS from the first byte (implicit TLS ports such as SMTPS 465). */
  tls?: boolean
}

/** The port speaks another protocol than the probe's: the check does not apply there. */
export class NotThisProtocol extends NotApplicable {
  override name = 'NotThisProtocol'
}

/** Bytes a session holds unread at most: every answer the probes wait for is far smaller. */
const MAX_UNREAD_BYTES = 1 << 20

/** The server closed the connection (before the expected reply was complete). */
export class ConnectionClosed extends Error {
  override name = 'ConnectionClosed'
}

export class Session {
  readonly transcript: string[] = []
  private buf = Buffer.alloc(0)
  private ended: Error | null = null
  private wake: (() => void) | null = null
  private readonly onData: (d: Buffer) => void
  private readonly onEnd: (err?: Error) => void
  private readonly onClosed = () => this.onEnd()

  private constructor(
    private socket: Socket,
    private readonly signal: AbortSignal,
    private readonly timeoutMs: number,
  ) {
    const end = (err?: Error) => {
      this.ended ??= err ?? new ConnectionClosed('connection closed by the server')
      this.wake?.()
    }
    this.onEnd = end
    this.onData = (d: Buffer) => {
      if (this.ended) return
      if (this.buf.length + d.length > MAX_UNREAD_BYTES) {
        // A server streaming without ever completing an answer: stop reading it, keep nothing more.
        this.socket.destroy()
        this.buf = Buffer.alloc(0)
        return end(
          new Error(`the server sent more than ${MAX_UNREAD_BYTES >> 20} MiB without completing its answer; the connection was closed`),
        )
      }
      this.buf = Buffer.concat([this.buf, d])
      this.wake?.()
    }
    this.listen('on')
  }

  /** Starts or stops reading the current socket. */
  private listen(how: 'on' | 'off'): void {
    this.socket[how]('data', this.onData)
    this.socket[how]('end', this.onClosed)
    this.socket[how]('close', this.onClosed)
    this.socket[how]('error', this.onEnd)
  }

  static async open(t: ProbeTarget): Promise<Session> {
    const timeoutMs = t.timeoutMs ?? SESSION_READ_TIMEOUT_MS
    const o = { host: t.host, port: t.port, timeoutMs, signal: t.signal }
    const socket = t.tls ? await t.net.tlsConnect(o) : await t.net.connect(o)
    return new Session(socket, t.signal, timeoutMs)
  }

  /**
   * Upgrades the conversation to TLS (STARTTLS, after the server's go-ahead). Bytes the server sent
   * before the handshake are dropped: RFC 3207 section 4.2, text injected ahead of TLS is not trusted.
   */
  async startTls(net: Egress, host: string, port: number): Promise<void> {
    this.listen('off')
    this.buf = Buffer.alloc(0)
    if (this.ended) throw this.ended
    this.socket.on('error', () => {}) // the TLS socket reports errors from here on
    this.socket = await net.startTls(this.socket, { host, port, timeoutMs: this.timeoutMs, signal: this.signal })
    this.transcript.push('(TLS)')
    this.listen('on')
  }

  send(data: string | Buffer, shown?: string): void {
    if (shown !== undefined || typeof data === 'string') this.transcript.push(`C: ${shown ?? String(data).trimEnd()}`)
    this.socket.write(data)
  }

  /** Resolves with the first `n` buffered bytes as soon as `complete(buffer)` returns n > 0. */
  read(complete: (buf: Buffer) => number, timeoutMs = this.timeoutMs): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const finish = (err: Error | null, out?: Buffer) => {
        clearTimeout(timer)
        this.wake = null
        this.signal.removeEventListener('abort', onAbort)
        if (err) reject(err)
        else resolve(out!)
      }
      const check = () => {
        const n = this.buf.length ? complete(this.buf) : 0
        if (n > 0) {
          const out = this.buf.subarray(0, n)
          this.buf = this.buf.subarray(n)
          return finish(null, out)
        }
        if (this.ended) finish(this.ended)
      }
      const onAbort = () => finish(Object.assign(new Error('aborted'), { name: 'AbortError' }))
      if (this.signal.aborted) return onAbort()
      this.signal.addEventListener('abort', onAbort, { once: true })
      timer = setTimeout(() => finish(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs)
      this.wake = check
      check()
    })
  }

  /** One line without its CR LF. */
  async readLine(timeoutMs?: number): Promise<string> {
    const b = await this.read((buf) => buf.indexOf(0x0a) + 1, timeoutMs)
    const line = b.toString('latin1').replace(/\r?\n$/, '')
    this.transcript.push(`S: ${line}`)
    return line
  }

  /** An FTP/SMTP reply: "250-..." continuation lines up to the final "250 ...". */
  async readReply(timeoutMs?: number): Promise<{ code: number; text: string }> {
    const lines: string[] = []
    for (;;) {
      const line = await this.readLine(timeoutMs)
      if (!lines.length && !/^\d{3}/.test(line)) throw new NotThisProtocol(`not a numeric-reply protocol: ${line.slice(0, 80)}`)
      lines.push(line)
      const m = /^(\d{3})([ -]|$)/.exec(line)
      if (m && m[2] !== '-') return { code: Number(m[1]), text: lines.join('\n') }
      if (lines.length > 200) throw new Error('reply too long')
    }
  }

  /** The 220 greeting of an FTP or SMTP server (`protocol` names it), or an error when it refuses the session. */
  async greeting(protocol: string): Promise<{ code: number; text: string }> {
    const hello = await this.readReply()
    if (hello.code !== 220) throw new Error(`the ${protocol} server refused the session: ${hello.text.slice(0, 120)}`)
    return hello
  }

  /** Sends one command line (CR LF added) and reads its reply. */
  command(line: string): Promise<{ code: number; text: string }> {
    this.send(`${line}\r\n`)
    return this.readReply()
  }

  close(): void {
    this.socket.destroy()
  }
}

/** Opens a session, runs `fn`, always closes. */
export async function withSession<T>(t: ProbeTarget, fn: (s: Session) => Promise<T>): Promise<T> {
  const s = await Session.open(t)
  try {
    return await fn(s)
  } finally {
    s.close()
  }
}
