// The Password Auditor's pure parts: one line per pass and fail.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { maskPassword } from '../../../src/tools/password-auditor/detect/mask.js'
import { lockoutSign, saysLocked } from '../../../src/tools/password-auditor/detect/lockout.js'
import { asksLogin, asksPassword, loginVerdict, negotiate } from '../../../src/tools/password-auditor/detect/telnet.js'
import { pgMd5 } from '../../../src/tools/password-auditor/detect/pg-auth.js'
import { mongoSha1Password, scramClient } from '../../../src/tools/password-auditor/detect/scram.js'
import * as M from '../../../src/tools/password-auditor/detect/mongo-wire.js'
import { nativePassword, parseHandshake } from '../../../src/tools/password-auditor/detect/mysql-auth.js'
import {
  authHeaderVerdict,
  grafanaVerdict,
  jenkinsVerdict,
  loginSurfaces,
  phpMyAdminVerdict,
  type WebAnswer,
} from '../../../src/tools/password-auditor/detect/http-login.js'
import { loginKind } from '../../../src/tools/password-auditor/detect/plan.js'
import * as S from '../../../src/tools/password-auditor/detect/smtp.js'
import { CREDENTIAL_LISTS, parseLists, planAttempts } from '../../../src/tools/password-auditor/detect/credentials.js'
import type { Attempt } from '../../../src/tools/password-auditor/probes/attempt.js'
import { accountGroups, type Login } from '../../../src/tools/password-auditor/probes/logins.js'

const web = (o: Partial<WebAnswer>): WebAnswer => ({ url: 'http://h/', status: 200, headers: {}, setCookies: [], body: '', ...o })
const at = (result: Attempt['result'], ms = 10, note?: string): Attempt => ({ result, ms, note })
const svc = (service: string | null, banner: string | null = null) => ({ service, banner, product: null, version: null, tls: false })

test('mask: "admin" → "ad***n", short and empty passwords show nothing usable', () => {
  assert.equal(maskPassword('admin'), 'ad***n')
  assert.equal(maskPassword('toor'), 't***')
  assert.equal(maskPassword('ab'), '***')
  assert.equal(maskPassword(''), '(empty)')
})

test('lockout: a locked attempt stops; plain failures do not', () => {
  assert.match(lockoutSign([at('failure'), at('locked', 10, 'HTTP 429')])!, /HTTP 429/)
  assert.equal(lockoutSign([at('failure'), at('failure'), at('failure')]), null)
})
test('lockout: answers that slow down with each failure stop; a steady slow service does not', () => {
  assert.ok(lockoutSign([at('failure', 100), at('failure', 100), at('failure', 800), at('failure', 1600), at('failure', 3200)]))
  assert.equal(lockoutSign([at('failure', 2000), at('failure', 2100), at('failure', 1900), at('failure', 2050)]), null)
})
test('lockout words: "Account locked" and "too many failed login attempts" are signs, "Login incorrect" is not', () => {
  assert.ok(saysLocked('Account locked: too many failed login attempts'))
  assert.ok(!saysLocked('Login incorrect'))
})

test('telnet: login and password prompts, shell prompt success, "Login incorrect" failure', () => {
  assert.ok(asksLogin('Ubuntu\r\nrouter login: '))
  assert.ok(asksPassword('Password: '))
  assert.equal(loginVerdict('\r\nWelcome\r\nroot@router:~# '), 'success')
  assert.equal(loginVerdict('\r\nLogin incorrect\r\nrouter login: '), 'failure')
  assert.equal(loginVerdict('\r\nLast login: Mon'), null)
})
test('telnet negotiation: DO is refused with WONT, WILL with DONT, text kept', () => {
  const n = negotiate(Buffer.from([255, 253, 24, 255, 251, 1, 0x6c, 0x6f]))
  assert.deepEqual([...n.reply], [255, 252, 24, 255, 254, 1])
  assert.equal(n.text, 'lo')
})

