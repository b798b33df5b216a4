// Single sign-on with OpenID Connect: /sign-in/oidc sends the browser to the provider (state, nonce and
// the PKCE verifier kept in a short-lived cookie of this browser); the callback has openid-client check
// the answer, finds or creates the user, applies the group mapping and opens a normal web session.
// Every outcome leaves one audit entry; a refused one a 4xx page and no session.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { grantsFor, groupsOf, userNameOf } from '../../domain/sso-claims.js'
import { appendAudit, type AuditIntent } from '../../store/audit.js'
import { inTransaction } from '../../store/db.js'
import { syncGroupMemberships, userForIdentity } from '../../store/sso.js'
import { isDisabledUser } from '../../store/instance-admin.js'
import type { WebContext } from '../context.js'
import { html } from '../html.js'
import { page } from '../layout.js'
import { sameOriginPath } from '../next-path.js'
import type { OidcClient, PendingSignIn } from '../oidc-client.js'
import { sendPage } from '../respond.js'
import { openSession, preSession } from './auth.js'

const OIDC_COOKIE = 'ward_oidc'
const OIDC_PATH = '/sign-in/oidc'
/** How long a browser may stay at the provider before the sign-in it started is forgotten. */
const PENDING_S = 600

type Pending = PendingSignIn & { next: string }

function pendingOf(raw: string | undefined): Pending | null {
  if (!raw || raw.length > 2000) return null
  try {
    const p = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Pending
    return [p.state, p.nonce, p.verifier, p.next].every((v) => typeof v === 'string') ? p : null
  } catch {
    return null
  }
}

/** Why the provider's answer was refused: the page's status and text, and the audit entry's reason. */
export function refusalOf(e: unknown, issuer: string): { status: number; message: string; reason: string } {
  const err = e as Error & { cause?: { message?: string }; error?: string; error_description?: string }
  const detail = (err.cause?.message ?? err.message ?? String(e)).slice(0, 200)
  if (err.name === 'AuthorizationResponseError') {
    const what = `${err.error}${err.error_description ? `: ${err.error_description}` : ''}`.slice(0, 200)
    return { status: 403, message: `The identity provider refused the sign-in (${what}).`, reason: `provider answered ${what}` }
  }
  if (/"state"/.test(detail))
    return {
      status: 400,
      message: 'The answer did not belong to the sign-in this browser started (its state did not match): start again.',
      reason: detail,
    }
  if (/"iss"/.test(detail))
    return { status: 401, message: `The answer came from an issuer Ward does not trust (Ward trusts ${issuer}).`, reason: detail }
  if (err.name === 'ResponseBodyError')
    return {
      status: 401,
      message: `The identity provider did not accept the sign-in (${err.error}).`,
      reason: `token endpoint answered ${err.error}`,
    }
  return { status: 401, message: `The identity provider's answer could not be verified (${detail}).`, reason: detail }
}

export function ssoPages(app: FastifyInstance, ctx: WebContext, oidc: OidcClient) {
  const { config } = ctx
  const { cookieOpts } = preSession(config)

  app.get(OIDC_PATH, { config: { webPublic: true } }, async (req, reply) => {
    const next = sameOriginPath((req.query as Record<string, string>).next)
    if (req.webUser) return reply.redirect(next, 303)
    const { url, pending } = await oidc.begin()
    const value = Buffer.from(JSON.stringify({ ...pending, next })).toString('base64url')
    reply.setCookie(OIDC_COOKIE, value, { ...cookieOpts(req), path: OIDC_PATH, maxAge: PENDING_S })
    return reply.redirect(url, 303)
  })

  app.get(`${OIDC_PATH}/callback`, { config: { webPublic: true } }, async (req, reply) => {
    const pending = pendingOf(req.cookies[OIDC_COOKIE])
    // One answer per sign-in started: the cookie goes whatever happens next.
    reply.clearCookie(OIDC_COOKIE, { path: OIDC_PATH })
    if (!pending)
      return refuse(ctx, req, reply, {
        status: 400,
        message: `This sign-in was not started in this browser, or took longer than ${PENDING_S / 60} minutes: start again.`,
        reason: 'no sign-in pending in this browser (state cookie missing)',
      })
    const q = req.url.indexOf('?')
    let id: Awaited<ReturnType<OidcClient['finish']>>
    try {
      id = await oidc.finish(q < 0 ? '' : req.url.slice(q), pending)
    } catch (e) {
      req.log.warn({ err: e }, 'single sign-on refused')
      return refuse(ctx, req, reply, refusalOf(e, config.oidc!.issuer.href))
    }
    const user = await signedIn(ctx, req, id)
    if (!user)
      return refuse(ctx, req, reply, {
        status: 403,
        message: 'This account is disabled: an instance admin of Ward can enable it again.',
        reason: 'account disabled',
      })
    await openSession(ctx, req, reply, user.userId, user.audit)
    return reply.redirect(pending.next, 303)
  })
}

/** The user of a verified answer, their groups' memberships brought up to date, and the audit entries. */
async function signedIn(ctx: WebContext, req: FastifyRequest, id: Awaited<ReturnType<OidcClient['finish']>>) {
  const { db, config } = ctx
  const s = config.oidc!
  const user = await userForIdentity(db, id.issuer, id.subject, {
    name: userNameOf(id.claims, s.nameClaim),
    maxTargets: config.maxTargetsDefault,
  })
  // A disabled account gets no session and no membership changes: the caller refuses the sign-in.
  if (await isDisabledUser(db, user.userId)) return null
  if (s.groupRoles) {
    const grants = grantsFor(groupsOf(id.claims, s.groupsClaim), s.groupRoles)
    // Each membership change commits with its entry.
    const changes = await inTransaction(db, async (trx) => {
      const done = await syncGroupMemberships(trx, user.userId, grants)
      for (const c of done)
        await appendAudit(trx, {
          workspaceId: c.workspaceId,
          actorUserId: null,
          actor: 'system',
          client: req.ip,
          action: c.action,
          objectType: 'user',
          objectId: user.userId,
          details: { user_name: user.name, ...(c.role ? { role: c.role } : {}), via: 'WARD_OIDC_GROUP_ROLES' },
        })
      return done
    })
    if (changes.length) ctx.forgetUser?.(user.userId)
  }
  // The sign-in's entry is written with its session (openSession).
  const audit: AuditIntent = {
    actorUserId: user.userId,
    actor: user.name,
    client: req.ip,
    action: 'sign_in.succeeded',
    objectType: 'user',
    objectId: String(user.userId),
    workspace: null,
    details: { method: 'oidc', issuer: id.issuer, ...(user.created ? { account: 'created' } : {}) },
  }
  req.log.info({ userId: user.userId, ip: req.ip }, 'web sign-in through single sign-on')
  return { ...user, audit }
}

async function refuse(ctx: WebContext, req: FastifyRequest, reply: FastifyReply, r: { status: number; message: string; reason: string }) {
  await appendAudit(ctx.db, {
    workspaceId: null,
    actorUserId: null,
    actor: '(unknown)',
    client: req.ip,
    action: 'sign_in.failed',
    objectType: 'user',
    objectId: null,
    details: { method: 'oidc', reason: r.reason },
  })
  const body = html`<div class="signin card"><h1>Single sign-on did not work</h1>
<p class="msg error" role="alert" data-testid="sso-error">${r.message}</p>
<p><a class="button" href="/sign-in">Back to sign-in</a></p></div>`
  return sendPage(reply, page(req, 'Sign-in refused', body), r.status)
}
