// Integrations end to end against loopback receivers of the real shapes (test/testbed/
// integration-receivers.ts), on 127.0.96.x: the resource and its secrets, one Slack message per scan,
// none for an unchanged rescan with only_changes, a Teams card, an e-mail digest over SMTP, Jira
// issues never duplicated across rescans, a restart and two workers, a regression reopening, a
// refusing receiver stopping retries, and a blocked receiver address refused.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import { jiraServer, smtpServer, webhookReceiver } from '../testbed/integration-receivers.js'

const FAST = { WARD_CALLBACK_BACKOFF_BASE_MS: '20', WARD_PUBLIC_URL: 'https://ward.example.test/' }

async function scan(w: TestWard, params: Record<string, unknown> = { steps: 5, step_ms: 1 }) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: params } })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id as number
  await waitForScan(w, id, isTerminal, 20000)
  return id
}

async function create(w: TestWard, body: Record<string, unknown>) {
  const r = await w.req('POST', '/api/v2/integrations', { body: { name: 'n', ...body } })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id as number
}

async function deliveries(w: TestWard, id: number) {
  const r = await w.req('GET', `/api/v2/integrations/${id}/deliveries`)
  assert.equal(r.statusCode, 200, r.body)
  return r.json().data as any[]
}

/** Waits until no delivery of the integration is pending (and at least `n` exist). */
async function settled(w: TestWard, id: number, n: number, ms = 20000) {
  const until = Date.now() + ms
  let last: any[] = []
  while (Date.now() < until) {
    last = await deliveries(w, id)
    if (last.length >= n && last.every((d) => d.status !== 'pending')) return last
    await new Promise((r) => setTimeout(r, 40))
  }
  throw new Error(`deliveries did not settle: ${JSON.stringify(last)}`)
}

describe('integrations resource', () => {
  test('secrets are sealed, never returned; bad config and blocked addresses are 400s that change nothing; another user gets 404', async () => {
    const w = await startWard({ worker: false })
    try {
      const secretUrl = 'https://hooks.slack.example/services/T1/B1/very-secret-key'
      const id = await create(w, { type: 'slack', config: { url: secretUrl }, min_risk: 2 })
      const raw = await w.h.db.selectFrom('integrations').select('config').where('id', '=', id).executeTakeFirstOrThrow()
      assert.ok(!raw.config.includes('very-secret-key'), 'stored sealed')
      for (const path of [`/api/v2/integrations/${id}`, '/api/v2/integrations']) {
        const r = await w.req('GET', path)
        assert.equal(r.statusCode, 200)
        assert.ok(!r.body.includes('very-secret-key'), r.body)
        assert.ok(r.body.includes('(secret: stored encrypted)'), r.body)
      }
      // PATCH sending the placeholder back keeps the secret; the event list changes.
      const p = await w.req('PATCH', `/api/v2/integrations/${id}`, {
        body: { config: { url: '(secret: stored encrypted)' }, events: ['finding.new'] },
      })
      assert.equal(p.statusCode, 200, p.body)
      assert.deepEqual(p.json().data.events, ['finding.new'])
      const jira = await create(w, {
        type: 'jira',
        config: { base_url: 'https://jira.example', project_key: 'SEC', auth: { email: 'a@b.c', api_token: 'tok-SECRET-1' } },
      })
      const j = await w.req('GET', `/api/v2/integrations/${jira}`)
      assert.equal(j.json().data.config.auth.api_token, '(secret: stored encrypted)')
      assert.equal(j.json().data.config.auth.email, 'a@b.c')

      const before = await w.h.db
        .selectFrom('integrations')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      for (const [body, word] of [
        [{ type: 'slack', config: { url: 'http://169.254.169.254/latest/meta-data' } }, 'blocked'],
        [{ type: 'webhook', config: { url: 'http://[::ffff:169.254.169.254]/x' } }, 'blocked'],
        [{ type: 'email', config: { smtp_url: 'smtp://u:p@169.254.169.254:25', from: 'a@b.c', to: ['x@y.z'] } }, 'blocked'],
        [{ type: 'slack', config: { url: 'ftp://x.example/' } }, 'http'],
        [{ type: 'jira', config: { base_url: 'https://j.example', project_key: 'S' } }, 'auth'],
        [{ type: 'slack', config: { url: 'https://x.example' }, events: ['finding.nope'] }, 'finding.nope'],
        [{ type: 'nope', config: {} }, 'type'],
      ] as const) {
        const r = await w.req('POST', '/api/v2/integrations', { body: { name: 'x', ...body } })
        assert.equal(r.statusCode, 400, r.body)
        assert.match(r.json().message, new RegExp(word.replace('.', '\\.')))
      }
      const after = await w.h.db
        .selectFrom('integrations')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      assert.equal(Number(after.n), Number(before.n))

      const bob = await w.user('bob')
      for (const [m, path] of [
        ['GET', `/api/v2/integrations/${id}`],
        ['DELETE', `/api/v2/integrations/${id}`],
        ['GET', `/api/v2/integrations/${id}/deliveries`],
        ['POST', `/api/v2/integrations/${id}/test`],
      ] as const) {
        const r = await w.req(m, path, { key: bob.key })
        assert.equal(r.statusCode, 404, `${m} ${path}: ${r.body}`)
        assert.match(r.json().message, /does not exist/)
      }
      assert.equal((await w.req('GET', '/api/v2/integrations', { key: bob.key })).json().data.length, 0)
      const other = await w.req('POST', '/api/v2/integrations', {
        key: bob.key,
        body: { name: 'x', workspace_id: w.workspaceId, type: 'slack', config: { url: 'https://x.example' } },
      })
      assert.equal(other.statusCode, 404)
      assert.equal((await w.req('DELETE', `/api/v2/integrations/${id}`)).statusCode, 204)
      assert.equal((await w.req('GET', `/api/v2/integrations/${id}`)).statusCode, 404)
    } finally {
      await w.close()
    }
  })
})