test('PostgreSQL md5: md5(md5(password + user) + salt) with the "md5" prefix', () => {
  const salt = Buffer.from([1, 2, 3, 4])
  const inner = createHash('md5').update('secretpostgres').digest('hex')
  assert.equal(
    pgMd5('postgres', 'secret', salt),
    'md5' +
      createHash('md5')
        .update(Buffer.concat([Buffer.from(inner), salt]))
        .digest('hex'),
  )
})
test('SCRAM-SHA-256: RFC 7677 test vector (user, pencil)', () => {
  const c = scramClient('rOprNGfwEbeRWgbNEkqO')
  assert.equal(c.first, 'n,,n=,r=rOprNGfwEbeRWgbNEkqO')
  // The RFC's vector names the user in n=; PostgreSQL leaves it empty, so the proof differs: check the shape and the nonce rule.
  const final = c.final('r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096', 'pencil')
  assert.match(final, /^c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj\)hNlF\$k0,p=[A-Za-z0-9+/]{43}=$/)
  assert.throws(() => c.final('r=someoneelse,s=W22Z,i=4096', 'pencil'))
})

test("SCRAM-SHA-1 with the user named: RFC 5802 test vector (user, pencil); MongoDB's SHA-1 password digest", () => {
  const c = scramClient('fyko+d2lbbFgONRv9qkxdawL', { user: 'user', hash: 'sha1' })
  assert.equal(c.first, 'n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL')
  assert.equal(
    c.final('r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096', 'pencil'),
    'c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=',
  )
  assert.equal(scramClient('n', { user: 'a=b,c' }).first, 'n,,n=a=3Db=2Cc,r=n')
  assert.equal(mongoSha1Password('user', 'pencil'), '1c33006ec1ffd90f9cadcbcc0e118200')
})

test('MongoDB wire: BSON bytes of {hello: 1}, a round trip of the types the auditor reads, OP_MSG framing and results', () => {
  assert.equal(M.encodeBson({ hello: 1 }).toString('hex'), '100000001068656c6c6f000100000000')
  const doc = { s: 'é', n: 7, d: 1.5, b: true, z: null, bin: Buffer.from('ab'), o: { a: ['x', 2] } }
  assert.deepEqual(M.decodeBson(M.encodeBson(doc)), doc)
  assert.throws(() => M.decodeBson(M.encodeBson({ a: 1 }).subarray(0, 9)))
  const msg = M.opMsg(5, { ok: 1 })
  assert.equal(M.frameLength(msg), msg.length)
  assert.equal(M.frameLength(msg.subarray(0, msg.length - 1)), 0)
  assert.deepEqual(M.replyDoc(msg), { ok: 1 })
  assert.deepEqual(M.commandResult({ ok: 0, code: 18, errmsg: 'Authentication failed.' }), {
    ok: false,
    code: 18,
    message: 'Authentication failed.',
  })
  assert.deepEqual(M.commandResult({ ok: 1 }), { ok: true, code: null, message: '' })
})

test('MySQL native password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); empty for no password', () => {
  const scramble = Buffer.alloc(20, 7)
  const r = nativePassword('r00t', scramble)
  const h1 = createHash('sha1').update('r00t').digest()
  const x = createHash('sha1')
    .update(Buffer.concat([scramble, createHash('sha1').update(h1).digest()]))
    .digest()
  assert.deepEqual(Buffer.from(r.map((b, i) => b ^ x[i]!)), h1)
  assert.equal(nativePassword('', scramble).length, 0)
})
test('MySQL handshake: version, 20-byte scramble and plugin read; another protocol refused', () => {
  const s = Buffer.alloc(20, 65)
  const hs = Buffer.concat([
    Buffer.from([10]),
    Buffer.from('8.0.35\0'),
    Buffer.alloc(4),
    s.subarray(0, 8),
    Buffer.from([0, 0xff, 0xf7, 33, 2, 0, 0xff, 0x81, 21]),
    Buffer.alloc(10),
    s.subarray(8),
    Buffer.from([0]),
    Buffer.from('caching_sha2_password\0'),
  ])
  assert.deepEqual(parseHandshake(hs), { version: '8.0.35', scramble: s, plugin: 'caching_sha2_password' })
  assert.throws(() => parseHandshake(Buffer.from([9, 0])))
})

