// Reading a telnet login dialogue (text after option negotiation). Pure.

export const asksLogin = (text: string): boolean => /(login|username|user name|user)\s*:\s*$/i.test(text.trimEnd())
export const asksPassword = (text: string): boolean => /password\s*:\s*$/i.test(text.trimEnd())

/** After the password: 'success' on a shell prompt, 'failure' on a refusal or a new login prompt, null while undecided. */
export function loginVerdict(text: string): 'success' | 'failure' | null {
  const t = text.trimEnd()
  if (/(incorrect|invalid|failed|denied|bad password|authentication fail|wrong)/i.test(t)) return 'failure'
  if (asksLogin(t) || asksPassword(t)) return 'failure'
  if (/[$#>%]$/.test(t) && t.length > 0) return 'success'
  return null
}

const IAC = 255
const DONT = 254
const DO = 253
const WONT = 252
const WILL = 251
const SB = 250
const SE = 240

/** Splits telnet input into text and the answers to its option requests (every option refused). */
export function negotiate(data: Buffer): { text: string; reply: Buffer } {
  const text: number[] = []
  const reply: number[] = []
  for (let i = 0; i < data.length; i++) {
    const b = data[i]!
    if (b !== IAC) {
      text.push(b)
      continue
    }
    const cmd = data[i + 1]
    if (cmd === undefined) break
    if (cmd === IAC) {
      text.push(IAC)
      i++
    } else if (cmd === DO || cmd === DONT || cmd === WILL || cmd === WONT) {
      const opt = data[i + 2]
      if (opt === undefined) break
      if (cmd === DO) reply.push(IAC, WONT, opt)
      if (cmd === WILL) reply.push(IAC, DONT, opt)
      i += 2
    } else if (cmd === SB) {
      const end = data.indexOf(SE, i)
      i = end < 0 ? data.length : end
    } else i++
  }
  return { text: Buffer.from(text).toString('latin1'), reply: Buffer.from(reply) }
}