describe('messages', () => {
  test('Slack: one message per scan with links and escaped text; nothing for an unchanged rescan with only_changes; Teams gets an Adaptive Card', async () => {
    const slack = await webhookReceiver('127.0.96.1', 'slack')
    const teams = await webhookReceiver('127.0.96.1', 'teams')
    const w = await startWard({ env: FAST })
    try {
      const sid = await create(w, { type: 'slack', config: { url: slack.url }, only_changes: true })
      const tid = await create(w, { type: 'teams', config: { url: teams.url } })
      const first = await scan(w)
      await settled(w, sid, 1)
      await settled(w, tid, 1)
      assert.equal(slack.hits.length, 1, 'one Slack message for the scan, never one per finding')
      const msg = JSON.parse(slack.hits[0]!.body)
      const text = JSON.stringify(msg.blocks)
      assert.match(text, /New findings \(3\)/)
      assert.match(text, new RegExp(`https://ward.example.test/scans/${first}`))
      assert.match(text, /<https:\/\/ward\.example\.test\/findings\/\d+\|/)
      const card = JSON.parse(teams.hits[0]!.body)
      assert.equal(card.attachments[0].content.type, 'AdaptiveCard')
      assert.match(JSON.stringify(card), /New findings \(3\)/)

      await scan(w)
      const d = await settled(w, sid, 2)
      assert.equal(slack.hits.length, 1, 'unchanged rescan with only_changes sends nothing')
      assert.equal(d[0].status, 'skipped')
      assert.match(d[0].message, /only_changes/)
      await settled(w, tid, 2)
      assert.equal(teams.hits.length, 2, 'without only_changes the rescan is reported')

      // A scan in which a finding is fixed is a change: one message naming it.
      await scan(w, { steps: 5, step_ms: 1, quiet_steps: [3] })
      await settled(w, sid, 3)
      assert.equal(slack.hits.length, 2)
      assert.match(slack.hits[1]!.body, /Fixed \(1\)/)
      assert.ok(!JSON.stringify(await deliveries(w, sid)).includes('XXXXSECRETXXXX'), 'the webhook URL is a secret')
    } finally {
      await w.close()
      await slack.close()
      await teams.close()
    }
  })

  test('a receiver answering 401/403/404 is not retried and says so; "Send a test" answers with its status', async () => {
    const slack = await webhookReceiver('127.0.96.2', 'slack')
    const w = await startWard({ env: FAST })
    try {
      const id = await create(w, { type: 'slack', config: { url: slack.url } })
      const ok = await w.req('POST', `/api/v2/integrations/${id}/test`)
      assert.equal(ok.statusCode, 200, ok.body)
      assert.deepEqual([ok.json().data.status, ok.json().data.status_code], ['delivered', 200])
      slack.state.status = 403
      const refused = await w.req('POST', `/api/v2/integrations/${id}/test`)
      assert.equal(refused.json().data.status, 'refused')
      assert.equal(refused.json().data.status_code, 403)
      assert.match(refused.json().data.message, /not retried/)
      await new Promise((r) => setTimeout(r, 300))
      assert.equal(slack.hits.length, 2, 'no retry after 403')
      const log = await deliveries(w, id)
      assert.equal(log[0].attempt_list.length, 1)
      assert.equal(log[0].attempt_list[0].answer, 'invalid_token')
      assert.equal(log[0].next_try, null)
    } finally {
      await w.close()
      await slack.close()
    }
  })

  test('e-mail: one digest per scan over SMTP with AUTH, a plain-text and an HTML part', async () => {
    const smtp = await smtpServer('127.0.96.3', 'ward', 'mail-PASS-secret')
    const w = await startWard({ env: FAST })
    try {
      const id = await create(w, {
        type: 'email',
        config: { smtp_url: `smtp://ward:mail-PASS-secret@127.0.96.3:${smtp.port}`, from: 'ward@example.test', to: ['sec@example.test'] },
      })
      await scan(w)
      const d = await settled(w, id, 1)
      assert.equal(d[0].status, 'delivered', JSON.stringify(d))
      assert.equal(smtp.mails.length, 1)
      const m = smtp.mails[0]!
      assert.deepEqual(m.to, ['sec@example.test'])
      assert.equal(m.user, 'ward')
      assert.match(m.raw, /Content-Type: text\/plain/i)
      assert.match(m.raw, /Content-Type: text\/html/i)
      assert.match(m.raw, /New findings \(3\)/)
      assert.ok(!JSON.stringify(d).includes('mail-PASS-secret'))
    } finally {
      await w.close()
      await smtp.close()
    }
  })
})

