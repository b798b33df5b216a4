// Invitations in the web interface. On the Members page an owner makes a one-time link with a role
// (shown once; Ward keeps its hash) and revokes open ones. Whoever opens the link joins: signed in,
// with one click; otherwise after signing in, or by creating an account with a password on the spot.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { acceptInvitation, createInvitation, invitationByToken, openInvitations, revokeInvitation } from '../../store/invitations.js'
import { createUser, userByName } from '../../store/accounts.js'
import { createSession, newToken, setPasswordHash } from '../../store/web-sessions.js'
import { appendAudit, audited } from '../../store/audit.js'
import { inTransaction } from '../../store/db.js'
import { ROLES, type Role } from '../../store/members.js'
import { when } from '../time.js'
import { hashPassword, passwordProblem } from '../../domain/passwords.js'
import { notOwner } from '../../domain/access.js'
import { badRequest, conflict, WardError } from '../../domain/errors.js'
import type { WebContext } from '../context.js'
import { byLinkToken } from '../link-token.js'
import { html, option, type SafeHtml, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { checkCsrf, formOf, idOf, overTls, sendPage } from '../respond.js'

const INVITE_COOKIE = 'ward_invite'
const INVITE_PATH = '/invite/'

/** The Members page's invitation section for an owner: the new link (once), the open ones, the form. */
export async function invitationSection(
  req: FastifyRequest,
  db: WebContext['db'],
  workspaceId: number,
  newLink?: string,
): Promise<SafeHtml> {
  const open = await openInvitations(db, req.webUser!.userId, workspaceId)
  return html`<section class="card mt" aria-labelledby="invite"><h2 id="invite">Invite by link</h2>
${
  newLink
    ? html`<p class="msg ok" role="status">${[
        html`Send this one-time link to the person you invite (it is shown only now, and works for 7 days):`,
        html`<br><code data-testid="invite-link">${newLink}</code></p>`,
      ]}`
    : ''
}
<form method="post" action="/workspaces/${workspaceId}/invitations" class="filters">${csrfField(req)}
  <div><label for="i-role">Role</label><select id="i-role" name="role">${ROLES.map((r) => option(r, r, r === 'viewer'))}</select></div>
  <button type="submit">Create invitation link</button>
</form>
${
  open.length
    ? html`<div class="table-wrap"><table data-testid="invitations">${tableHead('Role', 'Created', 'Expires', '')}<tbody>${open.map(
        (i) => html`<tr><td>${i.role}</td><td>${when(i.created_at)}</td><td>${when(i.expires_at)}</td>
<td>${postButton(req, `/workspaces/${workspaceId}/invitations/${i.id}/revoke`, 'Revoke', { cls: 'small danger' })}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No open invitations.</p>`
}
</section>`
}

/** How the Members page renders itself, with an error or the new link. */
type RenderMembers = (req: FastifyRequest, reply: FastifyReply, o: { error?: string; status?: number; link?: string }) => Promise<unknown>

export function invitationPages(app: FastifyInstance, ctx: WebContext, renderMembers: RenderMembers) {
  ownerInvitationRoutes(app, ctx, renderMembers)
  inviteLinkRoutes(app, ctx)
}

/** An owner creates and revokes invitation links on the Members page. */
function ownerInvitationRoutes(app: FastifyInstance, ctx: WebContext, renderMembers: RenderMembers) {
  const { db } = ctx
  const wsIdOf = (req: FastifyRequest) => idOf((req.params as { id: string }).id, 'Workspace')

  app.post('/workspaces/:id/invitations', async (req, reply) => {
    const role = formOf(req).role as Role
    if (!ROLES.includes(role)) throw badRequest(`The role must be one of ${ROLES.join(', ')}`)
    const inv = await audited(
      db,
      req.audit,
      (trx) => createInvitation(trx, req.webUser!.userId, wsIdOf(req), role),
      (inv) => !!inv && { objectId: inv.id },
    )
    if (!inv) return renderMembers(req, reply, { error: notOwner().message, status: 403 })
    return renderMembers(req, reply, { link: `${req.protocol}://${req.host}/invite/${inv.token}` })
  })

  app.post('/workspaces/:id/invitations/:invitationId/revoke', async (req, reply) => {
    if (
      !(await audited(
        db,
        req.audit,
        (trx) =>
          revokeInvitation(
            trx,
            req.webUser!.userId,
            wsIdOf(req),
            idOf((req.params as { invitationId: string }).invitationId, 'Invitation'),
          ),
        (ok) => ok,
      ))
    )
      return renderMembers(req, reply, { error: 'Only an owner can revoke an invitation, and only an open one.', status: 403 })
    return reply.redirect(`/workspaces/${wsIdOf(req)}/members?ok=invitation-revoked`, 303)
  })
}

