// The tenancy matrix: every route the app serves that reaches a workspace's data — API, web pages,
// fragments, downloads and forms, by id or through the active workspace — × {owner, member, viewer,
// non-member, removed member} (and the instance admin for the admin routes). A non-member and a
// removed member get exactly the answer of an unknown id and see nothing of the workspace; a viewer's
// change is refused with 403 and changes no row; owners and members succeed where their role allows.
// The app's own route list is checked against the table: a new route must be added to it (or exempted).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import type { LightMyRequestResponse } from 'fastify'
import { startWard, waitForScan, type TestWard } from '../helpers/ward.js'
import { sessionOf, type WebSession } from '../helpers/web.js'
import { createApiKey } from '../../src/store/accounts.js'
import { importTemplates } from '../../src/cli/template-import.js'
import {
  EXEMPT,
  ID_ROUTES,
  MISSING,
  PAGE_ROUTES,
  WEB_ROUTES,
  hook,
  uniq,
  type Access,
  type Fixtures,
  type Kind,
  type RouteCase,
} from './routes-table.js'

const ALL = [...ID_ROUTES, ...PAGE_ROUTES, ...WEB_ROUTES]
const WHO = ['owner', 'member', 'viewer', 'outsider', 'removed'] as const
type Who = (typeof WHO)[number] | 'admin'
type Principal = { key: string; userId: number; web: WebSession }
/** Every name of the workspace's objects carries this: no answer to an outsider may contain it. */
const MARK = 'zq7'

let w: TestWard
let receiver: http.Server
const P = {} as Record<Who, Principal>
let o: Fixtures
let frank: number

const as = (who: Who) => ({ key: P[who].key })
const api = (who: Who, method: string, url: string, body?: unknown) =>
  w.req(method, url, { ...as(who), ...(body === undefined ? {} : { body }) })
const created = async (r: Promise<LightMyRequestResponse>) => {
  const got = await r
  assert.equal(got.statusCode, 201, got.body)
  return got.json().data.created_id
}
const member = (ws: number, user_name: string, role: string) =>
  api('owner', 'POST', `/api/v2/workspaces/${ws}/members`, { user_name, role })