describe('tickets', () => {
  test('Jira: one issue per finding group across 3 rescans, a restart and 2 workers; a fix comments and resolves, a regression reopens; no secret in answers or logs', async () => {
    const jira = await jiraServer('127.0.96.4', {
      project: 'SEC',
      email: 'bot@example.test',
      token: 'jira-TOKEN-secret',
      delayCreateMs: 30,
    })
    const w = await startWard({ env: FAST })
    const lines: string[] = []
    const sink = new Writable({
      write(c, _e, cb) {
        lines.push(String(c))
        cb()
      },
    })
    const second = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config: w.config, log: pino({ level: 'debug' }, sink) })
    try {
      const id = await create(w, {
        type: 'jira',
        config: {
          base_url: jira.base,
          project_key: 'SEC',
          auth: { email: 'bot@example.test', api_token: 'jira-TOKEN-secret' },
          resolve_transition: 'Done',
          reopen_transition: 'Reopen',
          priorities: { '1': 'Low' },
        },
      })
      const t = await w.req('POST', `/api/v2/integrations/${id}/test`)
      assert.equal(t.json().data.status, 'delivered', t.body)
      for (let i = 0; i < 3; i++) await scan(w)
      await settled(w, id, 4)
      assert.equal(jira.issues.length, 3, `one issue per group: ${jira.issues.map((i) => i.key)}`)
      for (const i of jira.issues) {
        assert.ok(i.fields.labels.some((l) => /^ward-[0-9a-f]{12}$/.test(l)))
        assert.match(i.fields.description, /https:\/\/ward\.example\.test\/findings\/\d+/)
        assert.equal(i.fields.priority?.name, 'Low')
      }
      // A restart: the ticket memory is lost (as if another Ward shared the Jira), the label finds them again.
      await w.h.db.deleteFrom('integration_tickets').execute()
      await w.worker?.stop()
      await scan(w)
      await settled(w, id, 5)
      assert.equal(jira.issues.length, 3, 'found again by label, not created again')

      await scan(w, { steps: 5, step_ms: 1, quiet_steps: [3] })
      await settled(w, id, 6)
      const fixed = jira.issues.find((i) => i.comments.some((c) => /^Fixed/.test(c)))
      assert.ok(fixed, 'the fixed group is commented')
      assert.equal(fixed.fields.status.statusCategory.key, 'done', 'and resolved through resolve_transition')
      await scan(w)
      await settled(w, id, 7)
      assert.equal(jira.issues.length, 3)
      assert.equal(fixed.fields.status.statusCategory.key, 'new', 'the regression reopens it')
      assert.ok(fixed.comments.some((c) => /Found again/.test(c)))
      assert.equal(fixed.comments.filter((c) => /^Fixed/.test(c)).length, 1, 'each change said once')

      const all = JSON.stringify(await deliveries(w, id)) + JSON.stringify((await w.req('GET', `/api/v2/integrations/${id}`)).json())
      assert.ok(!all.includes('jira-TOKEN-secret'))
      assert.ok(!lines.join('').includes('jira-TOKEN-secret'), 'never logged')
    } finally {
      await second.stop()
      await w.close()
      await jira.close()
    }
  })
})

