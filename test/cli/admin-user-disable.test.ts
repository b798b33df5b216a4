// `ward admin user disable|enable`, the console's way to stop an account: a disabled user's API key
// (even one the caller cache holds) and web session are refused at once, and both work again once
// enabled; one audit entry by `system` each, none for a change that changes nothing. The command
// runs in this process (runAdmin) against the test Ward's database: no `ward` process to start.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn } from '../helpers/web.js'
import { runAdmin } from '../../src/cli/admin.js'

let w: TestWard
before(async () => {
  // The caller cache on and long: only the command's event can explain a refusal.
  w = await startWard({ env: { WARD_AUTH_CACHE_MS: '60000' } })
})
after(() => w.close())

test('ward admin user disable stops the key and the session at once; enable brings both back', async () => {
  const bob = await w.user('bob')
  await setPassword(w, bob.userId)
  const web = await signIn(w, 'bob')
  const lines: string[] = []
  const admin = (...argv: string[]) => runAdmin(['user', ...argv], w.h, w.config, (s) => lines.push(s))
  const api = () => w.req('GET', '/api/v2/workspaces', { key: bob.key })
  const page = () => web.get('/targets')
  const entries = async () =>
    (await w.h.db.selectFrom('audit_log').selectAll().where('object_id', '=', String(bob.userId)).orderBy('id').execute()).map((e) => [
      e.action,
      e.actor,
    ])

  assert.equal((await api()).statusCode, 200, 'the key works, and is cached now')
  assert.equal((await page()).statusCode, 200)

  await admin('disable', '--user', String(bob.userId))
  assert.match(lines.at(-1)!, new RegExp(`^user ${bob.userId} disabled`))
  assert.equal((await api()).statusCode, 401, 'the cached key is refused')
  const refused = await page()
  assert.notEqual(refused.statusCode, 200, 'the session is refused')
  assert.doesNotMatch(refused.body, /data-testid="active-role"/)
  await admin('disable', '--user', String(bob.userId))
  assert.equal(lines.at(-1), `user ${bob.userId} was already disabled`)

  await admin('enable', '--user', String(bob.userId))
  assert.equal(lines.at(-1), `user ${bob.userId} enabled`)
  assert.equal((await api()).statusCode, 200, 'the key works again')
  assert.equal((await (await signIn(w, 'bob')).get('/targets')).statusCode, 200, 'and bob can sign in again')
  assert.deepEqual(await entries(), [
    ['user.disabled', 'system'],
    ['user.enabled', 'system'],
  ])

  await assert.rejects(admin('disable', '--user', '99999'), /99999/)
  await assert.rejects(admin('enable'), /--user/)
})
