// Workspaces (list, create, rename, delete, set active, default VPN profile) and the VPN profiles page.
import { scopesOf } from '../../toolkit/scope.js'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createWorkspace, getWorkspace, setActiveWorkspace } from '../../store/accounts.js'
import { deleteVpnProfile, listVpnProfiles, workspacesByProfile } from '../../store/vpn-profiles.js'
import { renameWorkspace } from '../../store/web-sessions.js'
import { addVpnProfile, setDefaultVpnProfile, type VpnProfileType } from '../../domain/vpn.js'
import { isUniqueViolation } from '../../domain/targets.js'
import { badRequest, conflict, forbidden, notFound } from '../../domain/errors.js'
import { isOwner, memberChangeError } from '../../domain/access.js'
import { deleteWorkspace } from '../../store/workspace-deletion.js'
import { audited } from '../../store/audit.js'
import type { Db } from '../../store/db.js'
import { auditActorOf } from '../../api/plugins/audit.js'
import { userOf, type WebContext } from '../context.js'
import { html, option, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { attempt, formOf, idOf, okMessage, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'

function workspaceName(v: string | undefined): string {
  const name = (v ?? '').trim()
  if (!name || name.length > 200 || /[\u0000-\u001f]/.test(name)) throw badRequest('A workspace name is one line of 1 to 200 characters')
  return name
}

export function workspacePages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx

  async function render(req: FastifyRequest, reply: FastifyReply, error?: string, status = 200) {
    const u = userOf(req)
    const [ws, profiles] = await Promise.all([workspacesOf(db, u), listVpnProfiles(db, u.userId)])
    const body = html`<h1>Workspaces</h1>
<p class="muted">Targets and scans belong to a workspace. The <strong>active</strong> workspace is where new targets and scans go,
and what <code>GET /api/v2/scans</code> lists when no <code>workspace_id</code> is given.</p>
<div class="table-wrap"><table>
<thead><tr><th>Name</th><th>Id</th><th>Your role</th><th>Default VPN profile</th><th>Rename</th><th></th></tr></thead>
<tbody>${ws.all.map(
      (w) => html`<tr data-workspace-id="${w.id}">
  <td>${w.name} ${w.id === ws.active?.id ? html`<span class="badge fin">active</span>` : ''}</td><td class="num">${w.id}</td>
  <td><span class="badge" data-testid="role">${w.role}</span> <a href="/workspaces/${w.id}/members">Members</a></td>
  <td>${
    ws.writes(w.id)
      ? html`<form class="inline" method="post" action="/workspaces/${w.id}/vpn">${csrfField(req)}
    <label class="offscreen" for="vpn-${w.id}">Default VPN profile of ${w.name}</label>
    <select id="vpn-${w.id}" name="vpn_profile_uuid"><option value="">none (direct)</option>${[
      profiles.map((p) => option(p.uuid, p.name, p.uuid === w.vpn_profile_uuid)),
    ]}</select>
    <button class="small secondary" type="submit">Save</button></form>`
      : (profiles.find((p) => p.uuid === w.vpn_profile_uuid)?.name ?? (w.vpn_profile_uuid ? 'set' : 'none'))
  }</td>
  <td>${
    isOwner(w.role)
      ? html`<form class="inline" method="post" action="/workspaces/${w.id}/rename">${csrfField(req)}
    <label class="offscreen" for="rename-${w.id}">New name for ${w.name}</label>${[
      html`<input type="text" id="rename-${w.id}" name="name" value="${w.name}" required maxlength="200">`,
    ]}
    <button class="small secondary" type="submit">Rename</button></form>
    ${postButton(req, `/workspaces/${w.id}/delete`, 'Delete', {
      cls: 'small danger',
      confirm: 'Delete this workspace with all its targets, scans, findings and schedules?',
    })}`
      : ''
  }</td>
  <td>${w.id === ws.active?.id ? '' : postButton(req, `/workspaces/${w.id}/activate`, 'Set active', { cls: 'small' })}</td>
</tr>`,
    )}</tbody></table></div>
<section class="card mt" aria-labelledby="new-ws"><h2 id="new-ws">New workspace</h2>
<form method="post" action="/workspaces" class="filters">${csrfField(req)}
  <div><label for="ws-name">Name</label><input type="text" id="ws-name" name="name" required maxlength="200"></div>
  <button type="submit">Create workspace</button>
</form></section>`
    return sendPage(reply, page(req, 'Workspaces', body, { section: 'workspaces', workspace: ws, ok: okMessage(req), error }), status)
  }

  app.get('/workspaces', async (req, reply) => render(req, reply))

  /** Creates or renames a workspace under the name in the form; a taken name is a 409 in words. */
  const named = (req: FastifyRequest, reply: FastifyReply, write: (name: string) => Promise<unknown>, done: string) =>
    attempt(async () => {
      const name = workspaceName(formOf(req).name)
      try {
        await write(name)
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(`A workspace named "${name}" already exists`)
        throw e
      }
    }).then((r) => (r.ok ? reply.redirect(`/workspaces?ok=${done}`, 303) : render(req, reply, r.message, r.status)))

  app.post('/workspaces', async (req, reply) => {
    const create = (name: string) => (trx: Db) => createWorkspace(trx, userOf(req).userId, name)
    return named(req, reply, (name) => audited(db, req.audit, create(name), (id) => ({ objectId: id })), 'workspace-created')
  })

  app.post('/workspaces/:id/rename', async (req, reply) => {
    const id = idOf((req.params as { id: string }).id, 'Workspace')
    return named(
      req,
      reply,
      async (name) => {
        const rename = (trx: Db) => renameWorkspace(trx, userOf(req).userId, id, name)
        const renamed = await audited(db, req.audit, rename, Boolean)
        if (!renamed)
          throw (await getWorkspace(db, userOf(req).userId, id))
            ? forbidden('Only an owner of this workspace can rename it')
            : notFound('Workspace')
      },
      'workspace-renamed',
    )
  })

  app.post('/workspaces/:id/activate', async (req, reply) => {
    const u = userOf(req)
    const id = idOf((req.params as { id: string }).id, 'Workspace')
    if (!(await getWorkspace(db, u.userId, id))) throw notFound('Workspace')
    await setActiveWorkspace(db, u.userId, id)
    ctx.forgetUser?.(u.userId)
    const back = formOf(req).back
    return reply.redirect(back && /^\/[a-z-]*$/.test(back) ? `${back}?ok=workspace-active` : '/workspaces?ok=workspace-active', 303)
  })

  workspaceVpnPage(app, ctx)

  vpnProfilePages(app, ctx)
  workspaceDeletion(app, ctx)
}

/** A workspace's default VPN profile (members and owners). */
function workspaceVpnPage(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx
  app.post('/workspaces/:id/vpn', async (req, reply) => {
    const u = userOf(req)
    const id = idOf((req.params as { id: string }).id, 'Workspace')
    const uuid = formOf(req).vpn_profile_uuid || null
    await setDefaultVpnProfile(db, u, id, uuid, req.audit)
    return reply.redirect('/workspaces?ok=workspace-vpn', 303)
  })
}

/** Deleting a workspace (owners): a refusal (403, 404, or 409 while a scan runs) is the error page. */
function workspaceDeletion(app: FastifyInstance, ctx: WebContext) {
  app.post('/workspaces/:id/delete', async (req, reply) => {
    const id = idOf((req.params as { id: string }).id, 'Workspace')
    const members: number[] = []
    const e = memberChangeError(
      await deleteWorkspace(ctx.db, userOf(req).userId, id, await auditActorOf(ctx.db, req), members),
      'Workspace',
    )
    if (e) throw e
    for (const m of members) ctx.forgetUser?.(m)
    return reply.redirect('/workspaces?ok=workspace-deleted', 303)
  })
}

/** The VPN profiles page: list, create, delete. */
function vpnProfilePages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx

  async function renderVpn(req: FastifyRequest, reply: FastifyReply, error?: string, status = 200) {
    const u = userOf(req)
    const [ws, profiles, used] = await Promise.all([workspacesOf(db, u), listVpnProfiles(db, u.userId), workspacesByProfile(db, u.userId)])
    const wsName = new Map(ws.all.map((w) => [w.id, w.name]))
    const body = html`<h1>VPN profiles</h1>
<p class="muted">${[
      html`A scan can reach its target through a SOCKS5 or HTTP CONNECT proxy. `,
      html`A workspace's default profile is used by scans that do not name one. Passwords are never shown again.`,
    ]}</p>