/** The link itself: whoever opens it joins, signed in or with a new account. */
function inviteLinkRoutes(app: FastifyInstance, ctx: WebContext) {
  const { db, config } = ctx

  app.get('/invite/:token', { config: { webPublic: true } }, async (req, reply) => {
    const token = tokenOf(req)
    const inv = await invitation(db, token)
    const u = req.webUser
    const offer = html`<h1>Join ${inv.workspace_name}</h1><p>You are invited to the workspace <strong>${inv.workspace_name}</strong> as ${[
      html`<strong data-testid="invite-role">${inv.role}</strong>.</p>`,
    ]}`
    if (u)
      return sendPage(
        reply,
        page(
          req,
          'Invitation',
          html`<div class="signin card">${offer}<form method="post" action="/invite/${token}">${csrfField(req)}${[
            html`<button type="submit">Join as ${u.name}</button></form></div>`,
          ]}`,
        ),
      )
    const csrf = newToken()
    reply.setCookie(INVITE_COOKIE, csrf, { ...cookieOpts(config, req), maxAge: 3600 })
    const signIn = html`<p><a class="button" href="/sign-in?next=${encodeURIComponent(`/invite/${token}`)}">Sign in to accept</a></p>`
    // Without password sign-in, a new person's account comes from single sign-on.
    if (!config.passwordSignIn) return sendPage(reply, page(req, 'Invitation', html`<div class="signin card">${offer}${signIn}</div>`))
    const body = html`<div class="signin card">${offer}
${signIn}
<h2>New to Ward? Create your account</h2>
<form method="post" action="/invite/${token}/account">
  <input type="hidden" name="_csrf" value="${csrf}">
  <div class="field"><label for="name">User name</label><input type="text" id="name" name="name" autocomplete="username" required maxlength="100"></div>
  <div class="field"><label for="password">Password (at least 10 characters)</label>${[
    html`<input type="password" id="password" name="password" autocomplete="new-password" required minlength="10">`,
  ]}</div>
  <div class="field"><label for="password2">The same again</label>${[
    html`<input type="password" id="password2" name="password2" autocomplete="new-password" required minlength="10">`,
  ]}</div>
  <button type="submit">Create account and join</button>
</form></div>`
    return sendPage(reply, page(req, 'Invitation', body))
  })

  app.post('/invite/:token', { config: { webPublic: true } }, async (req, reply) => {
    const u = req.webUser
    if (!u) return reply.redirect(`/invite/${tokenOf(req)}`, 303)
    checkCsrf(req, u.csrf)
    await join(ctx, req, u.userId, u.name, tokenOf(req))
    return reply.redirect('/workspaces?ok=invitation-used', 303)
  })

  app.post('/invite/:token/account', { config: { webPublic: true } }, async (req, reply) => {
    if (!config.passwordSignIn)
      throw new WardError(403, 'Password sign-in is turned off on this Ward: sign in with single sign-on, then accept.')
    checkCsrf(req, req.cookies[INVITE_COOKIE] ?? '')
    const token = tokenOf(req)
    await invitation(db, token)
    const f = formOf(req)
    const name = (f.name ?? '').trim()
    if (!name || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) throw badRequest('A user name is one line of 1 to 100 characters')
    const problem = f.password !== f.password2 ? 'The two passwords differ' : passwordProblem(f.password ?? '')
    if (problem) throw badRequest(problem)
    if (await userByName(db, name)) throw conflict('That user name is taken: sign in if it is yours, or choose another')
    const user = await createUser(db, { name, maxTargets: config.maxTargetsDefault })
    await setPasswordHash(db, user.userId, await hashPassword(f.password!))
    await join(ctx, req, user.userId, name, token)
    const s = await createSession(db, user.userId, config.web.sessionMs)
    reply.clearCookie(INVITE_COOKIE, { path: INVITE_PATH })
    reply.setCookie('ward_session', s.id, { ...cookieOpts(config, req), path: '/', maxAge: Math.floor(config.web.sessionMs / 1000) })
    return reply.redirect('/workspaces?ok=invitation-used', 303)
  })
}

function tokenOf(req: FastifyRequest) {
  return (req.params as { token: string }).token
}

function cookieOpts(config: WebContext['config'], req: FastifyRequest) {
  return {
    path: INVITE_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.web.cookieSecure === 'on' || (config.web.cookieSecure === 'auto' && overTls(req)),
  }
}

/** The open invitation of a link, or the 404 that says what to do. */
async function invitation(db: WebContext['db'], token: string) {
  return byLinkToken(
    token,
    (t) => invitationByToken(db, t),
    'This invitation does not exist, was already used, was revoked or has expired: ask the workspace owner for a new link.',
  )
}

/** Joins and records the use (the invitation's workspace is known only here). */
async function join(ctx: WebContext, req: FastifyRequest, userId: number, actor: string, token: string) {
  const { db } = ctx
  // The membership and its entry commit together.
  const used = await inTransaction(db, async (trx) => {
    const u = await acceptInvitation(trx, token, userId)
    if (u)
      await appendAudit(trx, {
        workspaceId: u.workspaceId,
        actorUserId: userId,
        actor,
        client: req.ip,
        action: 'invitation.used',
        objectType: 'invitation',
        objectId: u.id,
        details: { role: u.role },
      })
    return u
  })
  if (!used)
    throw new WardError(404, 'This invitation was used, revoked or has expired in the meantime: ask the workspace owner for a new link.')
  ctx.forgetUser?.(userId)
}
