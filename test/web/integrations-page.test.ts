// The integrations page: create through the form (CSRF required), hostile names escaped, secrets
// never shown, and "Send a test" reaching a loopback Slack receiver on 127.0.96.5.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startWard } from '../helpers/ward.js'
import { setPassword, signIn } from '../helpers/web.js'
import { webhookReceiver } from '../testbed/integration-receivers.js'

test('the integrations page lists, creates, escapes, hides secrets and sends a test', async () => {
  const slack = await webhookReceiver('127.0.96.5', 'slack')
  const w = await startWard({ env: { WARD_CALLBACK_BACKOFF_BASE_MS: '20' } })
  try {
    await setPassword(w, w.userId)
    const alice = await signIn(w)
    const form = {
      name: '<script>alert(1)</script>',
      type: 'slack',
      config: JSON.stringify({ url: slack.url }),
      events: 'finding.new',
      min_risk: '1',
    }
    const noToken = await w.app.inject({
      method: 'POST',
      url: '/integrations',
      headers: { cookie: alice.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    })
    assert.equal(noToken.statusCode, 403)
    const made = await alice.post('/integrations', form)
    assert.equal(made.statusCode, 200, made.body.slice(0, 500))
    assert.match(made.body, /Integration created/)
    const page = await alice.get('/integrations')
    assert.ok(!page.body.includes('<script>alert(1)</script>'), 'the name is escaped')
    assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/)
    assert.ok(!page.body.includes('XXXXSECRETXXXX'), 'the webhook URL is a secret')
    assert.match(page.body, /Send a test/)
    const id = /data-integration-id="(\d+)"/.exec(page.body)![1]
    const sent = await alice.post(`/integrations/${id}/test`)
    assert.equal(sent.statusCode, 200, sent.body.slice(0, 500))
    assert.match(sent.body, /Test delivered \(the receiver answered 200\)/)
    assert.equal(slack.hits.length, 1)
    const blocked = await alice.post('/integrations', { ...form, config: JSON.stringify({ url: 'http://169.254.169.254/' }) })
    assert.equal(blocked.statusCode, 400)
    assert.match(blocked.body, /blocked/)
  } finally {
    await w.close()
    await slack.close()
  }
})
