// End to end: a deep website scan through the API, with no template imported, runs Ward's shipped
// library (found by the built ward from dist/) and reports a shipped template's finding; an imported
// template with a shipped template's id replaces it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { startWard, waitForScan, isTerminal } from '../../helpers/ward.js'
import { runAdmin } from '../../../src/cli/admin.js'
import { startLibraryBed } from '../../testbed/template-library-site.js'

const OVERRIDE = `id: webmin-panel
info:
  name: Webmin login page (our rule)
  author: our-team
  severity: high
  tags: panel,webmin
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers-condition: and
    matchers:
      - type: status
        status: [200]
      - type: word
        words: ["Login to Webmin"]
`

test('a deep scan with no import finds a shipped template; an imported template with the same id replaces it', async () => {
  // The CVE-2019-15107 site answers / as Webmin 1.890 (MiniServ/1.890): the shipped CVE template and webmin-panel both fire.
  const bed = await startLibraryBed('127.0.112.5')
  const w = await startWard()
  try {
    const dir = fs.mkdtempSync(path.join(w.dir, 'templates-'))
    fs.writeFileSync(path.join(dir, 'webmin-panel.yaml'), OVERRIDE)
    let out = ''
    await runAdmin(['templates', 'import', dir], w.h, w.config, (s) => (out += s))
    assert.match(out, /^loaded 1, updated 0, unchanged 0, skipped 0/)

    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 170, target_name: `${bed.base('CVE-2019-15107')}/`, tool_params: { scan_type: 'deep' } },
    })
    assert.equal(r.statusCode, 201, r.body)
    const s = await waitForScan(w, r.json().data.created_id, isTerminal, 180_000)
    assert.equal(s.status_name, 'finished', s.status_message)
    const findings = (await w.req('GET', `/api/v2/findings?task_id=${s.id}`)).json().data as any[]
    const ids = findings.map((f) => f.vuln_id)

    const f = findings.find((x) => x.vuln_id === 'template.CVE-2019-15107')
    assert.ok(f, JSON.stringify(ids))
    assert.equal(f.name, 'Webmin password_change.cgi backdoor (CVE-2019-15107)')
    assert.equal(f.risk_level, 4)
    assert.deepEqual(f.cve, ['CVE-2019-15107'])
    assert.equal(f.cwe, 'CWE-78')
    assert.equal(f.cvss_score, 9.8)
    assert.match(f.recommendation, /Upgrade Webmin to 1\.930/)
    assert.match(JSON.stringify(f.vuln_evidence), /1\.890/)

    const panel = findings.find((x) => x.vuln_id === 'template.webmin-panel')
    assert.ok(panel, JSON.stringify(ids))
    assert.equal(panel.name, 'Webmin login page (our rule)', 'the imported template wins over the shipped one')
    assert.equal(panel.risk_level, 3)

    // No other shipped template misfires on this site.
    assert.deepEqual(ids.filter((id) => id.startsWith('template.')).sort(), ['template.CVE-2019-15107', 'template.webmin-panel'])
    const output = (await w.req('GET', `/api/v2/scans/${s.id}/output`)).json().data
    const run = JSON.stringify(output).match(/"run":(\d+)/)
    assert.ok(run && Number(run[1]) >= 150, `templates run: ${run?.[1]}`)
  } finally {
    await w.close()
    await bed.close()
  }
})
