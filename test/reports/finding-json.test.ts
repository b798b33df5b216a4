// The findings routes write JSON text straight from stored rows (reports/finding-json.ts). It must be
// byte for byte what the Finding schema's serializer makes of findingView: every catalogue check,
// both evidence kinds and none, nulls, flags set, and strings that need escaping.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Type } from '@sinclair/typebox'
import fastJsonStringify from 'fast-json-stringify'
import { startWard } from '../helpers/ward.js'
import { buildFinding } from '../../src/domain/findings.js'
import { tableEvidence, textEvidence } from '../../src/toolkit/evidence.js'
import { subdomainFinderChecks } from '../../src/tools/subdomain-finder/checks.js'
import { urlFuzzerChecks } from '../../src/tools/url-fuzzer/checks.js'
import { netvulnChecks } from '../../src/tools/netvuln/checks.js'
import { portScannerChecks } from '../../src/tools/port-scanner/checks.js'
import { tlsChecks } from '../../src/tools/lib/tls/checks.js'
import { versionChecks } from '../../src/tools/lib/versions/checks.js'
import { udpScannerChecks } from '../../src/tools/udp-scanner/checks.js'
import { websiteScannerChecks } from '../../src/tools/website-scanner/checks.js'
import type { Check } from '../../src/toolkit/check.js'
import { Data } from '../../src/api/schemas/common.js'
import { Finding } from '../../src/api/schemas/findings.js'
import { findingView } from '../../src/reports/finding-view.js'
import { findingsPageJson, findingDataJson } from '../../src/reports/finding-json.js'
import { encodeFinding } from '../../src/store/finding-rows.js'
import { listFindings, listFindingArrays, getFindingArray, getFinding, FINDING_RESOURCE_COLUMNS } from '../../src/store/findings.js'

const ALL: readonly Check[] = [
  ...subdomainFinderChecks,
  ...urlFuzzerChecks,
  ...netvulnChecks,
  ...portScannerChecks,
  ...tlsChecks,
  ...udpScannerChecks,
  ...websiteScannerChecks,
  ...versionChecks,
]
const NASTY = 'quote " backslash \\ newline \n tab \t nul \u0000 bell \u0007 line-sep \u2028 emoji 😀 lone \ud800 é ü 中文 </script>'

test('finding JSON written from rows equals the schema serializer on findingView, for every kind of finding', async () => {
  const w = await startWard({ worker: false })
  try {
    const serializeList = fastJsonStringify(Data(Type.Array(Finding)) as never)
    const serializeOne = fastJsonStringify(Data(Finding) as never)
    const t = await w.req('POST', '/api/v2/targets', { body: { name: 'json.example.com' } })
    assert.equal(t.statusCode, 201, t.body)
    const targetId = t.json().data.created_id as number
    const now = new Date().toISOString()
    // Created through the API; without a worker it stays waiting, which is all its findings need.
    const s = await w.req('POST', '/api/v2/scans', { body: { tool_id: 70, target_id: targetId } })
    assert.equal(s.statusCode, 201, s.body)
    const scan = { id: s.json().data.created_id as number }
    const kev = new Set(['CVE-2021-44228'])
    let i = 0
    for (const check of ALL) {
      const v = i++ % 4
      const row = buildFinding(
        {
          check,
          name: v === 3 ? `${check.name} ${NASTY}` : undefined,
          detail: v === 1 ? NASTY : undefined,
          evidence:
            v === 0
              ? textEvidence(`GET / ${NASTY}`)
              : v === 1
                ? tableEvidence(
                    ['port', 'state'],
                    [
                      [80, 'open'],
                      ['x"y', NASTY],
                    ],
                  )
                : undefined,
          port: v === 2 ? null : 443,
          protocol: v === 2 ? null : 'tcp',
          service: v === 0 ? 'https' : null,
          url: v === 1 ? `https://json.example.com/?q=${encodeURIComponent(NASTY.replace('\ud800', ''))}` : null,
          cve: v === 2 ? ['CVE-2021-44228', 'CVE-2014-0160'] : undefined,
          confirmed: v === 1,
        } as never,
        { scanId: scan.id, targetId, workspaceId: w.workspaceId, testId: null, testDescription: `Checks ${NASTY}`, now },
        kev,
      )
      await w.h.db
        .insertInto('findings')
        .values({ ...encodeFinding(row), test_finished: v % 2, verified: v === 3 ? 1 : 0, status: v === 3 ? 'false_positive' : 'open' })
        .execute()
    }
    assert.ok(ALL.length > 50, `${ALL.length} checks`)
    for (let page = 1; page <= Math.ceil(ALL.length / 100); page++) {
      const f = { workspaceId: w.workspaceId, limit: 100, page }
      const objects = await listFindings(w.h.db, w.userId, f)
      const arrays = await listFindingArrays(w.h.db, w.userId, f)
      assert.equal(arrays.length, objects.length)
      assert.equal(findingsPageJson(arrays), serializeList({ data: objects.map(findingView) }))
    }
    const one = (await listFindings(w.h.db, w.userId, { limit: 1, page: 1 }))[0]!
    assert.equal(
      findingDataJson((await getFindingArray(w.h.db, w.userId, one.id))!),
      serializeOne({ data: findingView((await getFinding(w.h.db, w.userId, one.id))!) }),
    )
    // Through the API: the same text, valid JSON, the exact content type.
    const r = await w.req('GET', `/api/v2/findings?workspace_id=${w.workspaceId}&limit=100`)
    assert.equal(r.statusCode, 200)
    assert.equal(r.headers['content-type'], 'application/json')
    assert.equal(
      r.body,
      serializeList({ data: (await listFindings(w.h.db, w.userId, { workspaceId: w.workspaceId, limit: 100, page: 1 })).map(findingView) }),
    )
    assert.equal(JSON.parse(r.body).data.length, Math.min(100, ALL.length))
    const single = await w.req('GET', `/api/v2/findings/${one.id}`)
    assert.equal(single.headers['content-type'], 'application/json')
    assert.equal(JSON.parse(single.body).data.id, one.id)
    // A finding's text is kept by id with the row it came from: any changed value is written afresh.
    const row = (await getFindingArray(w.h.db, w.userId, one.id))!
    const text = findingDataJson(row)
    assert.equal(findingDataJson([...row]), text)
    const statusAt = FINDING_RESOURCE_COLUMNS.indexOf('status')
    const changed = findingDataJson(row.map((v, i) => (i === statusAt ? 'fixed' : v)))
    assert.equal(JSON.parse(changed).data.status, 'fixed')
    assert.equal(JSON.parse(findingDataJson(row)).data.status, row[statusAt])
    await w.h.db.updateTable('findings').set({ status: 'accepted' }).where('id', '=', one.id).execute()
    assert.equal(JSON.parse((await w.req('GET', `/api/v2/findings/${one.id}`)).body).data.status, 'accepted')
  } finally {
    await w.close()
  }
})
