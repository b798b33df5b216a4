// A workspace's Members page: every member reads who belongs with which role; owners add people by
// user name, change roles and remove members. The same store calls as the API decide, inside their
// queries, so a hidden control sent by hand is refused the same way.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  addMember,
  listMembers,
  removeMember,
  ROLES,
  setMemberRole,
  type MemberChange,
  type MemberRow,
  type Role,
} from '../../store/members.js'
import { userByName } from '../../store/accounts.js'
import { toApiTime } from '../../store/time.js'
import { audited } from '../../store/audit.js'
import type { Db } from '../../store/db.js'
import { badRequest, notFound } from '../../domain/errors.js'
import { isOwner, memberChangeError } from '../../domain/access.js'
import { userOf, type WebContext } from '../context.js'
import { html, option, type SafeHtml, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { attempt, formOf, idOf, okMessage, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'
import { invitationPages, invitationSection } from './invitations.js'

const roleOf = (v: string | undefined): Role => {
  if (!ROLES.includes(v as Role)) throw badRequest(`The role must be one of ${ROLES.join(', ')}`)
  return v as Role
}

const roleSelect = (id: string, selected: Role, label: string) =>
  html`<label class="offscreen" for="${id}">${label}</label><select id="${id}" name="role">${ROLES.map((r) => option(r, r, r === selected))}</select>`

function memberRow(req: FastifyRequest, wsId: number, m: MemberRow, manage: boolean): SafeHtml {
  const controls = manage
    ? html`<td><form class="inline" method="post" action="/workspaces/${wsId}/members/${m.user_id}/role">${csrfField(req)}${[
        roleSelect(`role-${m.user_id}`, m.role, `Role of ${m.user_name}`),
      ]}
  <button class="small secondary" type="submit">Change role</button></form></td>
<td>${postButton(req, `/workspaces/${wsId}/members/${m.user_id}/remove`, 'Remove', {
        cls: 'small danger',
        confirm: 'Remove this member from the workspace?',
      })}</td>`
    : html`<td>${m.role}</td>`
  return html`<tr data-member="${m.user_name}"><td>${m.user_name}</td><td>${toApiTime(m.added_at)}</td>${controls}</tr>`
}

export function memberPages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx
  const wsIdOf = (req: FastifyRequest) => idOf((req.params as { id: string }).id, 'Workspace')

  async function render(req: FastifyRequest, reply: FastifyReply, error?: string, status = 200, link?: string) {
    const u = userOf(req)
    const id = wsIdOf(req)
    const [ws, members] = await Promise.all([workspacesOf(db, u), listMembers(db, u.userId, id)])
    const here = ws.all.find((w) => w.id === id)
    if (!members || !here) throw notFound('Workspace')
    const manage = isOwner(here.role)
    const body = html`<h1>Members of ${here.name}</h1>
<p class="muted">Owners manage members and everything else; members work with targets, scans, schedules, triage, VPN profiles and reports;
viewers read and download. Your role here: <strong data-testid="my-role">${here.role}</strong>.</p>
<div class="table-wrap"><table data-testid="members">${manage ? tableHead('User', 'Added', 'Role', '') : tableHead('User', 'Added', 'Role')}
<tbody>${members.map((m) => memberRow(req, id, m, manage))}</tbody></table></div>
${
  manage
    ? html`<section class="card mt" aria-labelledby="add-member"><h2 id="add-member">Add a member</h2>
<form method="post" action="/workspaces/${id}/members" class="filters">${csrfField(req)}
  <div><label for="m-name">User name</label><input type="text" id="m-name" name="user_name" required maxlength="200"></div>
  <div>${roleSelect('m-role', 'viewer', 'Role')}</div>
  <button type="submit">Add member</button>
</form></section>`
    : ''
}
${manage ? await invitationSection(req, db, id, link) : ''}
<p><a href="/workspaces">Back to the workspaces</a></p>`
    return sendPage(
      reply,
      page(req, `Members of ${here.name}`, body, { section: 'workspaces', workspace: ws, ok: okMessage(req), error }),
      status,
    )
  }

  /** Runs a change of membership; a refusal is shown on the page with its status, a success redirects. */
  // A non-member's refusal renders as the page's own 404 (render finds no such workspace for them).
  async function change(
    req: FastifyRequest,
    reply: FastifyReply,
    run: () => Promise<MemberChange>,
    done: string,
    missingUser = 'Member',
    to = `/workspaces/${wsIdOf(req)}/members`,
  ) {
    const r = await attempt(async () => {
      const e = memberChangeError(await run(), missingUser)
      if (e) throw e
    })
    if (!r.ok) return render(req, reply, r.message, r.status)
    return reply.redirect(`${to}?ok=${done}`, 303)
  }

  app.get('/workspaces/:id/members', async (req, reply) => render(req, reply))
  invitationPages(app, ctx, (req, reply, o) => render(req, reply, o.error, o.status, o.link))

  app.post('/workspaces/:id/members', async (req, reply) => {
    const f = formOf(req)
    return change(
      req,
      reply,
      async () => {
        const userId = (await userByName(db, (f.user_name ?? '').trim()))?.id ?? 0
        const added = (trx: Db) => addMember(trx, userOf(req).userId, wsIdOf(req), userId, roleOf(f.role))
        return audited(db, req.audit, added, (r) => r === 'done' && { objectId: userId })
      },
      'member-added',
      'User',
    )
  })

  app.post('/workspaces/:id/members/:userId/role', async (req, reply) =>
    change(
      req,
      reply,
      async () => {
        const member = idOf((req.params as { userId: string }).userId, 'Member')
        const changed = (trx: Db) => setMemberRole(trx, userOf(req).userId, wsIdOf(req), member, roleOf(formOf(req).role))
        return audited(db, req.audit, changed, (r) => r === 'done')
      },
      'member-changed',
    ),
  )

  app.post('/workspaces/:id/members/:userId/remove', async (req, reply) => {
    const removed = idOf((req.params as { userId: string }).userId, 'Member')
    // An owner who leaves can no longer see the page: back to the workspaces list then.
    const to = removed === userOf(req).userId ? '/workspaces' : undefined
    const remove = () =>
      audited(
        db,
        req.audit,
        (trx) => removeMember(trx, userOf(req).userId, wsIdOf(req), removed),
        (r) => r === 'done',
      )
    const r = await change(req, reply, remove, 'member-removed', 'Member', to)
    ctx.forgetUser?.(removed)
    return r
  })
}
