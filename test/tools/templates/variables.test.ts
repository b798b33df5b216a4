// Variables a template leaves to the user (nuclei's -var): given in tool_params.templates.variables,
// stored sealed, and masked wherever a result would show them.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { startWard, waitForScan, isTerminal, type TestWard } from '../../helpers/ward.js'
import { runAdmin } from '../../../src/cli/admin.js'
import { startTemplateSite, type TemplateSite } from '../../testbed/template-site.js'
import { scanAnswersText } from '../../helpers/scan-text.js'

const PASSWORD = 'hunter2'
const TEMPLATE = `id: acme-authenticated
info: {name: Acme authenticated check, author: ward, severity: high, tags: exposure}
http:
  - raw:
      - |
        POST /auth HTTP/1.1
        Host: {{Hostname}}
        Content-Type: application/x-www-form-urlencoded

        user={{username}}&pass={{password}}
      - |
        GET /echo?q={{password}} HTTP/1.1
        Host: {{Hostname}}
    req-condition: true
    matchers-condition: and
    matchers:
      - type: dsl
        dsl: ["contains(body_1, 'auth ok')"]
      - type: word
        words: ["you sent {{password}}"]
`

let w: TestWard
let site: TemplateSite
before(async () => {
  site = await startTemplateSite('127.0.61.4')
  w = await startWard()
  const dir = fs.mkdtempSync(path.join(w.dir, 'templates-'))
  fs.writeFileSync(path.join(dir, 'acme-authenticated.yaml'), TEMPLATE)
  await runAdmin(['templates', 'import', dir], w.h, w.config, () => {})
})
after(async () => {
  await w.close()
  await site.close()
})

async function scan(templates: unknown) {
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 170, target_name: `${site.url}/`, tool_params: { scan_type: 'light', templates } },
  })
  assert.equal(r.statusCode, 201, r.body)
  const s = await waitForScan(w, r.json().data.created_id, isTerminal, 60_000)
  assert.equal(s.status_name, 'finished', s.status_message)
  return s.id as number
}

test('given variables run the authenticated template; the password is sealed and masked everywhere', async () => {
  const id = await scan({ ids: ['acme-authenticated'], variables: { username: 'admin', password: PASSWORD } })
  const findings = (await w.req('GET', `/api/v2/findings?task_id=${id}`)).json().data as any[]
  const f = findings.find((x) => x.vuln_id === 'template.acme-authenticated')
  assert.ok(f, JSON.stringify(findings.map((x) => x.vuln_id)))
  assert.match(JSON.stringify(f.vuln_evidence), /POST \/auth HTTP\/1\.1 → GET \/echo\?q=\*\*\* HTTP\/1\.1.*you sent \*\*\*/)
  assert.ok(!(await scanAnswersText(w, id)).includes(PASSWORD), 'the password is in no answer, output, finding or stored row')
  const stored = JSON.parse(
    (await w.h.db.selectFrom('scans').select('tool_params').where('id', '=', id).executeTakeFirstOrThrow()).tool_params,
  )
  assert.match(stored.templates.variables.password, /^wardenc:v1:/, 'stored sealed')
})

test('without them the template is skipped, saying where to give them', async () => {
  const id = await scan({ ids: ['acme-authenticated'] })
  const s = (await w.req('GET', `/api/v2/scans/${id}`)).json().data
  assert.match(
    s.status_message,
    /needs the variable (username|password), which the template leaves to the user.*tool_params\.templates\.variables/,
  )
})

test('a variable name that is not a name, or a value that is not text, is a 400 and starts nothing', async () => {
  const before = (await w.req('GET', '/api/v2/scans')).json().data.length
  for (const variables of [{ 'bad name': 'x' }, { password: 7 }, { password: '' }]) {
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 170, target_name: `${site.url}/`, tool_params: { templates: { variables } } },
    })
    assert.equal(r.statusCode, 400, JSON.stringify(variables) + r.body)
    assert.match(r.json().message, /tool_params\.templates/)
  }
  assert.equal((await w.req('GET', '/api/v2/scans')).json().data.length, before)
})
