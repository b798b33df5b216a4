// Password Auditor (400) on SMTP AUTH through the API, against the mail server of test/testbed/smtp-service.ts:
// its default account found on every port, each its own way in (AUTH PLAIN in clear text, AUTH LOGIN
// after a temporary 454, AUTH PLAIN after STARTTLS, CRAM-MD5 over implicit TLS) while the whole plan runs
// on one port only; the password in no output; the hardened twin gives nothing above info and a default
// scan locks none of its accounts; a scan allowed more attempts stops at the server's 421 lockout.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../../helpers/ward.js'
import { scanThroughApi } from '../../helpers/api-scan.js'
import { startSmtpBed, hardenedSmtp, SMTP_ADDR, SMTP_PORTS, WEAK_SMTP } from '../../testbed/smtp-service.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w?.close())

const PORTS = Object.values(SMTP_PORTS).join(',')
/** Tool 400 on the mail server's ports only. */
const scan = (target_name: string, params: Record<string, unknown> = {}) =>
  scanThroughApi(w, 400, target_name, { ports: PORTS, services: ['smtp'], delay_ms: 20, ...params })

test('SMTP: the default account is found on every port (PLAIN, LOGIN after 454, STARTTLS, CRAM-MD5 over TLS), masked, sealed', async () => {
  const bed = await startSmtpBed(SMTP_ADDR.weak)
  const [user, password] = WEAK_SMTP[0]!
  try {
    const { s, output, raw, tests } = await scan(SMTP_ADDR.weak)
    const id = s.id as number
    assert.equal(s.status_name, 'finished', s.status_message)
    assert.deepEqual(
      output.credentials.map((c: any) => `${c.service} ${c.port} ${c.username} ${c.password_masked} ${c.product}`),
      [25, 465, 587, 2525].map((port) => `smtp ${port} ${user} te***3 Postfix smtpd`),
    )
    const crit = output.findings.filter((f: any) => f.vuln_id === 'password.default-credentials')
    assert.equal(crit.length, 4)
    assert.ok(crit.every((f: any) => f.risk_level === 4 && f.service === 'smtp' && f.vuln_description.includes(`the user "${user}"`)))
    assert.deepEqual(
      crit.map((f: any) => f.vuln_evidence.data.rows[0]).sort((a: string[], b: string[]) => Number(a[1]) - Number(b[1])),
      ['25', '465', '587', '2525'].map((port) => ['smtp', port, 'Postfix smtpd', user, 'te***3']),
    )
    // What the server saw: each port's own mechanism and protection accepted the account.
    const accepted = bed.auths.filter((a) => a.ok).map((a) => `${a.port} ${a.mech}${a.tls ? ' tls' : ''}`)
    assert.deepEqual(accepted.sort(), ['25 PLAIN', '2525 LOGIN', '465 CRAM-MD5 tls', '587 PLAIN tls'])
    assert.equal(bed.temporary.count, 1, "2525's 454 was met, retried, and is no wrong password")
    // The whole plan ran on one port with a protected session (465); the others got only the account found.
    assert.deepEqual([...new Set(bed.auths.filter((a) => !a.ok).map((a) => a.port))], [465])
    assert.deepEqual(bed.locked(), [])
    assert.ok(Math.max(...bed.failures.values()) <= 4)
    const secrets = await w.h.db.selectFrom('scan_secrets').selectAll().where('scan_id', '=', id).execute()
    assert.equal(secrets.length, 4)
    const logs = await w.h.db.selectFrom('scan_logs').selectAll().where('scan_id', '=', id).execute()
    const logText = JSON.stringify(logs)
    assert.match(logText, /success \(AUTH LOGIN: 235 2\.7\.0 after the temporary failure AUTH LOGIN: 454 4\.7\.0\)/)
    assert.match(logText, /AUTH PLAIN after STARTTLS: 235/)
    const text = [JSON.stringify(output), JSON.stringify(raw), JSON.stringify(tests), logText].join('\n')
    assert.ok(!text.includes(password), 'the password left sealed storage')
    assert.ok(!text.includes(Buffer.from(`\0${user}\0${password}`).toString('base64')), 'nor its AUTH PLAIN form')
  } finally {
    await bed.close()
  }
})

test('SMTP hardened twin: nothing above info, no account locked by a default scan; max_attempts 20 stops at the 421 lockout', async () => {
  const bed = await startSmtpBed(SMTP_ADDR.hardened, hardenedSmtp(), 5)
  try {
    const first = await scan(SMTP_ADDR.hardened)
    assert.equal(first.s.status_name, 'finished', first.s.status_message)
    assert.deepEqual(first.output.credentials, [])
    assert.deepEqual(
      first.output.findings.filter((f: any) => f.risk_level > 0).map((f: any) => f.vuln_id),
      [],
    )
    const listed = first.output.findings.find((f: any) => f.vuln_id === 'password.login-services')
    assert.deepEqual(
      listed.vuln_evidence.data.rows.map((r: string[]) => r[1]),
      ['25', '465', '587', '2525'],
    )
    assert.deepEqual(bed.locked(), [], 'no account locked by a default scan')
    assert.ok(Math.max(...bed.failures.values()) <= 4, 'at most max_attempts (4) failures per account, all ports together')

    bed.failures.clear()
    const second = await scan(SMTP_ADDR.hardened, {
      ports: String(SMTP_PORTS.submission),
      default_lists: false,
      usernames: ['test'],
      passwords: Array.from({ length: 12 }, (_, i) => `guess-${i}`),
      max_attempts: 20,
    })
    assert.equal(second.s.status_name, 'finished', second.s.status_message)
    const sign = second.output.findings.find((f: any) => f.vuln_id === 'password.lockout-detected')
    assert.ok(sign, 'the lockout is reported')
    assert.equal(sign.risk_level, 0)
    assert.match(JSON.stringify(sign.vuln_evidence), /421/)
    assert.deepEqual(bed.locked(), ['test'], "max_attempts 20 is beyond the bed's threshold: it locked")
    assert.equal(bed.afterLock.count, 1, 'the audit stopped at the first 421')
    assert.equal(second.output.logins[0].attempts, 6)
  } finally {
    await bed.close()
  }
})
