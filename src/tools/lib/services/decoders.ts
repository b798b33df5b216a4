// Named decoders for match rules (match-rules.ts) whose replies a regex cannot read directly: binary
// protocols with length-prefixed fields. Each turns a reply into text the rule's regex then reads, or
// null when the bytes are not that protocol. Pure; the rules themselves stay in the data table.

/**
 * DNS over TCP answering our version.bind query (id 0x5741): the first TXT string, trimmed; '' for a DNS
 * answer without one (refused, empty).
 */
function dnsTxt(b: Buffer): string | null {
  if (b.length < 14 || b.readUInt16BE(0) !== b.length - 2 || b.readUInt16BE(2) !== 0x5741 || !(b[4]! & 0x80)) return null
  const msg = b.subarray(2)
  const qd = msg.readUInt16BE(4)
  const an = msg.readUInt16BE(6)
  let o = 12
  const skipName = () => {
    while (o < msg.length) {
      const len = msg[o]!
      if (len === 0) return void o++
      if ((len & 0xc0) === 0xc0) return void (o += 2)
      o += len + 1
    }
  }
  for (let i = 0; i < qd; i++) {
    skipName()
    o += 4
  }
  for (let i = 0; i < an; i++) {
    skipName()
    if (o + 10 > msg.length) break
    const type = msg.readUInt16BE(o)
    const rdlen = msg.readUInt16BE(o + 8)
    o += 10
    if (type === 16 && rdlen > 0 && o + rdlen <= msg.length)
      return msg.toString('latin1', o + 1, o + 1 + Math.min(msg[o]!, rdlen - 1)).trim()
    o += rdlen
  }
  return ''
}

/** Telnet: the text once IAC option negotiation is taken out; null unless the reply opens with IAC WILL/WONT/DO/DONT. */
function telnet(b: Buffer): string | null {
  if (b.length < 3 || b[0] !== 0xff || b[1]! < 0xfb) return null
  return b.toString('latin1').replace(/\xff[\xfb-\xfe][\s\S]|\xff[\xf0-\xfa]/g, '')
}

/**
 * AMQP 0-9-1 Connection.Start (frame type 1, class 10, method 10): its server-properties as
 * "key=value" lines (long strings only: product, version, platform...).
 */
function amqpStart(b: Buffer): string | null {
  if (b.length < 15 || b[0] !== 1 || b.readUInt16BE(7) !== 10 || b.readUInt16BE(9) !== 10) return null
  const size = b.readUInt32BE(3)
  const end = Math.min(b.length, 7 + size)
  let o = 13 // version-major, version-minor, then the server-properties table
  if (o + 4 > end) return null
  const tableEnd = Math.min(end, o + 4 + b.readUInt32BE(o))
  o += 4
  const lines: string[] = [`amqp=${b[11]}-${b[12]}`]
  while (o < tableEnd) {
    const klen = b[o]!
    const key = b.toString('latin1', o + 1, o + 1 + klen)
    o += 1 + klen
    const type = String.fromCharCode(b[o] ?? 0)
    o += 1
    if (type === 'S') {
      if (o + 4 > tableEnd) break
      const len = b.readUInt32BE(o)
      lines.push(`${key}=${b.toString('latin1', o + 4, Math.min(tableEnd, o + 4 + len)).replace(/[\r\n]/g, ' ')}`)
      o += 4 + len
    } else if (type === 'F') {
      if (o + 4 > tableEnd) break
      o += 4 + b.readUInt32BE(o) // nested table (capabilities): skipped
    } else if (type === 't' || type === 'b' || type === 'B') o += 1
    else if (type === 'I' || type === 'i') o += 4
    else if (type === 'l' || type === 'T') o += 8
    else break // a type we do not need to read: the strings before it are enough
  }
  return lines.join('\n')
}

export const DECODERS = { 'dns-txt': dnsTxt, telnet, 'amqp-start': amqpStart } as const satisfies Record<
  string,
  (b: Buffer) => string | null
>

export type DecoderName = keyof typeof DECODERS
