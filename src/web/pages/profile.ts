// The profile page: who you are, your licence and target limit, your API keys (masked; a new key is
// shown once with reveal and copy), creating and revoking keys, changing your password.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createApiKey } from '../../store/accounts.js'
import { audited } from '../../store/audit.js'
import { countUserTargets } from '../../store/targets.js'
import { hashPassword, passwordProblem, verifyPassword } from '../../domain/passwords.js'
import { licenceValid } from '../../domain/targets.js'
import { revokeOwnKey, setPasswordHash, userForSignIn, userKeys } from '../../store/web-sessions.js'
import { userOf, type WebContext } from '../context.js'
import { html } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { formOf, idOf, okMessage, overTls, sendPage } from '../respond.js'
import { secretsOf } from '../../store/secrets.js'
import { isSealed } from '../../store/secret-box.js'
import { workspacesOf } from '../workspace.js'

const NEW_KEY_COOKIE = 'ward_new_key'
const masked = (prefix: string) => `${prefix}${'•'.repeat(20)}`
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '')

export function profilePages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx

  app.get('/profile', async (req, reply) => renderProfile(db, req, reply, { newKey: takeNewKey(db, req, reply) }))

  // Redirect after post: the new key waits for the next page in a sealed, short-lived cookie that
  // page clears, so reloading the page shows the list again instead of creating another key.
  app.post('/profile/keys', async (req, reply) => {
    const u = userOf(req)
    const key = await audited(
      db,
      req.audit,
      (trx) => createApiKey(trx, u.userId),
      (key) => !!key,
    )
    req.log.info({ userId: u.userId }, 'API key created in the web interface')
    reply.setCookie(NEW_KEY_COOKIE, secretsOf(db).seal(`${u.userId}:${key!}`), {
      path: '/profile',
      httpOnly: true,
      sameSite: 'strict',
      maxAge: 300,
      secure: ctx.config.web.cookieSecure === 'on' || (ctx.config.web.cookieSecure === 'auto' && overTls(req)),
    })
    return reply.redirect('/profile', 303)
  })

  app.post('/profile/keys/:id/revoke', async (req, reply) => {
    const u = userOf(req)
    const id = idOf((req.params as { id: string }).id, 'API key')
    if (
      !(await audited(
        db,
        req.audit,
        (trx) => revokeOwnKey(trx, u.userId, id),
        (ok) => ok,
      ))
    )
      return renderProfile(db, req, reply, { error: 'That key does not exist or is already revoked.', status: 404 })
    ctx.forgetUser?.(u.userId)
    return reply.redirect('/profile?ok=key-revoked', 303)
  })

  app.post('/profile/password', async (req, reply) => {
    const u = userOf(req)
    const f = formOf(req)
    const row = await userForSignIn(db, u.name)
    if (!row || !(await verifyPassword(f.current ?? '', row.password_hash)))
      return renderProfile(db, req, reply, { error: 'The current password is wrong.', status: 400 })
    const problem = passwordProblem(f.password ?? '')
    if (problem) return renderProfile(db, req, reply, { error: problem, status: 400 })
    await setPasswordHash(db, u.userId, await hashPassword(f.password!))
    return reply.redirect('/sign-in', 303)
  })
}

/** The profile page, with a new key shown once, or an error over the forms. */
async function renderProfile(
  db: WebContext['db'],
  req: FastifyRequest,
  reply: FastifyReply,
  o: { newKey?: string; error?: string; ok?: string; status?: number } = {},
) {
  const u = userOf(req)
  const [keys, used, ws] = await Promise.all([userKeys(db, u.userId), countUserTargets(db, u.userId), workspacesOf(db, u)])
  const active = keys.filter((k) => !k.revoked_at)
  const newKeyMasked = masked(o.newKey?.slice(0, 12) ?? '')
  const body = html`<h1>Profile</h1>
<div class="grid">
  <section class="card" aria-labelledby="acct"><h2 id="acct">Account</h2>
    <dl class="props">
      <dt>User</dt><dd>${u.name}</dd>
      <dt>Licence</dt><dd data-testid="licence">${
        u.licenseExpires
          ? html`${licenceValid(u) ? 'valid until' : html`<strong>expired</strong> on`} ${u.licenseExpires}`
          : 'does not expire'
      }</dd>
      <dt>Targets</dt><dd data-testid="target-limit">${used} of at most ${u.maxTargets}</dd>
    </dl>
  </section>
  <section class="card" aria-labelledby="pw"><h2 id="pw">Change password</h2>
    <form method="post" action="/profile/password">${csrfField(req)}
      <div class="field"><label for="current">Current password</label>${[
        html`<input type="password" id="current" name="current" autocomplete="current-password" required>`,
      ]}</div>
      <div class="field"><label for="password">New password (at least 10 characters)</label>${[
        html`<input type="password" id="password" name="password" autocomplete="new-password" minlength="10" required>`,
      ]}</div>
      <button type="submit" class="secondary">Change password</button>
    </form>
  </section>
</div>
<section class="card" aria-labelledby="keys"><h2 id="keys">API keys</h2>
  <p class="muted">Send a key as <code>authorization: Bearer &lt;API_KEY&gt;</code> to <code>/api/v2</code>. Ward keeps only a hash of each key,
  so a key is shown in full once, when it is created; afterwards only its first characters identify it.</p>
  ${
    o.newKey
      ? html`<div class="msg ok" role="status"><p><strong>New API key</strong> — copy it now, it is not shown again:</p>
      <p><span id="new-key" class="key" data-testid="new-key" data-secret="${o.newKey}" data-masked="${newKeyMasked}" data-shown="0">${[
        newKeyMasked,
      ]}</span>
      <button type="button" class="small secondary" data-reveal="new-key" aria-pressed="false">Reveal</button>
      <button type="button" class="small" data-copy="new-key">Copy</button></p></div>`
      : ''
  }
  <div class="table-wrap"><table>
    <thead><tr><th>Key</th><th>Created</th><th>State</th><th></th></tr></thead>
    <tbody>${keys.map(
      (k) => html`<tr data-key-id="${k.id}"><td><span class="key">${masked(k.key_prefix)}</span></td><td>${day(k.created_at)}</td>
      <td>${k.revoked_at ? html`<span class="badge st">revoked ${day(k.revoked_at)}</span>` : html`<span class="badge fin">active</span>`}</td>
      <td>${
        k.revoked_at
          ? ''
          : postButton(req, `/profile/keys/${k.id}/revoke`, 'Revoke', {
              cls: 'small danger',
              confirm: 'Revoke this key? Programs using it stop working at once.',
            })
      }</td></tr>`,
    )}</tbody>
  </table></div>
  <form method="post" action="/profile/keys" class="actions">${csrfField(req)}<button type="submit">Create a new API key</button></form>
  <p class="muted">${active.length} active key(s).</p>
</section>`
  return sendPage(
    reply,
    page(req, 'Profile', body, { section: 'profile', workspace: ws, ok: o.ok ?? okMessage(req), error: o.error }),
    o.status ?? 200,
  )
}

/** The key created just before, once: read from its cookie, which is cleared. */
function takeNewKey(db: WebContext['db'], req: FastifyRequest, reply: FastifyReply): string | undefined {
  const sealed = req.cookies[NEW_KEY_COOKIE]
  if (!sealed || !isSealed(sealed)) return undefined
  reply.clearCookie(NEW_KEY_COOKIE, { path: '/profile' })
  try {
    const [owner, key] = secretsOf(db).open(sealed).split(/:(.*)/s)
    return Number(owner) === userOf(req).userId ? key : undefined
  } catch {
    return undefined
  }
}
