// `ward admin kev import FILE`: loads the official CISA feed, stores its ids and flags existing findings.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { startWard, type TestWard } from '../helpers/ward.js'
import { importedKevCves } from '../../src/store/kev-cves.js'
import { runAdmin, UsageError } from '../../src/cli/admin.js'
import type { NewFinding } from '../../src/store/schema.js'

const BIN = path.resolve('bin/ward.js')
const FIXTURE = path.resolve('test/fixtures/kev-small.json')

const ward = (w: TestWard, args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', WARD_DATABASE_URL: w.config.databaseUrl, WARD_SECRET_KEY_FILE: w.config.secretKeyFile! },
    encoding: 'utf8',
    timeout: 30000,
  })

/** A finding as if created before the import (not flagged), carrying `cve`. */
async function insertFinding(w: TestWard, scanId: number, targetId: number, cve: string[], slug: string): Promise<number> {
  const f: NewFinding = {
    scan_id: scanId,
    target_id: targetId,
    workspace_id: w.workspaceId,
    test_id: null,
    dedup_key: `kev-test-${slug}`,
    vuln_id: `test.kev.${slug}`,
    name: 'Vulnerable version',
    test_description: 'version check',
    test_finished: 1,
    confirmed: 0,
    in_cisa_catalog: 0,
    cve: JSON.stringify(cve),
    vuln_description: 'd',
    vuln_evidence: null,
    risk_description: 'r',
    risk_level: 3,
    status: 'open',
    recommendation: 'upgrade',
    refs: '[]',
    verified: 0,
    owasp: JSON.stringify({ owasp_2017: '', owasp_2021: '', owasp_2025: '' }),
    cwe: '',
    port: 443,
    protocol: 'tcp',
    service: 'https',
    url: null,
    location: null,
    created_at: new Date().toISOString(),
  }
  return (await w.h.db.insertInto('findings').values(f).returning('id').executeTakeFirstOrThrow()).id
}

/** The same command in-process (fast), for the cases beyond the first end-to-end run. */
async function admin(w: TestWard, args: string[]): Promise<string> {
  let out = ''
  await runAdmin(args, w.h, w.config, (s) => (out += s + '\n'))
  return out
}

const flagged = async (w: TestWard, id: number) => (await w.req('GET', `/api/v2/findings/${id}`)).json().data.in_cisa_catalog as boolean

test('kev import stores the feed ids, flags existing findings whose CVEs are listed, and rejects bad files', async () => {
  const w = await startWard({ worker: false })
  const custom = path.join(w.dir, 'feed.json')
  try {
    const s = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: { steps: 0 } } })
    assert.equal(s.statusCode, 201, s.body)
    const { created_id: scanId, target_id: targetId } = s.json().data
    const log4j = await insertFinding(w, scanId, targetId, ['cve-2021-44228'], 'log4j') // lower case: compared case-insensitively
    const apache = await insertFinding(w, scanId, targetId, ['CVE-2020-0001', 'CVE-2021-41773'], 'apache')
    const other = await insertFinding(w, scanId, targetId, ['CVE-2020-0001'], 'other')
    const future = await insertFinding(w, scanId, targetId, ['CVE-2099-12345'], 'future')
    const none = await insertFinding(w, scanId, targetId, [], 'none')
    for (const id of [log4j, apache, other, future, none]) assert.equal(await flagged(w, id), false)

    const r = ward(w, ['admin', 'kev', 'import', FIXTURE])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /imported 3 CVE ids/)
    assert.match(r.stdout, /flagged 2 existing finding/)
    assert.deepEqual((await importedKevCves(w.h.db)).sort(), ['CVE-2014-0160', 'CVE-2021-41773', 'CVE-2021-44228'])
    assert.deepEqual(
      [await flagged(w, log4j), await flagged(w, apache), await flagged(w, other), await flagged(w, future), await flagged(w, none)],
      [true, true, false, false, false],
    )

    // A CVE that is not in the shipped snapshot: only the import can flag it. The import replaces the list.
    const feed = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'))
    feed.vulnerabilities.push({ ...feed.vulnerabilities[0], cveID: 'CVE-2099-12345' })
    fs.writeFileSync(custom, JSON.stringify(feed))
    const out2 = await admin(w, ['kev', 'import', custom])
    assert.match(out2, /imported 4 CVE ids from the KEV feed \(1 new\)/)
    assert.match(out2, /flagged 1 existing finding/)
    assert.equal(await flagged(w, future), true)
    assert.equal((await importedKevCves(w.h.db)).length, 4)

    // Bad inputs: exit 2 with a message naming the problem; the stored list is unchanged.
    fs.writeFileSync(custom, JSON.stringify({ title: 'x', vulnerabilities: [] }))
    const bad = ward(w, ['admin', 'kev', 'import', custom])
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /lists no vulnerabilities/)
    await assert.rejects(
      admin(w, ['kev', 'import', path.join(w.dir, 'nope.json')]),
      (e: Error) => e instanceof UsageError && /ENOENT|no such file/.test(e.message),
    )
    fs.writeFileSync(custom, '{"vulnerabilities": [')
    await assert.rejects(admin(w, ['kev', 'import', custom]), (e: Error) => e instanceof UsageError && /JSON/.test(e.message))
    await assert.rejects(admin(w, ['kev', 'import']), UsageError)
    assert.equal((await importedKevCves(w.h.db)).length, 4)
  } finally {
    await w.close()
  }
})