test('web logins: Basic realm of Tomcat, Grafana, Jenkins and phpMyAdmin pages are found; a plain page is not', () => {
  const found = loginSurfaces([
    web({ url: 'http://h/manager/html', status: 401, headers: { 'www-authenticate': 'Basic realm="Tomcat Manager Application"' } }),
    web({ url: 'http://h:3000/login', body: '<html><head><title>Grafana</title></head></html>' }),
    web({ url: 'http://h:8080/login', headers: { 'x-jenkins': '2.4' }, body: '<input name="j_username">' }),
    web({ url: 'http://h:8888/', body: '<form><input name="pma_username"><input name="token" value="t"></form>' }),
  ])
  assert.deepEqual(
    found.map((s) => (s.kind === 'form' ? s.product : `${s.kind} ${s.product}`)),
    ['basic tomcat', 'grafana', 'jenkins', 'phpmyadmin'],
  )
  assert.deepEqual(loginSurfaces([web({ body: '<html><title>Welcome</title></html>' })]), [])
})
test('web logins: one realm guarding every path is one login', () => {
  const c = { 'www-authenticate': 'Digest realm="IP Camera", nonce="n"' }
  assert.equal(
    loginSurfaces([web({ url: 'http://h/', status: 401, headers: c }), web({ url: 'http://h/manager/html', status: 401, headers: c })])
      .length,
    1,
  )
})
test('web verdicts: Basic 200 success, 401 failure, 429 locked', () => {
  assert.equal(authHeaderVerdict(web({ status: 200 })).result, 'success')
  assert.equal(authHeaderVerdict(web({ status: 401 })).result, 'failure')
  assert.equal(authHeaderVerdict(web({ status: 429 })).result, 'locked')
})
test('web verdicts: Grafana "Logged in" / 401; Jenkins redirect past the login / to loginError; phpMyAdmin pmaAuth cookie / form again', () => {
  assert.equal(grafanaVerdict(web({ body: '{"message":"Logged in"}' })).result, 'success')
  assert.equal(grafanaVerdict(web({ status: 401, body: '{"message":"Invalid username or password"}' })).result, 'failure')
  assert.equal(grafanaVerdict(web({ status: 401, body: 'login for user temporarily blocked' })).result, 'locked')
  assert.equal(jenkinsVerdict(web({ status: 302, headers: { location: '/' } })).result, 'success')
  assert.equal(jenkinsVerdict(web({ status: 302, headers: { location: '/loginError' } })).result, 'failure')
  assert.equal(phpMyAdminVerdict(web({ status: 302, setCookies: ['pmaAuth-1=abc; path=/'] })).result, 'success')
  assert.equal(phpMyAdminVerdict(web({ body: '<input name="pma_username">' })).result, 'failure')
})

test('plan: detection names the login; an unknown service on a usual port is not guessed', () => {
  assert.equal(loginKind(2222, svc('ssh')), 'ssh')
  assert.equal(loginKind(5432, svc(null)), 'postgresql')
  assert.equal(loginKind(27017, svc('mongodb')), 'mongodb')
  assert.equal(loginKind(5432, svc('imap')), null)
})

test('credentials: user pairs first, at most max_attempts per account, accounts take turns, capped per service', () => {
  const lists = parseLists({
    x: {
      description: 'x',
      pairs: [
        ['root', 'a'],
        ['root', 'b'],
        ['root', 'c'],
        ['admin', 'd'],
      ],
    },
  })
  const plan = planAttempts(
    'x',
    { usernames: [], passwords: [], credentials: [{ username: 'me', password: 'p' }], defaultLists: true },
    { perAccount: 2, perService: 100 },
    lists,
  )
  assert.deepEqual(plan, [
    ['me', 'p'],
    ['root', 'a'],
    ['admin', 'd'],
    ['root', 'b'],
  ])
  assert.equal(
    planAttempts('x', { usernames: [], passwords: [], credentials: [], defaultLists: true }, { perAccount: 5, perService: 2 }, lists)
      .length,
    2,
  )
})
test('credentials: given user names get the given and shipped passwords; default_lists=false keeps only what was given', () => {
  const lists = parseLists({ x: { description: 'x', pairs: [['root', 'a']] } })
  assert.deepEqual(
    planAttempts(
      'x',
      { usernames: ['bob'], passwords: ['z'], credentials: [], defaultLists: false },
      { perAccount: 9, perService: 9 },
      lists,
    ),
    [['bob', 'z']],
  )
  assert.throws(() => parseLists({ y: { description: 'y', pairs: [['only-one']] } }))
})
test('shipped lists: every protocol and product has one', () => {
  for (const id of ['ftp', 'ssh', 'telnet', 'mysql', 'postgresql', 'redis', 'smtp', 'http', 'tomcat', 'jenkins', 'grafana', 'phpmyadmin'])
    assert.ok(CREDENTIAL_LISTS[id]!.pairs.length >= 5, id)
})