${
  profiles.length
    ? html`<div class="table-wrap"><table>${tableHead('Name', 'Type', 'Proxy', 'User', 'Default of', '')}<tbody>
${profiles.map(
  (p) => html`<tr><td>${p.name}</td><td>${p.type}</td><td class="mono">${p.url ?? `${p.host}:${p.port}`}</td>${[
    html`<td>${p.username ?? ''}${p.password ? ' (with password)' : ''}</td>`,
  ]}
  <td>${(used.get(p.uuid) ?? []).map((id) => wsName.get(id)).join(', ')}</td>
  <td>${postButton(req, `/vpn-profiles/${p.uuid}/delete`, 'Delete', { cls: 'small danger', confirm: 'Delete this VPN profile?' })}</td></tr>`,
)}</tbody></table></div>`
    : html`<p>No VPN profiles yet: scans connect directly.</p>`
}
<section class="card mt" aria-labelledby="new-vpn"><h2 id="new-vpn">New VPN profile</h2>
<form method="post" action="/vpn-profiles">${csrfField(req)}
  <div class="field"><label for="vpn-name">Name</label><input type="text" id="vpn-name" name="name" required maxlength="200"></div>
  <div class="field"><label for="vpn-type">Type</label><select id="vpn-type" name="type">${[
    html`<option value="socks5">SOCKS5 (host, port, optional user and password)</option>`,
    html`<option value="http_connect">HTTP CONNECT (proxy URL)</option>`,
  ]}</select></div>
  <div class="grid" data-show-if="vpn-type=socks5">
    <div class="field"><label for="vpn-host">SOCKS5 host</label><input type="text" id="vpn-host" name="host"></div>
    <div class="field"><label for="vpn-port">SOCKS5 port</label><input type="number" id="vpn-port" name="port" min="1" max="65535"></div>
    <div class="field"><label for="vpn-user">SOCKS5 user name</label><input type="text" id="vpn-user" name="username" autocomplete="off"></div>
    <div class="field"><label for="vpn-pass">SOCKS5 password</label><input type="password" id="vpn-pass" name="password" autocomplete="new-password"></div>
  </div>
  <div class="field" data-show-if="vpn-type=http_connect" hidden>${[
    html`<label for="vpn-url">HTTP CONNECT proxy URL</label>`,
    html`<input type="text" id="vpn-url" name="url" placeholder="http://[user:pass@]host:port">`,
  ]}</div>
  <button type="submit">Create VPN profile</button>