/** A new object of `kind` in the workspace (made by its owner), for a success that uses one up. */
async function fresh(kind: Kind): Promise<Fixtures> {
  const ws = o.workspace
  const make: Partial<Record<Kind, () => Promise<number | string>>> = {
    target: () => created(api('owner', 'POST', '/api/v2/targets', { name: `${MARK}-${uniq()}.example`, workspace_id: ws })),
    scan: async () => (await scanWithFinding()).scan,
    finding: async () => (await scanWithFinding()).finding,
    schedule: () =>
      created(
        api('owner', 'POST', '/api/v2/schedules', {
          name: `${MARK} schedule`,
          tool_id: 9001,
          target_id: o.target,
          interval_minutes: 60,
          tool_params: { steps: 1, step_ms: 1 },
        }),
      ),
    integration: () =>
      created(
        api('owner', 'POST', '/api/v2/integrations', {
          type: 'webhook',
          name: `${MARK} hook ${uniq()}`,
          config: { url: hook.url },
          enabled: false,
          workspace_id: ws,
        }),
      ),
    settings: () =>
      created(
        api('owner', 'POST', '/api/v2/scan-settings', {
          name: `${MARK} settings ${uniq()}`,
          tool_id: 9001,
          workspace_id: ws,
          tool_params: { steps: 1 },
        }),
      ),
    workspace: async () => {
      const id = await created(api('owner', 'POST', '/api/v2/workspaces', { name: `${MARK} ${uniq('ws')}` }))
      assert.equal((await member(id, 'bob', 'member')).statusCode, 201)
      assert.equal((await member(id, 'carol', 'viewer')).statusCode, 201)
      return id
    },
    member: async () => {
      const r = await member(ws, 'frank', 'member')
      assert.ok(r.statusCode === 201 || r.statusCode === 409, r.body)
      return frank
    },
    invitation: () => created(api('owner', 'POST', `/api/v2/workspaces/${ws}/invitations`, { role: 'viewer' })),
    vpn: () =>
      created(
        api('owner', 'POST', '/api/v2/vpn_profiles', { name: `${MARK} vpn ${uniq()}`, type: 'socks5', host: '127.0.0.1', port: 1080 }),
      ),
    key: async () => {
      await createApiKey(w.h.db, P.owner.userId)
      const k = await w.h.db
        .selectFrom('api_keys')
        .select('id')
        .where('user_id', '=', P.owner.userId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      return k.id
    },
  }
  const m = make[kind]
  return m ? { ...o, [kind]: await m() } : o
}

async function scanWithFinding() {
  const target = (await fresh('target')).target
  const scan = await created(
    api('owner', 'POST', '/api/v2/scans', { tool_id: 9001, target_id: target, tool_params: { steps: 1, step_ms: 1 } }),
  )
  await waitForScan(w, scan, (s) => s.status_name === 'finished', 60000, P.owner.key)
  const finding = (await api('owner', 'GET', `/api/v2/findings?task_id=${scan}`)).json().data[0].id
  return { scan, finding }
}

/**
 * Every row a change could touch — the workspace's objects, memberships, workspaces, the owner's
 * keys and profiles, users' admin state, the audit log — as text: equal before and after means no change.
 */
async function snapshot(): Promise<string> {
  const db = w.h.db
  const ws = o.workspace
  const rows = await Promise.all([
    db.selectFrom('targets').selectAll().where('workspace_id', '=', ws).orderBy('id').execute(),
    db.selectFrom('scans').select(['id', 'status', 'stop_requested']).where('workspace_id', '=', ws).orderBy('id').execute(),
    db.selectFrom('findings').select(['id', 'status', 'risk_level', 'verified']).where('workspace_id', '=', ws).orderBy('id').execute(),
    db.selectFrom('finding_history').select('id').where('workspace_id', '=', ws).execute(),
    db.selectFrom('schedules').selectAll().where('workspace_id', '=', ws).orderBy('id').execute(),
    db.selectFrom('integrations').selectAll().where('workspace_id', '=', ws).orderBy('id').execute(),
    db.selectFrom('scan_settings').selectAll().where('workspace_id', '=', ws).orderBy('id').execute(),
    db.selectFrom('workspace_invitations').select(['id', 'revoked_at', 'used_at']).where('workspace_id', '=', ws).orderBy('id').execute(),
    db.selectFrom('workspaces').selectAll().orderBy('id').execute(),
    db.selectFrom('workspace_members').selectAll().orderBy('workspace_id').orderBy('user_id').execute(),
    db.selectFrom('api_keys').select(['id', 'revoked_at']).orderBy('id').execute(),
    db.selectFrom('vpn_profiles').select(['uuid', 'name']).orderBy('uuid').execute(),
    db.selectFrom('users').select(['id', 'is_admin', 'disabled_at']).orderBy('id').execute(),
    db
      .selectFrom('audit_log')
      .select('id')
      .where((e) => e.or([e('workspace_id', '=', ws), e('workspace_id', 'is', null)]))
      .orderBy('id')
      .execute(),
  ])
  return JSON.stringify(rows)
}

const accessOf = (r: RouteCase): Access => r.access ?? (r.method === 'GET' ? 'read' : 'write')
const isApi = (r: RouteCase) => r.path(MISSING[r.kind], MISSING).startsWith('/api/')
const label = (r: RouteCase, who: Who, f = o) =>
  `${who}: ${r.method} ${r.path(f[r.kind], f)} ${r.body ? JSON.stringify(r.body(f[r.kind], f)) : ''}`

function call(r: RouteCase, who: Who, f: Fixtures, id: unknown = f[r.kind]) {
  const url = r.path(id, f)
  const body = r.body?.(id, f)
  if (isApi(r)) return api(who, r.method, url, body)
  const s = P[who].web
  return r.method === 'GET' ? s.get(url) : s.post(url, body as Record<string, string> | undefined)
}

/** What `who` must get: success, a refusal, or exactly the answer for an unknown id. */
function expected(access: Access, who: Who): 'ok' | 403 | 'missing' {
  const outside = who === 'outsider' || who === 'removed'
  switch (access) {
    case 'global':
    case 'page':
      return 'ok'
    case 'admin':
      return who === 'admin' ? 'ok' : 403
    case 'creator':
      return who === 'owner' ? 'ok' : 'missing'
    case 'read':
      return outside ? 'missing' : 'ok'
    case 'write':
    case 'active':
      return outside ? 'missing' : who === 'viewer' ? 403 : 'ok'
    case 'owner':
      return outside ? 'missing' : who === 'owner' ? 'ok' : 403
  }
}
const whoFor = (r: RouteCase): Who[] => (accessOf(r) === 'admin' ? ['admin', ...WHO] : [...WHO])
const changes = (r: RouteCase) => r.method !== 'GET' && accessOf(r) !== 'read'

const ok = (got: LightMyRequestResponse) => got.statusCode >= 200 && got.statusCode < 400

/** The list of a kind an API list path gives, to check that none of the workspace's ids is in it. */
const LISTED: Array<[RegExp, Kind]> = [
  [/^\/api\/v2\/targets/, 'target'],
  [/^\/api\/v2\/scans/, 'scan'],
  [/^\/api\/v2\/findings/, 'finding'],
  [/^\/api\/v2\/schedules/, 'schedule'],
  [/^\/api\/v2\/integrations/, 'integration'],
  [/^\/api\/v2\/scan-settings/, 'settings'],
  [/^\/api\/v2\/workspaces/, 'workspace'],
]

/** An outsider's answer shows nothing of the workspace: none of its names, and no element of it in a list. */
function assertNoLeak(got: LightMyRequestResponse, where: string) {
  assert.ok(!got.body.includes(MARK), `${where} leaks the workspace: ${got.body.slice(0, 400)}`)
  const url = where.split(' ')[2] ?? ''
  const kind = LISTED.find(([re]) => re.test(url))?.[1]
  if (!kind || !(got.headers['content-type'] ?? '').toString().startsWith('application/json')) return
  const data = got.json().data
  if (!Array.isArray(data)) return
  for (const x of data) {
    assert.notEqual(x.id, o[kind], `${where} lists the workspace's ${kind}`)
    assert.notEqual(x.workspace_id, o.workspace, `${where} lists an object of the workspace`)
  }
}

before(async () => {
  receiver = http.createServer((_req, res) => res.writeHead(200).end('ok'))
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  hook.url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
  w = await startWard({ env: { WARD_SIGNIN_LIMIT: '100' } })
  const [olivia, bob, carol, dave, erin, fr, gina] = await Promise.all(
    ['olivia', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina', 'hank', 'ivan'].map((n) => w.user(n)),
  )
  frank = fr!.userId
  const people: Array<[Who, { key: string; userId: number }]> = [
    ['admin', { key: w.key, userId: w.userId }],
    ['owner', olivia!],
    ['member', bob!],
    ['viewer', carol!],
    ['outsider', dave!],
    ['removed', erin!],
  ]
  for (const [who, p] of people) P[who] = { ...p, web: await sessionOf(w, p.userId) }

  // The shared workspace is the owner's first one; the instance admin (alice) is not in it.
  const ws = olivia!.workspaceId
  o = { ...MISSING, workspace: ws, member: frank, user: gina!.userId }
  await w.h.db
    .updateTable('workspaces')
    .set({ name: `${MARK} shared` })
    .where('id', '=', ws)
    .execute()
  for (const [n, role] of [
    ['bob', 'member'],
    ['carol', 'viewer'],
    ['erin', 'member'],
    ['frank', 'member'],
  ] as const)
    assert.equal((await member(ws, n, role)).statusCode, 201)
  // Erin worked in it (her active workspace) before she was removed.
  for (const who of ['member', 'viewer', 'removed'] as const)
    assert.equal((await api(who, 'POST', `/api/v2/workspaces/${ws}/activate`)).statusCode, 204)
  assert.equal((await api('owner', 'DELETE', `/api/v2/workspaces/${ws}/members/${erin!.userId}`)).statusCode, 204)

  const tdir = fs.mkdtempSync(path.join(w.dir, 'templates-'))
  fs.copyFileSync('templates/debug/django-debug-mode.yaml', path.join(tdir, 'django-debug-mode.yaml'))
  await importTemplates(w.h.db, [tdir])
  o.template = (await api('owner', 'GET', '/api/v2/templates')).json().data[0].id
  o.target = (await fresh('target')).target
  Object.assign(o, await scanWithFinding())
  for (const k of ['schedule', 'integration', 'settings', 'invitation', 'vpn', 'key'] as const) o = await fresh(k)
})
after(async () => {
  await w?.close()
  receiver?.close()
})

test('the table covers every route the app serves (or says why it need not)', () => {
  const pattern = (url: string) => new RegExp(`^${url.replace(/:[A-Za-z_]+/g, '[^/]+').replace(/\*/g, '.*')}/?$`)
  const missing = w.routes.filter(
    (rt) =>
      !EXEMPT.some((e) => e.method === rt.method && e.url === rt.url) &&
      !ALL.some((c) => c.method === rt.method && pattern(rt.url).test(c.path(MISSING[c.kind], MISSING).split('?')[0]!)),
  )
  assert.deepEqual(
    missing.map((m) => `${m.method} ${m.url}`),
    [],
    'routes the tenancy table (test/api/routes-table.ts) does not cover: add them with who may use them, or to EXEMPT with why',
  )
  const stale = EXEMPT.filter((e) => !w.routes.some((rt) => rt.method === e.method && rt.url === e.url))
  assert.deepEqual(stale, [], 'EXEMPT names routes the app no longer serves')
  assert.ok(w.routes.length > 150, `the route list looks incomplete: ${w.routes.length}`)
})

test('non-members and removed members get the answer of an unknown id and see nothing; viewers are refused every change and change nothing; members read', async () => {
  let n = 0
  const problems: string[] = []
  const check = (f: () => void) => {
    try {
      f()
    } catch (e) {
      problems.push((e as Error).message.split('\n')[0]!.slice(0, 300))
    }
  }
  for (const r of ALL) {
    // One snapshot around all refused calls of a route: none of them may change a row.
    const before = changes(r) ? await snapshot() : ''
    let unknown: LightMyRequestResponse | null = null
    for (const who of whoFor(r)) {
      const want = expected(accessOf(r), who)
      // Successful changes come in the next test, on fresh objects.
      if (want === 'ok' && changes(r)) continue
      const where = label(r, who)
      const got = await call(r, who, o)
      n++
      if (want === 'missing' && r.kind !== 'none') unknown ??= await call(r, who, o, MISSING[r.kind])
      check(() => {
        if (want === 'ok') assert.ok(ok(got), `${where} → ${got.statusCode} ${got.body.slice(0, 300)}`)
        else if (want === 403) {
          assert.equal(got.statusCode, 403, `${where} → ${got.statusCode} ${got.body.slice(0, 300)}`)
          if (isApi(r)) assert.deepEqual([got.json().status, typeof got.json().message], [403, 'string'], where)
        } else if (unknown) {
          assert.equal(got.statusCode, r.unknown ?? 404, `${where} → ${got.statusCode} ${got.body.slice(0, 300)}`)
          assert.equal(got.statusCode, unknown.statusCode, `${where} → ${got.statusCode}, an unknown id → ${unknown.statusCode}`)
          if (isApi(r)) assert.deepEqual(got.json(), unknown.json(), where)
        }
        if (who === 'outsider' || who === 'removed') assertNoLeak(got, where)
      })
    }
    if (changes(r) && (await snapshot()) !== before) problems.push(`${r.method} ${r.path(o[r.kind], o)}: a refused call changed something`)
  }
  assert.deepEqual(problems, [])
  assert.ok(n > 500, `only ${n} calls`)
})

test('owners, members and admins make each change their role allows', async () => {
  const problems: string[] = []
  for (const r of ALL.filter(changes)) {
    for (const who of whoFor(r).filter((x) => expected(accessOf(r), x) === 'ok')) {
      const f = r.fresh ? await fresh(r.fresh) : o
      const got = await call(r, who, f)
      if (!ok(got)) problems.push(`${label(r, who, f)} → ${got.statusCode} ${got.body.slice(0, 300)}`)
    }
  }
  assert.deepEqual(problems, [])
})
