// Sign-in with a password (failed attempts limited per user name and per client address), sign-out,
// and the one-time set-password link.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { WardError } from '../../domain/errors.js'
import { hashPassword, passwordProblem, verifyPassword } from '../../domain/passwords.js'
import { dbRateLimitStore } from '../../store/rate-limits.js'
import { audited, type AuditIntent } from '../../store/audit.js'
import type { Db } from '../../store/db.js'
import { failedIntent } from '../../api/plugins/audit.js'
import {
  createSession,
  deleteExpiredSessions,
  deleteSession,
  newToken,
  setPasswordHash,
  userByPasswordLink,
  userForSignIn,
} from '../../store/web-sessions.js'
import type { WebContext } from '../context.js'
import { byLinkToken } from '../link-token.js'
import { html, qs } from '../html.js'
import { page } from '../layout.js'
import { checkCsrf, formOf, overTls, sendPage } from '../respond.js'
import { sameOriginPath } from '../next-path.js'
import { pathOf, resumeFields, resumeFrom, resumeOf, resumePage, type Resume } from '../resume-form.js'

export const SESSION_COOKIE = 'ward_session'
const SIGNIN_COOKIE = 'ward_signin'
const SET_PASSWORD_COOKIE = 'ward_set_password'
const SET_PASSWORD_PATH = '/set-password/'

export function authPages(app: FastifyInstance, ctx: WebContext) {
  const { db, config } = ctx
  const pre = preSession(config)

  app.get('/sign-in', { config: { webPublic: true } }, async (req, reply) => {
    if (req.webUser) return reply.redirect('/', 303)
    const q = req.query as Record<string, string>
    return signInForm(pre, req, reply, { next: q.next, ended: q.ended === '1' })
  })

  signInRoute(app, ctx, pre)

  app.post('/sign-out', async (req, reply) => {
    const sid = req.cookies[SESSION_COOKIE]
    if (sid) await deleteSession(db, sid)
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
    return reply.redirect('/sign-in', 303)
  })

  setPasswordPages(app, ctx, pre)

  return {
    /** A form sent after its session ended: the sign-in page (401) that keeps the form to send again. */
    signInAgain: (req: FastifyRequest, reply: FastifyReply) => {
      const back = sameOriginPath(pathOf(req.headers.referer))
      return signInForm(pre, req, reply, {
        ended: true,
        next: back,
        status: 401,
        resume: resumeOf(resumeFrom(pathOf(req.url), formOf(req))),
      })
    },
  }
}

/** Cookie options and the pre-session CSRF token, for the sign-in and set-password forms. */
export function preSession(config: WebContext['config']): PreSession {
  const cookieOpts = (req: FastifyRequest) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.web.cookieSecure === 'on' || (config.web.cookieSecure === 'auto' && overTls(req)),
  })

  /**
   * Login CSRF on the forms sent before there is a session: the form's token must match a cookie set
   * with the form (double submit); another site can make a browser post the form, not read the cookie.
   */
  function preSessionToken(req: FastifyRequest, reply: FastifyReply, cookie: string, path: string) {
    const token = newToken()
    reply.setCookie(cookie, token, { ...cookieOpts(req), path, maxAge: 3600 })
    return token
  }
  return { cookieOpts, preSessionToken, ways: { password: config.passwordSignIn, sso: !!config.oidc } }
}

const PASSWORDS_OFF = 'Password sign-in is turned off on this Ward (WARD_PASSWORD_SIGNIN=off): sign in with single sign-on.'

/** Opens a web session for a user who proved who they are, and sets its cookie. */
export async function openSession(ctx: WebContext, req: FastifyRequest, reply: FastifyReply, userId: number, audit?: AuditIntent) {
  const { db, config } = ctx
  // A sign-in's entry is written with its session (audit), or by the caller (single sign-on, invitations).
  const s = await audited(
    db,
    audit,
    (trx) => createSession(trx, userId, config.web.sessionMs),
    () => true,
  )
  // Ended sessions are swept at sign-in: no timer of its own, and the table stays small.
  void deleteExpiredSessions(db).catch((e) => req.log.warn({ err: e }, 'could not sweep expired web sessions'))
  reply.setCookie(SESSION_COOKIE, s.id, { ...preSession(config).cookieOpts(req), maxAge: Math.floor(config.web.sessionMs / 1000) })
  return s
}

/** A refused sign-in changes nothing but the attempt counters (kept apart, in rate_limits): its entry is all it writes. */
const recordFailure = (db: Db, req: FastifyRequest) =>
  audited(
    db,
    failedIntent(req),
    async () => true,
    () => true,
  )

