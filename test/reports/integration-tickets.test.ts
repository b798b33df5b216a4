// GitHub and GitLab issues and DefectDojo's reimport against loopback beds of their API shapes
// (test/testbed/integration-receivers.ts) on 127.0.96.6-8: one issue per group across rescans, a
// fix comments, a regression reopens an issue a person closed, a false-positive triage comments;
// DefectDojo gets one SARIF reimport per finished scan.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { defectDojoServer, gitIssuesServer } from '../testbed/integration-receivers.js'

async function scan(w: TestWard, params: Record<string, unknown> = { steps: 5, step_ms: 1 }) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: params } })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id as number
  await waitForScan(w, id, isTerminal, 20000)
  return id
}

async function settled(w: TestWard, ids: number[], n: number, ms = 20000) {
  const until = Date.now() + ms
  let last: any[] = []
  while (Date.now() < until) {
    last = []
    for (const id of ids) last.push(...(await w.req('GET', `/api/v2/integrations/${id}/deliveries`)).json().data)
    if (last.length >= n * ids.length && last.every((d) => d.status !== 'pending')) return last
    await new Promise((r) => setTimeout(r, 40))
  }
  throw new Error(`deliveries did not settle: ${JSON.stringify(last)}`)
}

test('GitHub and GitLab: one issue per group with its label; fix comments, regression reopens, false positive comments', async () => {
  const gh = await gitIssuesServer('127.0.96.6', 'github', { project: 'acme/shop', token: 'gh-TOKEN-secret' })
  const gl = await gitIssuesServer('127.0.96.6', 'gitlab', { project: 'acme/shop', token: 'gl-TOKEN-secret' })
  const w = await startWard({ env: { WARD_CALLBACK_BACKOFF_BASE_MS: '20', WARD_PUBLIC_URL: 'https://ward.example.test' } })
  try {
    const ids: number[] = []
    for (const body of [
      { type: 'github', config: { repo: 'acme/shop', token: 'gh-TOKEN-secret', api_url: gh.base } },
      { type: 'gitlab', config: { base_url: gl.base, project: 'acme/shop', token: 'gl-TOKEN-secret' } },
    ]) {
      const r = await w.req('POST', '/api/v2/integrations', { body: { name: body.type, ...body } })
      assert.equal(r.statusCode, 201, r.body)
      ids.push(r.json().data.created_id)
    }
    await scan(w)
    await scan(w)
    await settled(w, ids, 2)
    for (const s of [gh, gl]) {
      assert.equal(s.issues.length, 3)
      assert.ok(s.issues.every((i) => i.labels.includes('ward') && i.labels.some((l) => /^ward-[0-9a-f]{12}$/.test(l))))
    }
    await scan(w, { steps: 5, step_ms: 1, quiet_steps: [3] })
    await settled(w, ids, 3)
    for (const s of [gh, gl]) {
      const fixed = s.issues.filter((i) => i.comments.some((c) => /^Fixed/.test(c)))
      assert.equal(fixed.length, 1)
      fixed[0]!.state = 'closed' // a person closes it
    }
    await scan(w)
    await settled(w, ids, 4)
    for (const s of [gh, gl]) {
      assert.equal(s.issues.length, 3, 'never a second issue')
      const back = s.issues.find((i) => i.comments.some((c) => /Found again/.test(c)))!
      assert.equal(back.state, 'open', 'the regression reopens it')
    }
    const f = (await w.req('GET', '/api/v2/findings?limit=1')).json().data[0]
    assert.equal(
      (await w.req('PATCH', `/api/v2/findings/${f.id}`, { body: { status: 'false_positive', reason: 'lab host' } })).statusCode,
      200,
    )
    await settled(w, ids, 5)
    for (const s of [gh, gl]) assert.equal(s.issues.filter((i) => i.comments.some((c) => /false positive: lab host/.test(c))).length, 1)
    const answers = JSON.stringify((await w.req('GET', '/api/v2/integrations')).json()) + JSON.stringify(await settled(w, ids, 5))
    assert.ok(!/TOKEN-secret/.test(answers))
  } finally {
    await w.close()
    await gh.close()
    await gl.close()
  }
})

test('DefectDojo: each finished scan is reimported as SARIF into the engagement; a wrong key is refused', async () => {
  const dd = await defectDojoServer('127.0.96.7', 'dd-KEY-secret')
  const w = await startWard({ env: { WARD_CALLBACK_BACKOFF_BASE_MS: '20' } })
  try {
    const r = await w.req('POST', '/api/v2/integrations', {
      body: { name: 'dojo', type: 'defectdojo', config: { base_url: dd.base, api_key: 'dd-KEY-secret', engagement_id: 7 } },
    })
    const id = r.json().data.created_id
    await scan(w)
    await scan(w, { steps: 5, step_ms: 1, quiet_steps: [3] })
    await settled(w, [id], 2)
    assert.equal(dd.imports.length, 2)
    assert.deepEqual(
      dd.imports.map((i) => i.results),
      [3, 2],
    )
    assert.equal(dd.imports[0]!.fields.engagement, '7')
    assert.equal(dd.imports[0]!.fields.close_old_findings, 'true')
    const bad = await w.req('POST', '/api/v2/integrations', {
      body: {
        name: 'dojo2',
        type: 'defectdojo',
        config: { base_url: dd.base, api_key: 'wrong', product_name: 'Shop', engagement_name: 'Ward', auto_create: true },
      },
    })
    const t = await w.req('POST', `/api/v2/integrations/${bad.json().data.created_id}/test`)
    assert.equal(t.json().data.status, 'refused', t.body)
    assert.equal(t.json().data.status_code, 401)
  } finally {
    await w.close()
    await dd.close()
  }
})
