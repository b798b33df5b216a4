// Reading an SMTP AUTH dialogue (EHLO extensions of RFC 5321, AUTH of RFC 4954, STARTTLS of RFC 3207)
// and building the answers of the mechanisms the auditor speaks. Pure.
import { createHmac } from 'node:crypto'
import { saysLocked } from './lockout.js'

export type Mechanism = 'PLAIN' | 'LOGIN' | 'CRAM-MD5'

/** The SASL mechanisms the auditor speaks, in the order it prefers them. */
export const MECHANISMS: readonly Mechanism[] = ['PLAIN', 'LOGIN', 'CRAM-MD5']

export interface EhloCapabilities {
  /** AUTH mechanisms advertised, upper-case. */
  auth: string[]
  starttls: boolean
}

/** The AUTH mechanisms and STARTTLS of an EHLO reply ("250-AUTH PLAIN LOGIN", the old "250-AUTH=LOGIN", "250 STARTTLS"). */
export function parseEhlo(reply: string): EhloCapabilities {
  const auth = new Set<string>()
  let starttls = false
  for (const line of reply.split(/\r?\n/)) {
    const keyword = line.slice(4).trim()
    const m = /^AUTH[ =](.*)$/i.exec(keyword)
    if (m) for (const mech of m[1]!.split(/\s+/)) if (mech) auth.add(mech.toUpperCase())
    if (/^STARTTLS$/i.test(keyword)) starttls = true
  }
  return { auth: [...auth], starttls }
}

/** The mechanism to use among those offered, or null when the auditor speaks none of them. */
export const pickMechanism = (offered: readonly string[]): Mechanism | null => MECHANISMS.find((m) => offered.includes(m)) ?? null

/** An SMTP greeting ("220 mx.example.com ESMTP Postfix"): what names a mail server on an unusual port. */
export const isSmtpGreeting = (banner: string | null): boolean =>
  !!banner && /^220[ -].*\b(E?SMTP|Postfix|Exim|Sendmail|mail)\b/i.test(banner) && !/ftp/i.test(banner)

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')

/** AUTH PLAIN's initial response: authorization identity empty, then user name and password (RFC 4616). */
export const plainResponse = (user: string, password: string): string => b64(`\0${user}\0${password}`)

/** AUTH LOGIN's answers: the user name, then the password, each in base64. */
export const loginResponse = b64

/** CRAM-MD5's answer to a base64 challenge: "user hex(HMAC-MD5(password, challenge))" in base64 (RFC 2195). */
export const cramMd5Response = (user: string, password: string, challenge: string): string =>
  b64(`${user} ${createHmac('md5', password).update(Buffer.from(challenge.trim(), 'base64')).digest('hex')}`)

/** Mail servers word their throttles many ways ("too many failed authentication attempts", "too many errors"). */
const saysLockedSmtp = (text: string) => saysLocked(text) || /\btoo many\b/i.test(text)

/** What a reply means for a login attempt: 'temporary' is neither a right nor a wrong password. */
export type SmtpVerdict = 'success' | 'failure' | 'locked' | 'temporary' | 'error'

/**
 * The verdict of an SMTP reply in an AUTH attempt: 235 success; 535 (or enhanced code 5.7.8) a wrong
 * user name or password; 421 (the server closes) or words of a lockout ("too many") a lockout;
 * 454 and other 4xx a temporary failure; anything else no verdict.
 */
export function smtpVerdict(code: number, text: string): SmtpVerdict {
  if (code === 235) return 'success'
  if (code === 421) return 'locked'
  // "Temporary authentication failure, try again later" is a temporary failure, not a lockout sign.
  if (code >= 400 && code < 500) return saysLockedSmtp(text.replace(/try again later/gi, '')) ? 'locked' : 'temporary'
  if (saysLockedSmtp(text)) return 'locked'
  if (code === 535 || /^\d{3}[ -]5\.7\.8\b/.test(text)) return 'failure'
  return 'error'
}
