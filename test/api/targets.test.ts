import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, tableCounts, waitForScan, type TestWard } from '../helpers/ward.js'

describe('targets API', () => {
  let w: TestWard
  before(async () => {
    w = await startWard({ env: { WARD_TARGET_BLOCKLIST: '10.0.0.0/8,fd00::/8,blocked.example,.corp.internal' } })
  })
  after(() => w.close())

  const create = (form: Record<string, string>, key?: string) => w.req('POST', '/api/v2/targets', { form, key })

  test('creates hostname, IP and URL targets from form bodies exactly as the spec shows', async () => {
    for (const [name, type] of [
      ['www.example.com', 'hostname'],
      ['192.0.2.10', 'ip_address'],
      ['https://example.org/login', 'url'],
    ]) {
      const r = await create({ name, description: `d ${name}` })
      assert.equal(r.statusCode, 201, r.body)
      assert.equal(r.headers['content-type'], 'application/json')
      const id = r.json().data.created_id
      assert.ok(Number.isInteger(id))
      const g = await w.req('GET', `/api/v2/targets/${id}`)
      assert.deepEqual(g.json(), { data: { id, name, type, description: `d ${name}`, workspace_id: w.workspaceId } })
    }
  })

  test('accepts JSON bodies with the same fields', async () => {
    const r = await w.req('POST', '/api/v2/targets', {
      body: { name: 'json.example.com', description: 'via json', workspace_id: w.workspaceId },
    })
    assert.equal(r.statusCode, 201, r.body)
  })

  test('infers the type of many kinds of names', async () => {
    const cases: Array<[string, string | 400]> = [
      ['198.51.100.7', 'ip_address'],
      ['2001:db8::1', 'ip_address'],
      ['[2001:db8::2]', 'ip_address'],
      ['http://[2001:db8::3]:8080/admin', 'url'],
      ['http://198.51.100.8:8443/x?y=1', 'url'],
      ['HTTPS://Example.net', 'url'],
      ['xn--bcher-kva.example', 'hostname'],
      ['straße.example', 'hostname'],
      ['localhost', 'hostname'],
      ['a-b.c-d.example', 'hostname'],
      ['  padded.example  ', 'hostname'],
      ['nodot', 400],
      ['-bad.example', 400],
      ['bad-.example', 400],
      ['999.1.1.1', 400],
      ['ftp://example.com', 400],
      ['http://user:pw@example.com/', 400],
      ['exa mple.com', 400],
      ['http://', 400],
      ['a'.repeat(64) + '.example', 400],
      ['', 400],
    ]
    for (const [name, expected] of cases) {
      const r = await create({ name })
      if (expected === 400) {
        assert.equal(r.statusCode, 400, `${name}: ${r.body}`)
        assert.equal(r.json().status, 400)
        assert.ok(r.json().message.length > 5)
      } else {
        assert.equal(r.statusCode, 201, `${name}: ${r.body}`)
        const t = (await w.req('GET', `/api/v2/targets/${r.json().data.created_id}`)).json().data
        assert.equal(t.type, expected, name)
        assert.equal(t.name, name.trim().replace(/^\[(.*)\]$/, '$1'), 'names are stored trimmed')
      }
    }
  })

  test('duplicates → 409, case-insensitive for hostnames', async () => {
    assert.equal((await create({ name: 'Dup.Example.com' })).statusCode, 201)
    const r = await create({ name: 'dup.example.COM' })
    assert.equal(r.statusCode, 409)
    assert.match(r.json().message, /already exists/)
    assert.equal((await create({ name: '2001:db8:0:0::1' })).statusCode, 409, 'IPv6 in another spelling is the same target')
    assert.equal((await create({ name: 'bücher.example' })).statusCode, 409, 'a Unicode name equals its punycode form')
  })

  test('blacklisted targets → 403 naming the rule', async () => {
    for (const name of ['10.1.2.3', 'http://10.9.9.9/', 'fd00::5', 'blocked.example', 'x.blocked.example', 'db.corp.internal']) {
      const r = await create({ name })
      assert.equal(r.statusCode, 403, name)
      assert.match(r.json().message, /blacklisted/)
    }
    assert.equal((await create({ name: 'notblocked.example' })).statusCode, 201)
  })

  test('too many targets → 403; licence expired → 403', async () => {
    const small = await w.user('small', { maxTargets: 1 })
    assert.equal((await create({ name: 'one.example' }, small.key)).statusCode, 201)
    const r = await create({ name: 'two.example' }, small.key)
    assert.equal(r.statusCode, 403)
    assert.match(r.json().message, /Too many targets/)
    const expired = await w.user('expired', { licenseExpires: '2020-01-01' })
    const e = await create({ name: 'lic.example' }, expired.key)
    assert.equal(e.statusCode, 403)
    assert.match(e.json().message, /licence/i)
  })

  test('unknown or foreign workspace → 404', async () => {
    const other = await w.user('other-ws')
    for (const ws of [String(other.workspaceId), '999999']) {
      const r = await create({ name: 'ws.example', workspace_id: ws })
      assert.equal(r.statusCode, 404)
      assert.match(r.json().message, /does not exist/)
    }
  })

  test('lists with filters, pagination bounds and newest first', async () => {
    const all = (await w.req('GET', '/api/v2/targets')).json().data
    const ids = all.map((t: any) => t.id)
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => b - a),
    )
    const ips = (await w.req('GET', '/api/v2/targets?type=ip_address')).json().data
    assert.ok(ips.length > 0 && ips.every((t: any) => t.type === 'ip_address'))
    const page2 = (await w.req('GET', '/api/v2/targets?limit=2&page=2')).json().data
    assert.deepEqual(
      page2.map((t: any) => t.id),
      ids.slice(2, 4),
    )
    const ws = (await w.req('GET', `/api/v2/targets?workspace_id=${w.workspaceId}`)).json().data
    assert.equal(ws.length, all.length)
    for (const q of ['limit=0', 'limit=1001', 'page=0', 'page=-1', 'type=dns', 'workspace_id=abc', 'limit=1.5']) {
      const r = await w.req('GET', `/api/v2/targets?${q}`)
      assert.equal(r.statusCode, 400, q)
      assert.equal(r.json().status, 400)
    }
  })

  test('workspaces: create, list, activate; targets default to the active workspace', async () => {
    const c = await w.req('POST', '/api/v2/workspaces', { form: { name: 'Second' } })
    assert.equal(c.statusCode, 201)
    const wsId = c.json().data.created_id
    assert.equal((await w.req('POST', '/api/v2/workspaces', { body: { name: 'Second' } })).statusCode, 409)
    assert.equal((await w.req('POST', `/api/v2/workspaces/${wsId}/activate`)).statusCode, 204)
    const list = (await w.req('GET', '/api/v2/workspaces')).json().data
    assert.equal(list.find((x: any) => x.id === wsId).active, true)
    const t = await create({ name: 'in-second.example' })
    assert.equal((await w.req('GET', `/api/v2/targets/${t.json().data.created_id}`)).json().data.workspace_id, wsId)
    assert.equal((await w.req('POST', `/api/v2/workspaces/${w.workspaceId}/activate`)).statusCode, 204)
    assert.equal((await w.req('POST', '/api/v2/workspaces/999999/activate')).statusCode, 404)
  })

  test('delete removes the target with its scans, tests and findings; 409 while a scan runs', async () => {
    const t = (await create({ name: 'del.example' })).json().data.created_id
    const s1 = (
      await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: t, tool_params: { steps: 2, step_ms: 1 } } })
    ).json().data.created_id
    await waitForScan(w, s1, (s) => s.status_name === 'finished')
    const s2 = (
      await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: t, tool_params: { steps: 1000, step_ms: 50 } } })
    ).json().data.created_id
    await waitForScan(w, s2, (s) => s.status_name === 'running')
    const before = await tableCounts(w)
    const r = await w.req('DELETE', `/api/v2/targets/${t}`)
    assert.equal(r.statusCode, 409)
    assert.match(r.json().message, /running/)
    const afterRefusal = await tableCounts(w)
    assert.equal(afterRefusal.targets, before.targets)
    assert.equal(afterRefusal.scans, before.scans)
    assert.equal((await w.req('POST', `/api/v2/scans/${s2}/stop`)).statusCode, 204)
    await waitForScan(w, s2, (s) => s.status_name === 'stopped')
    const d = await w.req('DELETE', `/api/v2/targets/${t}`)
    assert.equal(d.statusCode, 204)
    assert.equal(d.body, '')
    assert.equal((await w.req('GET', `/api/v2/targets/${t}`)).statusCode, 404)
    for (const table of ['scans', 'findings'] as const) {
      const n = await w.h.db.selectFrom(table).select('id').where('target_id', '=', t).execute()
      assert.equal(n.length, 0, table)
    }
    const orphanTests = await w.h.db.selectFrom('tests').select('id').where('scan_id', 'in', [s1, s2]).execute()
    assert.equal(orphanTests.length, 0)
    assert.equal((await w.req('DELETE', `/api/v2/targets/${t}`)).statusCode, 404)
  })
})
