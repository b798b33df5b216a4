// End to end: `ward admin templates import <dir>` changes the findings of a real deep website scan
// through the API with no code change.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { startWard, waitForScan, isTerminal } from '../../helpers/ward.js'
import { runAdmin } from '../../../src/cli/admin.js'
import { startTemplateSite } from '../../testbed/template-site.js'

const TEMPLATE = `id: acme-admin-console
info:
  name: AcmeCMS admin console exposed
  author: ward
  severity: high
  tags: panel,exposure
  description: The AcmeCMS admin console answers without authentication.
  remediation: Put the console behind authentication.
  reference: [https://example.invalid/acme-console]
  classification:
    cwe-id: CWE-306
    cve-id: CVE-2099-7777
    epss-score: 0.31
    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N
    cvss-score: 9.1
http:
  - method: GET
    path: ["{{BaseURL}}/pos/word"]
    matchers-condition: and
    matchers:
      - type: word
        words: ["AcmeCMS admin console"]
      - type: status
        status: [200]
    extractors:
      - type: regex
        regex: ["Welcome to [A-Za-z]+"]
`

test('an imported template finds its finding in a deep scan through the API', async () => {
  const site = await startTemplateSite('127.0.61.3')
  const w = await startWard()
  try {
    const scan = async () => {
      const r = await w.req('POST', '/api/v2/scans', {
        body: { tool_id: 170, target_name: `${site.url}/`, tool_params: { scan_type: 'deep' } },
      })
      assert.equal(r.statusCode, 201, r.body)
      const s = await waitForScan(w, r.json().data.created_id, isTerminal, 120_000)
      assert.equal(s.status_name, 'finished', s.status_message)
      return { id: s.id as number, findings: (await w.req('GET', `/api/v2/findings?task_id=${s.id}`)).json().data as any[] }
    }
    const before = await scan()
    assert.equal(before.findings.filter((f) => f.vuln_id.startsWith('template.')).length, 0)

    const dir = fs.mkdtempSync(path.join(w.dir, 'templates-'))
    fs.mkdirSync(path.join(dir, 'http'))
    fs.writeFileSync(path.join(dir, 'http', 'acme-admin-console.yaml'), TEMPLATE)
    let out = ''
    await runAdmin(['templates', 'import', dir], w.h, w.config, (s) => (out += s))
    assert.match(out, /^loaded 1, updated 0, unchanged 0, skipped 0/)

    const after = await scan()
    const f = after.findings.find((x) => x.vuln_id === 'template.acme-admin-console')
    assert.ok(f, JSON.stringify(after.findings.map((x) => x.vuln_id)))
    assert.equal(f.name, 'AcmeCMS admin console exposed')
    assert.equal(f.risk_level, 3)
    assert.equal(f.cwe, 'CWE-306')
    assert.equal(f.cvss_score, 9.1)
    // No imported EPSS score for its CVE: the template's own, dated the day the scan read it.
    assert.deepEqual(f.epss, { score: 0.31, date: new Date().toISOString().slice(0, 10) })
    assert.equal(f.recommendation, 'Put the console behind authentication.')
    assert.ok(f.references.includes('https://example.invalid/acme-console'))
    assert.match(JSON.stringify(f.vuln_evidence), /GET \/pos\/word HTTP\/1\.1.*AcmeCMS admin console.*Welcome to AcmeCMS/)
    const tests = (await w.req('GET', `/api/v2/scans/${after.id}/tests`)).json().data as any[]
    assert.ok(
      tests.some((t) => /^Template acme-admin-console/.test(t.name ?? t.test_name ?? JSON.stringify(t))),
      JSON.stringify(tests.slice(0, 3)),
    )
    const output = (await w.req('GET', `/api/v2/scans/${after.id}/output`)).json().data
    assert.equal(JSON.stringify(output).includes('requests_saved_by_clustering'), true)

    // Imported EPSS and NVD records of the template's CVE win over the template's own scores.
    await w.h.db
      .insertInto('epss_scores')
      .values({ cve: 'CVE-2099-7777', score: 0.77, percentile: 0.9, score_date: '2026-11-20' })
      .execute()
    const vector = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N'
    await w.h.db
      .insertInto('cves')
      .values({
        cve: 'CVE-2099-7777',
        description: 'x',
        cvss3_score: 5.9,
        cvss3_vector: vector,
        cvss4_score: null,
        cvss4_vector: null,
        cwe: '[]',
        refs: '[]',
        last_modified: null,
        imported_at: new Date().toISOString(),
      })
      .execute()
    const again = (await scan()).findings.find((x) => x.vuln_id === 'template.acme-admin-console')
    assert.deepEqual(again.epss, { score: 0.77, date: '2026-11-20' })
    assert.deepEqual([again.cvss_score, again.cvss_vector], [5.9, vector])
  } finally {
    await w.close()
    await site.close()
  }
})