const EHLO = '250-mail.example.com\n250-PIPELINING\n250-AUTH PLAIN login\n250-AUTH=LOGIN XOAUTH2\n250 STARTTLS'
test('smtp EHLO: AUTH mechanisms (both AUTH line forms, upper-cased, once each) and STARTTLS', () => {
  assert.deepEqual(S.parseEhlo(EHLO), { auth: ['PLAIN', 'LOGIN', 'XOAUTH2'], starttls: true })
  assert.deepEqual(S.parseEhlo('250-mx.example.com\n250 8BITMIME'), { auth: [], starttls: false })
})
test('smtp mechanism: PLAIN before LOGIN before CRAM-MD5; none the auditor speaks is null', () => {
  assert.equal(S.pickMechanism(['CRAM-MD5', 'LOGIN', 'PLAIN']), 'PLAIN')
  assert.equal(S.pickMechanism(['CRAM-MD5', 'LOGIN']), 'LOGIN')
  assert.equal(S.pickMechanism(['XOAUTH2', 'GSSAPI']), null)
})
test('smtp answers: PLAIN "\\0user\\0pass", LOGIN base64, CRAM-MD5 as in RFC 2195', () => {
  assert.equal(S.plainResponse('tim', 'tanstaaftanstaaf'), 'AHRpbQB0YW5zdGFhZnRhbnN0YWFm')
  assert.equal(S.loginResponse('tim'), 'dGlt')
  const challenge = Buffer.from('<1896.697170952@postoffice.reston.mci.net>').toString('base64')
  assert.equal(
    Buffer.from(S.cramMd5Response('tim', 'tanstaaftanstaaf', challenge), 'base64').toString(),
    'tim b913a602c7eda7a495b4e6e7334d3890',
  )
})
test('smtp verdicts: 235 success, 535 / 5.7.8 failure, 421 and "too many" lockout, 454 temporary, 530 none', () => {
  assert.equal(S.smtpVerdict(235, '235 2.7.0 Authentication successful'), 'success')
  assert.equal(S.smtpVerdict(535, '535 5.7.8 Error: authentication failed'), 'failure')
  assert.equal(S.smtpVerdict(500, '500 5.7.8 Authentication credentials invalid'), 'failure')
  assert.equal(S.smtpVerdict(421, '421 4.7.0 Service not available, closing connection'), 'locked')
  assert.equal(S.smtpVerdict(535, '535 5.7.8 Too many failed login attempts'), 'locked')
  assert.equal(S.smtpVerdict(454, '454 4.7.0 Temporary authentication failure, try again later'), 'temporary')
  assert.equal(S.smtpVerdict(454, '454 4.7.0 Too many authentication failures'), 'locked')
  assert.equal(S.smtpVerdict(530, '530 5.7.0 Must issue a STARTTLS command first'), 'error')
})
test('smtp greeting: "220 ... ESMTP" names a mail server, an FTP greeting does not; plan: smtp kinds and ports', () => {
  assert.ok(S.isSmtpGreeting('220 mx.example.com ESMTP Exim 4.96'))
  assert.ok(!S.isSmtpGreeting('220 (vsFTPd 3.0.5)'))
  assert.equal(loginKind(2600, svc(null, '220 mail.example.com ESMTP ready')), 'smtp')
  assert.equal(loginKind(465, svc('smtps')), 'smtp')
  assert.equal(loginKind(587, svc('submission')), 'smtp')
  assert.equal(loginKind(2525, svc(null)), 'smtp')
})
test('account groups: logins sharing accounts are one group in the order given, the others one each', () => {
  const l = (port: number, accounts?: string) => ({ port, accounts }) as Login
  const groups = accountGroups([l(21), l(465, 'smtp'), l(22), l(25, 'smtp'), l(587, 'smtp')])
  assert.deepEqual(
    groups.map((g) => g.map((x) => x.port)),
    [[21], [465, 25, 587], [22]],
  )
})
