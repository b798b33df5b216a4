// The Users page of instance admins: every user (admin role, state, keys, memberships) with disable,
// enable and admin controls, and every workspace of the instance. The same store calls as the API
// decide (an admin check inside each change), so a form sent by someone else is refused (403).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  isInstanceAdmin,
  listUsersForAdmin,
  setUserAdmin,
  setUserDisabled,
  type AdminUserRow,
  type UserChange,
} from '../../store/instance-admin.js'
import { listAllWorkspaces } from '../../store/accounts.js'
import { publish } from '../../store/notify.js'
import { toApiTime } from '../../store/time.js'
import { notAdmin, userChangeError } from '../../domain/access.js'
import { auditActorOf } from '../../api/plugins/audit.js'
import { userOf, type WebContext } from '../context.js'
import { html, type SafeHtml, tableHead } from '../html.js'
import { page, postButton } from '../layout.js'
import { attempt, idOf, okMessage, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'

const button = (req: FastifyRequest, u: AdminUserRow, action: string, label: string, cls = 'secondary') =>
  postButton(req, `/users/${u.id}/${action}`, label, { cls: `small ${cls}` })

function userRow(req: FastifyRequest, u: AdminUserRow, self: number): SafeHtml {
  const state = u.disabled_at ? html`<span class="badge st">disabled</span>` : html`<span class="badge fin">enabled</span>`
  const controls = html`${u.id === self ? '' : u.disabled_at ? button(req, u, 'enable', 'Enable') : button(req, u, 'disable', 'Disable', 'danger')}
${u.is_admin ? button(req, u, 'admin/revoke', 'Remove admin') : button(req, u, 'admin', 'Make admin')}`
  return html`<tr data-user="${u.name}"><td>${u.name}</td><td class="num">${u.id}</td><td>${u.is_admin ? html`<span class="badge">admin</span>` : ''}</td>
<td>${state}</td><td class="num">${u.active_keys}</td><td class="num">${u.workspaces}</td><td>${toApiTime(u.created_at)}</td><td>${controls}</td></tr>`
}

export function userPages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx

  async function render(req: FastifyRequest, reply: FastifyReply, error?: string, status = 200) {
    const me = userOf(req)
    if (!(await isInstanceAdmin(db, me.userId))) throw notAdmin()
    const [ws, users, all] = await Promise.all([workspacesOf(db, me), listUsersForAdmin(db), listAllWorkspaces(db)])
    const body = html`<h1>Users</h1>
<p class="muted">Instance administration. A disabled user's API keys and web sessions stop at once; their keys are kept and work
again when the user is enabled. <code>ward admin user disable|enable|set --admin</code> does the same at the console.</p>
<div class="table-wrap"><table data-testid="users">${tableHead('User', 'Id', 'Role', 'State', 'Active keys', 'Workspaces', 'Created', '')}
<tbody>${users.map((u) => userRow(req, u, me.userId))}</tbody></table></div>
<h2 class="mt">Every workspace</h2>
<div class="table-wrap"><table data-testid="all-workspaces">${tableHead('Name', 'Id', 'Owners', 'Members', 'Created')}
<tbody>${all.map(
      (w) =>
        html`<tr><td>${w.name}</td><td class="num">${w.id}</td><td>${w.owners.join(', ')}</td>${[
          html`<td class="num">${w.members}</td><td>${toApiTime(w.created_at)}</td>`,
        ]}</tr>`,
    )}</tbody></table></div>`
    return sendPage(reply, page(req, 'Users', body, { section: 'users', workspace: ws, ok: okMessage(req), error }), status)
  }

  app.get('/users', async (req, reply) => render(req, reply))

  const change = (
    path: string,
    done: string,
    run: (id: number, by: number, actor: Awaited<ReturnType<typeof auditActorOf>>) => Promise<UserChange>,
  ) =>
    app.post(path, async (req, reply) => {
      const by = userOf(req).userId
      const id = idOf((req.params as { id: string }).id, 'User')
      const r = await attempt(async () => {
        if (!(await isInstanceAdmin(db, by))) throw notAdmin()
        const e = userChangeError(await run(id, by, await auditActorOf(db, req)))
        if (e) throw e
      })
      if (!r.ok) return r.status === 403 ? Promise.reject(notAdmin()) : render(req, reply, r.message, r.status)
      ctx.forgetUser?.(id)
      publish({ type: 'user-changed', userId: id })
      return reply.redirect(`/users?ok=${done}`, 303)
    })
  change('/users/:id/disable', 'user-disabled', (id, by, actor) => setUserDisabled(db, id, true, { by, actor }))
  change('/users/:id/enable', 'user-enabled', (id, by, actor) => setUserDisabled(db, id, false, { by, actor }))
  change('/users/:id/admin', 'admin-granted', (id, by, actor) => setUserAdmin(db, id, true, { by, actor }))
  change('/users/:id/admin/revoke', 'admin-revoked', (id, by, actor) => setUserAdmin(db, id, false, { by, actor }))
}
