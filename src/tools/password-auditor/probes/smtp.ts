// SMTP AUTH (RFC 4954): the greeting, EHLO, STARTTLS when the server offers it (RFC 3207: AUTH goes over
// TLS then, and many servers offer AUTH only after it), TLS from the start on implicit-TLS ports (465),
// then AUTH PLAIN, LOGIN or CRAM-MD5, the first of those the server offers. One connection per attempt;
// a temporary failure (454, other 4xx) is retried after a pause, a few times, and is never a wrong password.
import { withSession, type ProbeTarget, type Session } from '../../lib/services/session.js'
import { cramMd5Response, loginResponse, parseEhlo, pickMechanism, plainResponse, smtpVerdict, type Mechanism } from '../detect/smtp.js'
import { timed, type Attempt, type Attempter } from './attempt.js'
import { sleep } from './audit.js'

/** The name we greet with (RFC 5321 wants a domain; a reserved one claims no real host). */
const EHLO = 'EHLO ward-audit.example.com\r\n'
/** Retries of one pair after a temporary failure, and the pause before each. */
const TEMPORARY_RETRIES = 2
const TEMPORARY_PAUSE_MS = 500

export type SmtpTarget = Omit<ProbeTarget, 'signal'> & { tls: boolean }

/** What the server offers once ready for AUTH. */
export interface SmtpOffer {
  mechanisms: string[]
  /** How the session is protected when AUTH runs. */
  tls: 'implicit' | 'starttls' | 'none'
}

interface Stop {
  verdict: ReturnType<typeof smtpVerdict>
  note: string
}

/** The enhanced status code of a reply (RFC 3463), for the log. */
const ENHANCED = /\b[245]\.\d{1,3}\.\d{1,3}\b/

const stop = (what: string, r: { code: number; text: string }): Stop => {
  const enhanced = ENHANCED.exec(r.text)?.[0]
  return { verdict: smtpVerdict(r.code, r.text), note: `${what}: ${r.code}${enhanced ? ` ${enhanced}` : ''}` }
}

/** Greeting, EHLO and STARTTLS when offered: what the server offers for AUTH, or the reply that ended it. */
async function ready(s: Session, t: SmtpTarget): Promise<SmtpOffer | Stop> {
  const hello = await s.readReply()
  if (hello.code !== 220) return stop('greeting', hello)
  s.send(EHLO)
  let r = await s.readReply()
  if (r.code !== 250) return stop('EHLO', r)
  let caps = parseEhlo(r.text)
  if (t.tls) return { mechanisms: caps.auth, tls: 'implicit' }
  if (!caps.starttls) return { mechanisms: caps.auth, tls: 'none' }
  s.send('STARTTLS\r\n')
  r = await s.readReply()
  // STARTTLS refused (454 TLS not available): what was offered in clear text stands.
  if (r.code !== 220) return { mechanisms: caps.auth, tls: 'none' }
  await s.startTls(t.net, t.host, t.port)
  // RFC 3207: everything learnt before TLS is forgotten; the server's extensions are asked for again.
  s.send(EHLO)
  r = await s.readReply()
  if (r.code !== 250) return stop('EHLO after STARTTLS', r)
  caps = parseEhlo(r.text)
  return { mechanisms: caps.auth, tls: 'starttls' }
}

/** The AUTH exchange of `mech`; resolves with the server's last reply. */
async function authenticate(s: Session, mech: Mechanism, user: string, password: string): Promise<{ code: number; text: string }> {
  const answer = (data: string, shown: string) => {
    s.send(`${data}\r\n`, shown)
    return s.readReply()
  }
  if (mech === 'PLAIN') {
    const r = await answer(`AUTH PLAIN ${plainResponse(user, password)}`, 'AUTH PLAIN ***')
    // A server that ignores the initial response asks again with an empty challenge.
    return r.code === 334 ? answer(plainResponse(user, password), '***') : r
  }
  if (mech === 'LOGIN') {
    let r = await answer('AUTH LOGIN', 'AUTH LOGIN')
    if (r.code !== 334) return r
    r = await answer(loginResponse(user), `(user ${user})`)
    return r.code === 334 ? answer(loginResponse(password), '***') : r
  }
  const challenge = await answer('AUTH CRAM-MD5', 'AUTH CRAM-MD5')
  return challenge.code === 334 ? answer(cramMd5Response(user, password, challenge.text.slice(4)), '***') : challenge
}

const isStop = (x: SmtpOffer | Stop): x is Stop => 'verdict' in x

/** What the server offers for AUTH (one connection, no login tried), or why it cannot be audited. */
export function smtpAuthOffer(t: SmtpTarget, signal: AbortSignal): Promise<SmtpOffer | string> {
  return withSession({ ...t, signal }, async (s) => {
    const r = await ready(s, t)
    s.send('QUIT\r\n')
    return isStop(r) ? `${r.note} (${r.verdict})` : r
  })
}

/** One attempt on one connection: a verdict, temporary included. */
function once(t: SmtpTarget, user: string, password: string, signal: AbortSignal): Promise<Stop> {
  return withSession({ ...t, signal }, async (s) => {
    const offer = await ready(s, t)
    if (isStop(offer)) return offer
    const mech = pickMechanism(offer.mechanisms)
    if (!mech) return { verdict: 'error', note: `no AUTH mechanism the auditor speaks (${offer.mechanisms.join(' ') || 'none'})` }
    const r = await authenticate(s, mech, user, password)
    s.send('QUIT\r\n')
    const how = `AUTH ${mech}${offer.tls === 'none' ? '' : offer.tls === 'starttls' ? ' after STARTTLS' : ' over TLS'}`
    return stop(how, r)
  })
}

export const smtpLogin =
  (t: SmtpTarget): Attempter =>
  (user, password, signal) =>
    timed(async (): Promise<Omit<Attempt, 'ms'>> => {
      const temporary: string[] = []
      for (;;) {
        const r = await once(t, user, password, signal)
        const after = temporary.length ? ` after the temporary failure ${temporary.join(', ')}` : ''
        if (r.verdict !== 'temporary') return { result: r.verdict, note: `${r.note}${after}` }
        temporary.push(r.note)
        if (temporary.length > TEMPORARY_RETRIES || signal.aborted)
          return { result: 'error', note: `temporary failures only: ${temporary.join(', ')}` }
        await sleep(TEMPORARY_PAUSE_MS, signal)
      }
    })
