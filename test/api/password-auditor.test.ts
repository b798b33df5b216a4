// Password Auditor (tool 400) through the API against the login bed: every default credential is found
// and reported masked; the passwords are in no API answer, log line, output format or PDF, and are
// stored sealed; the hardened twin gives nothing above info; a default scan never locks the lockout
// bed, and a scan allowed more attempts stops at its lockout sign.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startLoginBed, startLockoutBed, hardenedAccounts, WEAK_ACCOUNTS, PORTS } from '../testbed/login-services.js'
import { pdfTexts } from '../helpers/pdf-text.js'

const A = { weak: '127.0.81.2', hard: '127.0.81.3', lock: '127.0.81.4' }
let w: TestWard

before(async () => {
  w = await startWard()
})
after(() => w?.close())

async function scan(target_name: string, tool_params: Record<string, unknown> = {}) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 400, target_name, tool_params } })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id as number
  const s = await waitForScan(w, id, isTerminal, 120000)
  const output = (await w.req('GET', `/api/v2/scans/${id}/output`)).json().data.output_data
  return { id, s, output }
}

/** Every way a scan's results leave Ward: answers, formats, log, PDF (its decoded text), stored rows. */
async function everything(id: number): Promise<{ text: string; pdf: string[] }> {
  const out: string[] = []
  for (const url of [`/api/v2/scans/${id}`, '/api/v2/scans', `/api/v2/scans/${id}/tests`, `/api/v2/scans/${id}/raw`, '/api/v2/findings'])
    out.push((await w.req('GET', url)).body)
  for (const accept of ['application/json', 'application/sarif+json', 'text/csv', 'application/xml', 'text/markdown']) {
    const r = await w.req('GET', `/api/v2/scans/${id}/output`, { headers: { accept } })
    assert.equal(r.statusCode, 200, accept)
    out.push(r.body)
  }
  const pdf = await w.req('GET', `/api/v2/scans/${id}/output`, { headers: { accept: 'application/pdf' } })
  assert.equal(pdf.statusCode, 200)
  const rows = await w.h.db
    .selectFrom('scans')
    .select(['tool_params', 'status_message', 'output_data'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  out.push(rows.tool_params, rows.status_message ?? '', JSON.stringify(rows.output_data))
  const logs = await w.h.db.selectFrom('scan_logs').selectAll().where('scan_id', '=', id).execute()
  out.push(JSON.stringify(logs))
  return { text: out.join('\n'), pdf: pdfTexts(pdf.rawPayload) }
}

test('400 against the weak bed: every default credential found, masked; no password leaves sealed storage', async () => {
  const bed = await startLoginBed(A.weak)
  const extra = WEAK_ACCOUNTS.ftp[1]!
  try {
    const { id, s, output } = await scan(A.weak, { credentials: [{ username: extra[0], password: extra[1] }], delay_ms: 50 })
    assert.equal(s.status_name, 'finished', s.status_message)
    const got = output.credentials.map((c: any) => `${c.service} ${c.port} ${c.username} ${c.password_masked} ${c.product ?? ''}`.trim())
    const expect = [
      `ftp ${PORTS.ftp} ftpuser ft***s vsftpd`,
      `ftp ${PORTS.ftp} ward-ops Zq***7 vsftpd`,
      `ssh ${PORTS.ssh} pi ra***y OpenSSH`,
      `telnet ${PORTS.telnet} root xc***1`,
      `http-basic ${PORTS.tomcat} tomcat s3***t tomcat`,
      `http-form ${PORTS.grafana} admin pr***r grafana`,
      `mysql ${PORTS.mysql} root r***`,
      `postgresql ${PORTS.postgresql} postgres po***3`,
      `redis ${PORTS.redis} default fo***d`,
      `http-form ${PORTS.jenkins} jenkins je***s jenkins`,
      `http-form ${PORTS.phpmyadmin} root (empty) phpmyadmin`,
      `http-digest ${PORTS.digest} manager ma***r`,
    ]
    for (const e of expect)
      assert.ok(
        got.some((g: string) => g.startsWith(e)),
        `missing ${e} in ${got.join(' | ')}`,
      )
    assert.equal(got.length, expect.length, got.join(' | '))

    const findings = output.findings.filter((f: any) => f.vuln_id === 'password.default-credentials')
    assert.equal(findings.length, expect.length)
    assert.ok(findings.every((f: any) => f.risk_level === 4 && f.port > 0 && f.vuln_evidence.type === 'table'))
    const ssh = findings.find((f: any) => f.port === PORTS.ssh)
    assert.deepEqual(ssh.vuln_evidence.data.rows, [['ssh', '22', 'OpenSSH', 'pi', 'ra***y']])

    // Sealed beside the scan: one row per credential, each opening to its password.
    const secrets = await w.h.db.selectFrom('scan_secrets').selectAll().where('scan_id', '=', id).execute()
    assert.equal(secrets.length, expect.length)
    assert.ok(secrets.every((r) => r.sealed.startsWith('wardenc:v1:')))
    assert.ok(secrets.some((r) => r.label.includes(':22 pi')))

    const { text, pdf } = await everything(id)
    assert.ok(
      pdf.some((t) => t.includes('ra***y')),
      'the PDF text is read (the masked password is in it)',
    )
    const distinct = ['ftppass', extra[1], 'raspberry', 'xc3511', 's3cret', 'prom-operator', 'r00t', 'postgres123', 'foobared']
    for (const pw of distinct) {
      assert.ok(!text.includes(pw), `${pw} is in an answer, a format, the log or a stored row`)
      assert.ok(!pdf.some((t) => t.includes(pw)), `${pw} is in the PDF`)
    }
    // Deleting the scan deletes its sealed secrets.
    assert.equal((await w.req('DELETE', `/api/v2/scans/${id}`)).statusCode, 204)
    assert.equal((await w.h.db.selectFrom('scan_secrets').selectAll().where('scan_id', '=', id).execute()).length, 0)
  } finally {
    await bed.close()
  }
})

test('400 against the hardened twin: the logins are listed, nothing above info', async () => {
  const bed = await startLoginBed(A.hard, hardenedAccounts())
  try {
    const { s, output } = await scan(A.hard, { delay_ms: 20 })
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(output.credentials, [])
    assert.deepEqual(
      output.findings.filter((f: any) => f.risk_level > 0).map((f: any) => f.vuln_id),
      [],
    )
    const listed = output.findings.find((f: any) => f.vuln_id === 'password.login-services')
    assert.equal(listed.vuln_evidence.data.rows.length, 11, 'every login of the bed was audited')
  } finally {
    await bed.close()
  }
})

test('400 against the lockout bed: a default scan locks no account; with max_attempts 20 it stops at the lockout sign', async () => {
  const bed = await startLockoutBed(A.lock, 5)
  try {
    const first = await scan(A.lock)
    assert.equal(first.s.status_name, 'finished', first.s.status_message)
    assert.deepEqual(bed.locked(), [], 'no account locked by a default scan')
    assert.ok(Math.max(...bed.failures.values()) <= 4, 'at most max_attempts (4) failures per account')

    bed.failures.clear()
    const second = await scan(A.lock, {
      delay_ms: 10,
      max_attempts: 20,
      usernames: ['admin'],
      passwords: Array.from({ length: 15 }, (_, i) => `guess-${i}`),
    })
    assert.equal(second.s.status_name, 'finished', second.s.status_message)
    const sign = second.output.findings.find((f: any) => f.vuln_id === 'password.lockout-detected')
    assert.ok(sign, 'the lockout is reported')
    assert.match(sign.vuln_description + JSON.stringify(sign.vuln_evidence), /locked/)
    assert.ok(bed.locked().includes('admin'), "max_attempts 20 is beyond the bed's threshold: it locked")
    assert.equal(bed.afterLock.count, 1, 'the audit stopped at the first answer saying locked')
  } finally {
    await bed.close()
  }
})
