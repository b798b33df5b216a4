// The screenshots of docs/teams.md: a Ward on a temporary SQLite file with single sign-on through a
// local OpenID Connect provider (test/testbed/oidc-provider.ts), a team's demo data made through the
// API, and chromium (playwright-core, Debian's /usr/bin/chromium) saving each page of the
// step-by-step as a 1200×800 PNG under docs/ui/team-*.png. Everything listens on 127.0.121.x only and
// the browser may reach nothing else.
//   node --import tsx scripts/screenshots-teams.ts [out-dir]   (default docs/ui)
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { startWard, waitForScan, isTerminal } from '../test/helpers/ward.js'
import { PASSWORD, setPassword } from '../test/helpers/web.js'
import { browserSkip, launchBrowser } from '../test/helpers/browser.js'
import { CLIENT_ID, CLIENT_SECRET, freePort, startOidcProvider } from '../test/testbed/oidc-provider.js'

const WEB = '127.0.121.1'
const IDP = '127.0.121.2'
const OUT = process.argv[2] ?? 'docs/ui'
const VIEW = { width: 1200, height: 800 }

const skip = browserSkip()
if (skip) {
  console.error(skip)
  process.exit(2)
}

const port = await freePort(WEB)
const base = `http://${WEB}:${port}`
const idp = await startOidcProvider(IDP, [`${base}/sign-in/oidc/callback`])
idp.accounts.set('dana', { preferred_username: 'dana', groups: ['secops'] })
const w = await startWard({
  env: {
    WARD_PUBLIC_URL: base,
    WARD_OIDC_ISSUER: idp.issuer,
    WARD_OIDC_CLIENT_ID: CLIENT_ID,
    WARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    WARD_OIDC_SCOPES: 'openid profile groups',
    WARD_OIDC_GROUP_ROLES: 'secops:Production:member,auditors:*:viewer',
    WARD_SIGNIN_LIMIT: '50',
  },
})
const browsers: Array<{ close(): Promise<void> }> = []

async function api(method: string, url: string, body?: unknown, key?: string) {
  const r = await w.req(method, url, { body, key })
  if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`)
  return r.statusCode === 204 ? null : r.json().data
}

/** A browser of its own (one person) that may reach this script's loopback addresses only. */
async function browser(): Promise<Page> {
  const b = await launchBrowser()
  browsers.push(b)
  await b.route('**/*', (route) => (new URL(route.request().url()).hostname.startsWith('127.0.121.') ? route.continue() : route.abort()))
  const p = await b.newPage()
  await p.setViewportSize(VIEW)
  return p
}

async function shot(p: Page, name: string) {
  await p.waitForLoadState('networkidle')
  const file = path.join(OUT, `${name}.png`)
  await p.screenshot({ path: file })
  console.log(`${file} (${fs.statSync(file).size} bytes)`)
}

try {
  fs.mkdirSync(OUT, { recursive: true })
  await w.app.listen({ host: WEB, port })

  // The team: alice (the first user: instance admin) owns Production; bob and carol have accounts.
  await setPassword(w, w.userId)
  const production = (await api('POST', '/api/v2/workspaces', { name: 'Production' })).created_id
  await api('POST', `/api/v2/workspaces/${production}/activate`)
  const bob = await w.user('bob')
  await w.user('carol')
  const erin = await w.user('erin')
  await api('POST', `/api/v2/workspaces/${production}/members`, { user_name: 'bob', role: 'member' })
  await api('POST', `/api/v2/workspaces/${production}/members`, { user_name: 'carol', role: 'viewer' })
  await api('POST', `/api/v2/users/${erin.userId}/disable`)
  // Some work to show in the audit log: bob adds a target and scans it (the diagnostic tool, no network).
  const scan = await api(
    'POST',
    '/api/v2/scans',
    { tool_id: 9001, target_name: 'shop.example.com', workspace_id: production, tool_params: { steps: 2, step_ms: 1 } },
    bob.key,
  )
  await waitForScan(w, scan.created_id, isTerminal)

  // 1. The sign-in page with the single sign-on button; dana signs in through the provider, and the
  //    group mapping makes her a member of Production.
  const dana = await browser()
  await dana.goto(`${base}/sign-in`)
  await shot(dana, 'sign-in-sso')
  await dana.click('[data-testid=sso]')
  await dana.waitForURL((u) => u.host.startsWith(IDP))
  await dana.fill('#login', 'dana')
  await dana.fill('#password', 'anything')
  await dana.click('#idp-submit')
  await dana.waitForURL(`${base}/`)

  // 2. alice signs in with her password.
  const alice = await browser()
  await alice.goto(`${base}/sign-in`)
  await alice.fill('#name', 'alice')
  await alice.fill('#password', PASSWORD)
  await alice.click('button[type=submit]')
  await alice.waitForURL(`${base}/`)
  await alice.goto(`${base}/workspaces`)
  await shot(alice, 'team-workspaces')

  // 3. Members, then an invitation link (shown once).
  await alice.goto(`${base}/workspaces/${production}/members`)
  await shot(alice, 'team-members')
  await alice.selectOption('form[action$="/invitations"] select[name=role]', 'member')
  await alice.click('form[action$="/invitations"] button[type=submit]')
  await alice.waitForSelector('[data-testid=invite-link]')
  await alice.locator('[data-testid=invite-link]').evaluate((e) => e.scrollIntoView({ block: 'center' }))
  await shot(alice, 'team-invitation')

  // 4. The audit log (alice is an instance admin: every entry), and the Users page.
  await alice.goto(`${base}/audit`)
  await shot(alice, 'team-audit')
  await alice.goto(`${base}/users`)
  await shot(alice, 'team-users')
} finally {
  for (const b of browsers) await b.close()
  await w.close()
  await idp.close()
}