/** Sign-in with a password; failed attempts are limited per user name and per client address. */
function signInRoute(app: FastifyInstance, ctx: WebContext, pre: PreSession) {
  const { db, config } = ctx
  const Store = dbRateLimitStore(db)
  const limiter = new Store()
  // Failed attempts per window, in the shared rate_limits table (every API process counts together).
  const failures = (key: string) =>
    new Promise<number>((resolve, reject) => limiter.read(key, (e, r) => (e ? reject(e) : resolve(r!.current))))
  const fail = (key: string) =>
    new Promise<number>((resolve, reject) => limiter.incr(key, (e, r) => (e ? reject(e) : resolve(r!.current)), config.web.signInWindowMs))

  app.post('/sign-in', { config: { webPublic: true } }, async (req, reply) => {
    if (!config.passwordSignIn) throw new WardError(403, PASSWORDS_OFF)
    const b = (req.body ?? {}) as Record<string, unknown>
    checkCsrf(req, req.cookies[SIGNIN_COOKIE] ?? '')
    const name = typeof b.name === 'string' ? b.name.trim().slice(0, 200) : ''
    const password = typeof b.password === 'string' ? b.password : ''
    const keys = [`web-signin:user:${name.toLowerCase()}`, `web-signin:ip:${req.ip}`]
    const [byUser, byIp] = await Promise.all(keys.map(failures))
    if (byUser! >= config.web.signInLimit || byIp! >= config.web.signInLimit * 3) {
      req.log.warn({ user: name, ip: req.ip }, 'web sign-in refused: too many attempts')
      await recordFailure(db, req)
      reply.header('retry-after', String(Math.ceil(config.web.signInWindowMs / 1000)))
      return signInForm(pre, req, reply, {
        error: `Too many sign-in attempts; try again in ${Math.ceil(config.web.signInWindowMs / 60000)} minutes.`,
        name,
        next: b.next as string,
        status: 429,
        resume: resumeOf(b),
      })
    }
    const user = name ? await userForSignIn(db, name) : undefined
    const ok = await verifyPassword(password, user?.password_hash ?? null)
    if (!user || !ok) {
      await Promise.all(keys.map(fail))
      await recordFailure(db, req)
      req.log.warn({ user: name, ip: req.ip, known: !!user }, 'web sign-in failed')
      return signInForm(pre, req, reply, {
        error: 'Wrong user name or password.',
        name,
        next: b.next as string,
        status: 401,
        resume: resumeOf(b),
      })
    }
    const s = await openSession(ctx, req, reply, user.id, req.audit)
    req.log.info({ userId: user.id, ip: req.ip }, 'web sign-in')
    reply.clearCookie(SIGNIN_COOKIE, { path: '/' })
    const resume = resumeOf(b)
    if (resume) return sendPage(reply, page(req, 'Send your form again', resumePage(resume, s.csrf, sameOriginPath(b.next))))
    return reply.redirect(sameOriginPath(b.next), 303)
  })
}

/** The sign-in page: a new pre-session token, and an error, the name tried and a kept form when there are. */
function signInForm(
  { preSessionToken, ways }: PreSession,
  req: FastifyRequest,
  reply: FastifyReply,
  o: { error?: string; name?: string; next?: string; status?: number; ended?: boolean; resume?: Resume | null } = {},
) {
  const token = preSessionToken(req, reply, SIGNIN_COOKIE, '/')
  // A link, not a form: the CSP's form-action would stop a form's redirect to the provider.
  const sso = ways.sso
    ? html`<p><a class="button sso" data-testid="sso" href="/sign-in/oidc${qs({ next: sameOriginPath(o.next) })}">Sign in with single sign-on</a></p>`
    : ''
  const body = html`<div class="signin card">
  <h1>Sign in to Ward</h1>
  ${
    o.ended
      ? html`<p class="msg warn" role="status" data-testid="session-ended">${[
          html`Your session has ended (it expired, or you signed out elsewhere). Sign in again to continue where you were`,
          o.resume ? ': the form you sent is kept and waits for you' : '',
        ]}.</p>`
      : ''
  }
  ${sso}${
    ways.password
      ? passwordForm(token, o)
      : html`<p class="muted">Password sign-in is turned off here. Administrators still have <code>ward admin</code> on the server.</p>`
  }
</div>`
  return sendPage(reply, page(req, 'Sign in', body, { error: o.error }), o.status ?? 200)
}