</form></section>`
    return sendPage(reply, page(req, 'VPN profiles', body, { section: 'vpn', workspace: ws, ok: okMessage(req), error }), status)
  }

  app.get('/vpn-profiles', async (req, reply) => renderVpn(req, reply))

  app.post('/vpn-profiles', async (req, reply) => {
    const f = formOf(req)
    const r = await attempt(async () => {
      const type = f.type === 'http_connect' ? 'http_connect' : 'socks5'
      const port = f.port?.trim() ? Number(f.port) : undefined
      if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
        throw badRequest('The port must be a whole number from 1 to 65535')
      const input =
        type === 'socks5'
          ? {
              name: f.name ?? '',
              type: type as VpnProfileType,
              host: f.host?.trim() || undefined,
              port,
              username: f.username || undefined,
              password: f.password || undefined,
            }
          : { name: f.name ?? '', type: type as VpnProfileType, url: f.url?.trim() || undefined }
      const vpnHost = scopesOf(ctx.config).vpnHost
      return await addVpnProfile(
        db,
        userOf(req).userId,
        input,
        vpnHost,
        (name) => `A VPN profile named "${name}" already exists`,
        req.audit,
      )
    })
    if (!r.ok) return renderVpn(req, reply, r.message.replace(/^Invalid parameters: /, ''), r.status)
    return reply.redirect('/vpn-profiles?ok=vpn-created', 303)
  })

  app.post('/vpn-profiles/:uuid/delete', async (req, reply) => {
    const uuid = String((req.params as { uuid: string }).uuid)
    const r = await audited(
      db,
      req.audit,
      (trx) => deleteVpnProfile(trx, userOf(req).userId, uuid),
      (r) => r === 'deleted',
    )
    if (r === 'missing') throw notFound('VPN profile')
    if (r === 'running')
      return renderVpn(
        req,
        reply,
        'A running scan uses this VPN profile: stop the scan or wait for it to end, then delete the profile.',
        409,
      )
    return reply.redirect('/vpn-profiles?ok=vpn-deleted', 303)
  })
}
