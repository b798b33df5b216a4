// Password Auditor (400) on MongoDB through the API: default credentials over SCRAM-SHA-1 and
// SCRAM-SHA-256 found and masked (the passwords stay sealed), a server without authentication
// reported as such, the hardened twin gives nothing above info.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { scanThroughApi } from '../../helpers/api-scan.js'
import { startMongoBed, hardenedMongo, MONGO_ADDR, MONGO_PORT } from '../../testbed/mongo-service.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w?.close())

/** Tool 400 on the MongoDB port only. */
const scan = (target_name: string) =>
  scanThroughApi(w, 400, target_name, { ports: String(MONGO_PORT), services: ['mongodb'], delay_ms: 20 })

test('MongoDB defaults over SCRAM-SHA-1 and SCRAM-SHA-256 are found, masked, sealed', async () => {
  const bed = await startMongoBed('weak')
  try {
    const { s, output } = await scan(MONGO_ADDR.weak)
    const id = s.id as number
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(output.credentials.map((c: any) => `${c.service} ${c.port} ${c.username} ${c.password_masked}`).sort(), [
      `mongodb ${MONGO_PORT} mongoadmin se***t`,
      `mongodb ${MONGO_PORT} root ex***e`,
    ])
    const crit = output.findings.filter((f: any) => f.vuln_id === 'password.default-credentials')
    assert.ok(crit.length === 2 && crit.every((f: any) => f.risk_level === 4))
    const secrets = await w.h.db.selectFrom('scan_secrets').selectAll().where('scan_id', '=', id).execute()
    assert.equal(secrets.length, 2)
    const text = [
      JSON.stringify(output),
      (await w.req('GET', `/api/v2/scans/${id}/raw`)).body,
      JSON.stringify(await w.h.db.selectFrom('scan_logs').selectAll().where('scan_id', '=', id).execute()),
    ].join('\n')
    for (const pw of ['example', 'secret']) assert.ok(!new RegExp(`\\b${pw}\\b`).test(text), `${pw} left sealed storage`)
  } finally {
    await bed.close()
  }
})

test('a MongoDB without authentication is reported once, no password tried further', async () => {
  const bed = await startMongoBed('open')
  try {
    const { s, output } = await scan(MONGO_ADDR.open)
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(output.credentials, [])
    assert.deepEqual(
      output.findings.filter((f: any) => f.risk_level > 0).map((f: any) => [f.vuln_id, f.port]),
      [['password.no-authentication', MONGO_PORT]],
    )
  } finally {
    await bed.close()
  }
})

test('the hardened MongoDB: its login is listed, nothing above info', async () => {
  const bed = await startMongoBed('hardened', hardenedMongo())
  try {
    const { s, output } = await scan(MONGO_ADDR.hardened)
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(output.credentials, [])
    assert.deepEqual(
      output.findings.filter((f: any) => f.risk_level > 0).map((f: any) => f.vuln_id),
      [],
    )
    const listed = output.findings.find((f: any) => f.vuln_id === 'password.login-services')
    assert.match(JSON.stringify(listed.vuln_evidence), /mongodb/)
  } finally {
    await bed.close()
  }
})