describe('events and escaping', () => {
  test('scan.failed and schedule.missed reach a signed webhook in the callback format', async () => {
    const { verifySignature } = await import('../../src/reports/callback-signing.js')
    const hook = await webhookReceiver('127.0.96.9', 'plain')
    const w = await startWard({ env: FAST })
    try {
      const id = await create(w, {
        type: 'webhook',
        config: { url: hook.url, secret: 'hook-SECRET' },
        events: ['scan.failed', 'schedule.missed'],
      })
      await scan(w, { fail: 'unreachable' })
      const target = (await w.req('GET', '/api/v2/targets')).json().data[0].id
      const s = await w.req('POST', '/api/v2/schedules', {
        body: { tool_id: 9001, target_id: target, interval_minutes: 1440, paused: true, tool_params: { steps: 200, step_ms: 50 } },
      })
      const sid = s.json().data.created_id
      const first = await w.req('POST', `/api/v2/schedules/${sid}/run`)
      assert.equal(first.statusCode, 201, first.body)
      const second = await w.req('POST', `/api/v2/schedules/${sid}/run`)
      assert.equal(second.json().data.skipped, true, second.body)
      const log = await settled(w, id, 2)
      assert.deepEqual(log.map((d) => d.event).sort(), ['scan', 'schedule.missed'])
      assert.equal(hook.hits.length, 2)
      for (const h of hook.hits) {
        assert.ok(verifySignature('hook-SECRET', Buffer.from(h.body), String(h.headers['x-ward-signature']), { toleranceSeconds: 300 }))
        assert.ok(h.headers['x-ward-event-id'])
      }
      const failed = JSON.parse(hook.hits.find((h) => h.headers['x-ward-scan-id'])!.body)
      assert.deepEqual(failed.data.events, ['scan.failed'])
      assert.equal(failed.data.scan.status, 'connection error')
      assert.match(hook.hits.find((h) => !h.headers['x-ward-scan-id'])!.body, /missed its slot/)
      await w.req('POST', `/api/v2/scans/${first.json().data.created_ids[0]}/stop`)
    } finally {
      await w.close()
      await hook.close()
    }
  })

  test('scanner text is escaped for Slack mrkdwn, Adaptive Cards and HTML mail', async () => {
    const { slackMessage, teamsMessage, emailMessage } = await import('../../src/reports/integrations/messages.js')
    const evil = '<https://evil.example|click> & <!channel> {{DATE(2020-01-01T00:00:00Z)}} <script>x</script>'
    const item = {
      id: 1,
      dedup_key: 'k',
      label: 'ward-000000000000',
      vuln_id: 'v',
      name: evil,
      risk_level: 3,
      location: evil,
      description: '',
      recommendation: '',
      link: 'https://ward.example.test/findings/1',
    }
    const ev = {
      kind: 'scan' as const,
      events: ['finding.new'],
      scan: {
        id: 1,
        target: evil,
        tool: 'T',
        status: 'finished',
        status_message: evil,
        end_time: null,
        link: null,
        counts: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
        summary: '1 high',
      },
      against_scan_id: null,
      new: [item],
      regression: [],
      fixed: [],
    }
    // plain_text (the header) is never parsed by Slack; every mrkdwn text must be escaped.
    const blocks = slackMessage(ev).blocks as Array<{ text: { type: string; text: string } }>
    const slack = blocks
      .filter((b) => b.text.type === 'mrkdwn')
      .map((b) => b.text.text)
      .join('\n')
    assert.ok(!slack.includes('<https://evil.example') && !slack.includes('<!channel>'), slack)
    assert.match(slack, /&lt;!channel&gt;/)
    const card = JSON.stringify(teamsMessage(ev))
    assert.ok(!card.includes('{{DATE('), 'template functions are broken')
    assert.ok(!/"type":"TextBlock"/.test(card), 'scanner text only in TextRuns')
    const mail = emailMessage(ev)
    assert.ok(!mail.html.includes('<script>'))
    assert.match(mail.html, /&lt;script&gt;/)
    assert.ok(!/[\r\n]/.test(mail.subject))
  })
})

test('slots missed while no worker ran are one schedule.missed event, enqueued with the firing', async () => {
  const { claimDueSchedule } = await import('../../src/store/schedules.js')
  const w = await startWard({ worker: false })
  try {
    const id = await create(w, { type: 'webhook', config: { url: 'http://127.0.96.10:9/none' }, events: ['schedule.missed'] })
    const t = await w.req('POST', '/api/v2/targets', { body: { name: '127.0.0.1' } })
    const s = await w.req('POST', '/api/v2/schedules', {
      body: { tool_id: 9001, target_id: t.json().data.created_id, interval_minutes: 60, tool_params: { steps: 1, step_ms: 1 } },
    })
    assert.equal(s.statusCode, 201, s.body)
    const row = await w.h.db.selectFrom('schedules').select('next_run_at').executeTakeFirstOrThrow()
    const fired = await claimDueSchedule(w.h.db, w.h.kind, 'w1', new Date(Date.parse(row.next_run_at) + 3.5 * 3600_000))
    assert.equal(fired?.outcome, 'queued')
    const log = await deliveries(w, id)
    assert.equal(log.length, 1)
    assert.equal(log[0].event, 'schedule.missed')
    const ref = await w.h.db.selectFrom('integration_deliveries').select('ref').executeTakeFirstOrThrow()
    assert.match(ref.ref!, /no worker ran from/)
  } finally {
    await w.close()
  }
})