function passwordForm(token: string, o: { name?: string; next?: string; resume?: Resume | null }) {
  return html`<form method="post" action="/sign-in">
    <input type="hidden" name="_csrf" value="${token}">
    <input type="hidden" name="next" value="${sameOriginPath(o.next)}">${o.resume ? resumeFields(o.resume) : ''}
    <div class="field"><label for="name">User name</label>${[
      html`<input type="text" id="name" name="name" autocomplete="username" required autofocus value="${o.name ?? ''}">`,
    ]}</div>
    <div class="field"><label for="password">Password</label>${[
      html`<input type="password" id="password" name="password" autocomplete="current-password" required>`,
    ]}</div>
    <button type="submit">Sign in</button>
  </form>
  <p class="muted">No password yet? Use the set-password link Ward printed at its first start, or ask an administrator:
  <code>ward admin user set-password --user ID --password-stdin</code>.</p>`
}

/** What the sign-in and set-password pages share: cookie options and the pre-session CSRF token. */
interface PreSession {
  cookieOpts(req: FastifyRequest): { path: string; httpOnly: boolean; sameSite: 'lax'; secure: boolean }
  preSessionToken(req: FastifyRequest, reply: FastifyReply, cookie: string, path: string): string
  /** The ways to sign in this Ward offers (WARD_PASSWORD_SIGNIN, WARD_OIDC_*). */
  ways: { password: boolean; sso: boolean }
}

/** The one-time set-password link an administrator hands out (`ward admin user set-password --link`). */
function setPasswordPages(app: FastifyInstance, ctx: WebContext, { cookieOpts, preSessionToken }: PreSession) {
  const { db, config } = ctx

  const linkUser = async (token: string) => {
    // A password set here could not be used to sign in.
    if (!config.passwordSignIn) throw new WardError(403, PASSWORDS_OFF)
    return byLinkToken(
      token,
      (t) => userByPasswordLink(db, t),
      'This set-password link is unknown, used or expired: ask an administrator for a new one (ward admin user set-password --user ID --link).',
    )
  }
  const setPasswordForm = (req: FastifyRequest, reply: FastifyReply, token: string, name: string, error?: string) => {
    const csrf = preSessionToken(req, reply, SET_PASSWORD_COOKIE, SET_PASSWORD_PATH)
    return sendPage(
      reply,
      page(
        req,
        'Set your password',
        html`<div class="signin card"><h1>Set a password for ${name}</h1>
<form method="post" action="/set-password/${token}">
  <input type="hidden" name="_csrf" value="${csrf}">
  <div class="field"><label for="password">New password (at least 10 characters)</label>${[
    html`<input type="password" id="password" name="password" autocomplete="new-password" required minlength="10" autofocus>`,
  ]}</div>
  <div class="field"><label for="password2">The same again</label>${[
    html`<input type="password" id="password2" name="password2" autocomplete="new-password" required minlength="10">`,
  ]}</div>
  <button type="submit">Set password</button>
</form></div>`,
        { error },
      ),
      error ? 400 : 200,
    )
  }

  app.get('/set-password/:token', { config: { webPublic: true } }, async (req, reply) => {
    const { token } = req.params as { token: string }
    return setPasswordForm(req, reply, token, (await linkUser(token)).name)
  })

  app.post('/set-password/:token', { config: { webPublic: true } }, async (req, reply) => {
    // Before the link is even read: a refused post changes nothing and leaves the link usable.
    checkCsrf(req, req.cookies[SET_PASSWORD_COOKIE] ?? '')
    const { token } = req.params as { token: string }
    const u = await linkUser(token)
    const b = (req.body ?? {}) as Record<string, unknown>
    const pw = typeof b.password === 'string' ? b.password : ''
    const problem = pw !== b.password2 ? 'The two passwords differ' : passwordProblem(pw)
    if (problem) return setPasswordForm(req, reply, token, u.name, problem)
    // The link token is the proof here (one-time, unguessable); it is cleared with the new password.
    await setPasswordHash(db, u.id, await hashPassword(pw))
    req.log.info({ userId: u.id }, 'password set through a set-password link')
    const s = await createSession(db, u.id, config.web.sessionMs)
    reply.clearCookie(SET_PASSWORD_COOKIE, { path: SET_PASSWORD_PATH })
    reply.setCookie(SESSION_COOKIE, s.id, { ...cookieOpts(req), maxAge: Math.floor(config.web.sessionMs / 1000) })
    return reply.redirect('/profile', 303)
  })
}
