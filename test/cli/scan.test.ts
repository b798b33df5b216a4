// `ward scan`, the CI client, end to end: the command lines of docs/ci.md run as real processes
// (`node bin/ward.js scan ...`, no database, no WARD_DATABASE_URL) against a real Ward listening on
// loopback and the weak web test bed; the server's own export formats; and a small fake server that
// answers like the public service (risk_level 0..3, no GET /tools, a 429 now and then).
// ward-test: single-run
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { spawn } from 'node:child_process'
import { PassThrough } from 'node:stream'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddressInfo } from 'node:net'
import { startWard, type TestWard } from '../helpers/ward.js'
import { startWeakWeb, type WebBed } from '../testbed/weak-web.js'
import { validateSarif } from '../helpers/sarif.js'
import { runScan, type ScanIo } from '../../src/cli/scan/index.js'
import { createProgress } from '../../src/cli/scan/progress.js'
import { NetworkError, V2Client, retryAfterMs } from '../../src/cli/scan/client.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const BED_HOST = '127.0.13.21'
const FAKE_HOST = '127.0.13.22'
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/

let w: TestWard
let bed: WebBed
let server: string
let dir: string

before(async () => {
  w = await startWard()
  await w.app.listen({ host: '127.0.0.1', port: 0 })
  server = `http://127.0.0.1:${(w.app.server.address() as AddressInfo).port}`
  bed = await startWeakWeb(BED_HOST)
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-ci-'))
})
after(async () => {
  await bed?.close()
  await w?.close()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

/** The environment of a CI runner: no Ward server settings at all, only the client's. */
function clientEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('WARD_') && k !== 'DATABASE_URL') env[k] = v
  return { ...env, CI: 'true', WARD_SCAN_POLL_MS: '200', ...extra }
}

function spawnCli(args: string[], env: Record<string, string>, cwd = dir) {
  const p = spawn(process.execPath, [path.join(ROOT, 'bin/ward.js'), 'scan', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  p.stdout.on('data', (d) => (stdout += d))
  p.stderr.on('data', (d) => (stderr += d))
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) =>
    p.on('close', (code) => r({ code, stdout, stderr })),
  )
  return { p, done, stderr: () => stderr }
}

/** Shell-like words of a documented command line ("$TARGET" substituted). */
function words(line: string, vars: Record<string, string>): string[] {
  const out: string[] = []
  for (const m of line.matchAll(/"([^"]*)"|(\S+)/g)) out.push((m[1] ?? m[2]!).replace(/\$\{?(\w+)\}?/g, (_x, v: string) => vars[v] ?? ''))
  return out
}

/** runScan in this process, with captured output and a Ctrl-C we can press. */
async function runInProcess(argv: string[], env: Record<string, string>) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d) => (out += d))
  stderr.on('data', (d) => (err += d))
  let press: (() => void) | null = null
  const io: ScanIo = { env, stdout, stderr, stdin: new PassThrough(), onInterrupt: (h) => ((press = h), () => (press = null)) }
  const code = await runScan(argv, io)
  return { code, stdout: out, stderr: err, press: () => press?.() }
}

test('the command lines of docs/ci.md against a local Ward and the weak web app: exit codes, valid SARIF, JUnit, CSV, readable CI progress; the server gives the same formats', async () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/ci.md'), 'utf8')
  const lines = [...doc.matchAll(/^\s*(?:- |run: )?npx ward scan (.+)$/gm)].map((m) => m[1]!)
  assert.equal(lines.length, 3, 'GitHub Actions, GitLab CI and shell examples')
  const key = w.key
  const runs = await Promise.all(
    lines.map(async (line, i) => {
      const cwd = path.join(dir, `doc-${i}`)
      fs.mkdirSync(cwd)
      const r = await spawnCli(words(line, { TARGET: bed.httpUrl }), clientEnv({ WARD_URL: server, WARD_API_KEY: key }), cwd).done
      return { line, cwd, ...r }
    }),
  )
  for (const r of runs) {
    assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key), 'the key is never printed')
    assert.ok(!CONTROL.test(r.stderr), `CI output has no control characters: ${JSON.stringify(r.stderr)}`)
    const progress = r.stderr.split('\n').filter((l) => /^\[\d+:\d\d\] scan \d+ /.test(l))
    assert.ok(progress.length >= 1, r.stderr)
    assert.match(
      progress.at(-1)!,
      /^\[\d+:\d\d\] scan \d+ finished 100% tests (\d+)\/\1 findings: \d+ critical, \d+ high, \d+ medium, \d+ low, \d+ info$/,
    )
  }

  // Shell step (the "done when"): --fail-on medium against the weak app → exit 1, SARIF valid.
  const shell = runs[2]!
  assert.equal(shell.code, 1, shell.stderr)
  const sarifFile = path.join(shell.cwd, 'out.sarif')
  const v = await validateSarif(sarifFile)
  assert.ok(v.ok, v.output)
  assert.deepEqual(v.warnings, [], v.output)
  const sarif = JSON.parse(fs.readFileSync(sarifFile, 'utf8'))
  const results = sarif.runs[0].results
  assert.ok(results.length >= 10)
  assert.ok(results.some((x: any) => x.ruleId === 'website.headers.csp-missing'))
  for (const x of results) assert.match(x.partialFingerprints['wardFinding/v1'], /^[0-9a-f]{64}$/)
  const csv = fs.readFileSync(path.join(shell.cwd, 'findings.csv'), 'utf8')
  assert.equal(csv.trimEnd().split('\r\n').length, results.length + 1)

  // GitHub: --fail-on high; the exit code follows the findings; the Markdown summary is there.
  const gh = runs[0]!
  const ghSarif = JSON.parse(fs.readFileSync(path.join(gh.cwd, 'ward.sarif'), 'utf8'))
  const high = ghSarif.runs[0].results.some((x: any) => x.properties.risk_level >= 3)
  assert.equal(gh.code, high ? 1 : 0, gh.stderr)
  assert.match(fs.readFileSync(path.join(gh.cwd, 'ward-summary.md'), 'utf8'), /^## Ward scan \d+: Website Scanner on /)
  // Alerts are stable across runs: two scans of the same app give the same fingerprints.
  const fps = (s: any) => new Set(s.runs[0].results.map((x: any) => x.partialFingerprints['wardFinding/v1']))
  assert.deepEqual(fps(ghSarif), fps(sarif))

  // GitLab: JUnit with a test case per test record.
  const gl = runs[1]!
  const json = JSON.parse(fs.readFileSync(path.join(gl.cwd, 'ward.json'), 'utf8'))
  const junit = fs.readFileSync(path.join(gl.cwd, 'ward-junit.xml'), 'utf8')
  assert.ok(json.tests.length > 0)
  assert.equal(
    (junit.match(/<testcase /g) ?? []).length,
    json.tests.length + (json.findings.some((f: any) => !json.tests.some((t: any) => t.finding_ids.includes(f.id))) ? 1 : 0),
  )
  assert.equal(gl.code, json.findings.some((f: any) => f.risk_level >= 3) ? 1 : 0)

  // The server's own formats for the shell step's scan: same SARIF results and fingerprints.
  const id = sarif.runs[0].properties.scan_id
  const get = (accept: string) => w.req('GET', `/api/v2/scans/${id}/output`, { headers: { accept } })
  const sSarif = await get('application/sarif+json')
  assert.equal(sSarif.statusCode, 200)
  assert.match(String(sSarif.headers['content-type']), /^application\/sarif\+json(;|$)/)
  assert.deepEqual(fps(sSarif.json()), fps(sarif))
  const sCsv = await get('text/csv')
  assert.match(String(sCsv.headers['content-type']), /^text\/csv/)
  assert.equal(sCsv.body.trimEnd().split('\r\n').length, results.length + 1)
  assert.ok(((await get('application/xml')).body.match(/<testcase /g) ?? []).length > 0)
  assert.match(
    (await get('text/markdown')).body,
    new RegExp(
      `^## Ward scan ${id}: Website Scanner on [^\\n]+\\n\\nStatus: finished \\(\\d+ of ${json.tests.length} tests could not run&#58; [^\\n]+\\)\\. Tests: ${json.tests.length}\\. Findings: ${results.length}\\.`,
    ),
  )
  const j = await get('application/json')
  assert.equal(j.headers['content-type'], 'application/json')
  assert.equal(j.json().data.output_data.findings.length, results.length)
  const no = await get('text/html')
  assert.equal(no.statusCode, 406)
  for (const t of ['application/json', 'application/pdf', 'application/sarif+json', 'text/csv', 'application/xml', 'text/markdown'])
    assert.ok(no.json().message.includes(t), no.body)
  const fcsv = await w.req('GET', `/api/v2/findings?task_id=${id}`, { headers: { accept: 'text/csv' } })
  assert.match(String(fcsv.headers['content-type']), /^text\/csv/)
  // The same rows (GET /findings lists newest first, the scan output by severity).
  const rows = (t: string) => t.trimEnd().split('\r\n').sort()
  assert.deepEqual(rows(fcsv.body), rows(sCsv.body))
  assert.equal((await w.req('GET', `/api/v2/findings?task_id=${id}`)).headers['content-type'], 'application/json')
  const doc2 = (await w.req('GET', '/api/v2/openapi.json')).json()
  const content = doc2.paths['/api/v2/scans/{id}/output'].get.responses['200'].content
  assert.deepEqual(Object.keys(content).sort(), [
    'application/json',
    'application/pdf',
    'application/sarif+json',
    'application/xml',
    'text/csv',
    'text/markdown',
  ])
  assert.ok(doc2.paths['/api/v2/findings'].get.responses['200'].content['text/csv'])
})

test("usage errors exit 3: the binary without a server (no database, no WARD_DATABASE_URL), and bad options checked against the server's GET /tools", async () => {
  const r = await spawnCli([bed.httpUrl, '--tool', 'website'], clientEnv()).done
  assert.equal(r.code, 3, r.stderr)
  assert.match(r.stderr, /no server: give --server URL or set WARD_URL/)
  const env = clientEnv({ WARD_URL: server, WARD_API_KEY: w.key })
  const cases: Array<[string[], RegExp]> = [
    [[bed.httpUrl, '--tool', 'website', '--param', 'scan_type=fast'], /scan_type: must be one of light, deep/],
    [
      [bed.httpUrl, '--tool', 'website', '--param', 'nope=1'],
      /unknown parameter "nope" \(known: scan_type, rate_limit, authentication, templates\)/,
    ],
    [[bed.httpUrl, '--tool', 'nosuch'], /unknown tool "nosuch"/],
    [[bed.httpUrl, '--tool', '999'], /the server has no tool 999; it offers 20 \(/],
    [[bed.httpUrl, '--tool', 'website', '--fail-on', 'severe'], /Allowed choices are info, low, medium, high, critical/],
    [[bed.httpUrl, '--tool', 'website', '--format', 'pdf'], /--format "pdf": use sarif, junit, json, csv, markdown/],
    [[bed.httpUrl, '--tool', 'website', '--format', 'sarif', '--format', 'csv'], /only one --format may go to stdout/],
    [[bed.httpUrl, '--tool', 'website', '--max-scan-time', '0'], /--max-scan-time "0": expected a whole number from 1 to 1440/],
    [[bed.httpUrl, '--tool', 'website', '--timeout', 'soon'], /--timeout "soon"/],
    [[bed.httpUrl, '--tool', 'website', '--bogus'], /unknown option '--bogus'/],
  ]
  const before = (await w.req('GET', '/api/v2/scans')).json().data.length
  for (const [argv, msg] of cases) {
    const x = await runInProcess(argv, env)
    assert.equal(x.code, 3, `${argv.join(' ')}: ${x.stderr}`)
    assert.match(x.stderr, msg)
  }
  assert.equal((await w.req('GET', '/api/v2/scans')).json().data.length, before, 'no scan was started')
  // A refused key is the server refusing: exit 2.
  const refused = await runInProcess([bed.httpUrl, '--tool', 'website'], { ...env, WARD_API_KEY: 'ward_wrong' })
  assert.equal(refused.code, 2)
  assert.match(refused.stderr, /the server refused: HTTP 401/)
  assert.ok(!refused.stderr.includes('ward_wrong'))
})

// ---------------------------------------------------------------- a server like the public service

interface Fake {
  base: string
  requests: Array<{ method: string; url: string; body: any }>
  close(): Promise<void>
}

/** Answers like the public service: risk_level 0..3, result_summary without critical, no /tools, no url on findings. */
async function startFake(script: { statuses: string[]; createStatus?: number; rateLimitOnce?: boolean }): Promise<Fake> {
  const requests: Fake['requests'] = []
  let polls = 0
  let limited = false
  const findings = [0, 1, 2, 3].map((lvl) => ({
    id: 100 + lvl,
    name: `Finding of level ${lvl}`,
    test_description: 't',
    test_finished: true,
    confirmed: false,
    in_cisa_catalog: false,
    cve: [],
    vuln_description: 'd',
    vuln_evidence: { type: 'text', data: { text: 'e' } },
    risk_description: 'r',
    risk_level: lvl,
    status: 'open',
    recommendation: 'Fix it',
    references: ['https://example.com/ref'],
    verified: false,
    vuln_id: `public.check-${lvl}`,
    owasp: { owasp_2017: '', owasp_2021: '', owasp_2025: '' },
    cwe: '',
    port: 443,
    protocol: 'tcp',
    service: 'https',
  }))
  const srv = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, body: body ? JSON.parse(body) : null })
      const send = (status: number, obj?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers })
        res.end(obj === undefined ? undefined : JSON.stringify(obj))
      }
      const u = req.url!.replace(/\/+$/, '')
      if (req.headers.authorization !== 'Bearer public-key') return send(401, { status: 401, message: 'Invalid API key' })
      if (req.method === 'POST' && u === '/api/v2/scans') {
        if (script.createStatus) return send(script.createStatus, { status: script.createStatus, message: 'Target is blacklisted' })
        return send(201, { data: { created_id: 1, target_id: 9 } })
      }
      if (req.method === 'GET' && u === '/api/v2/scans/1') {
        if (script.rateLimitOnce && !limited) {
          limited = true
          return send(429, { status: 429, message: 'Too many requests' }, { 'retry-after': '1' })
        }
        const st = script.statuses[Math.min(polls++, script.statuses.length - 1)]!
        const done = !['waiting', 'running'].includes(st)
        return send(200, {
          data: {
            id: 1,
            tool_id: 170,
            target_id: 9,
            status_name: st,
            vpn_scan: false,
            progress: done ? 100 : 50,
            result_summary: { text: '', high: 1, medium: 1, low: 1, info: 1 },
            start_time: '2026-11-23T09:00:00Z',
            end_time: done ? '2026-11-23T09:00:30Z' : null,
            duration: 30,
            num_tests: 2,
            num_finished_tests: done ? 2 : 1,
            status_message: '',
          },
        })
      }
      if (req.method === 'GET' && u === '/api/v2/scans/1/output')
        return send(200, { data: { output_type: 'finding_list', output_data: { findings } } })
      if (req.method === 'GET' && u === '/api/v2/scans/1/tests')
        return send(200, {
          data: [
            {
              id: 5,
              scan_id: 1,
              name: 'Checks',
              description: '',
              status: 'finished',
              result: 'failed',
              finding_ids: [100, 101, 102, 103],
              start_time: null,
              end_time: null,
            },
          ],
        })
      if (req.method === 'POST' && u === '/api/v2/scans/1/stop') return send(204)
      send(404, { status: 404, message: 'Not found' })
    })
  })
  await new Promise<void>((r) => srv.listen(0, FAKE_HOST, r))
  return {
    base: `http://${FAKE_HOST}:${(srv.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => srv.close(() => r())),
  }
}

test('against a server answering like the public service (risk_level 0..3, no GET /tools, a 429 with Retry-After): scan, reports, exit 1', async () => {
  const fake = await startFake({ statuses: ['waiting', 'running', 'finished'], rateLimitOnce: true })
  try {
    const out = path.join(dir, 'public')
    const x = await runInProcess(
      [
        'https://shop.example.test/',
        '--tool',
        'website',
        '--param',
        'scan_type=deep',
        '--param',
        'depth=3',
        '--fail-on',
        'high',
        '--format',
        'sarif',
        '--output',
        path.join(out, 'p.sarif'),
        '--format',
        'junit',
        '--output',
        path.join(out, 'p.xml'),
        '--format',
        'markdown',
      ],
      clientEnv({ WARD_URL: fake.base + '/', WARD_API_KEY: 'public-key', WARD_SCAN_POLL_MS: '50' }),
    )
    assert.equal(x.code, 1, x.stderr)
    const create = fake.requests.find((r) => r.method === 'POST')!
    assert.deepEqual(create.body, { tool_id: 170, target_name: 'https://shop.example.test/', tool_params: { scan_type: 'deep', depth: 3 } })
    assert.ok(
      fake.requests.some((r) => r.url === '/api/v2/tools'),
      'asked for the tools, got 404, carried on',
    )
    assert.match(x.stderr, /rate limited \(429\): retrying in 1s/)
    assert.match(x.stderr, /\[0:\d\d\] scan 1 running 50% tests 1\/2 findings: 0 critical, 1 high, 1 medium, 1 low, 1 info/)
    assert.match(x.stderr, /1 finding\(s\) at or above high: failing \(exit 1\)/)
    assert.match(x.stdout, /\| 0 \| 1 \| 1 \| 1 \| 1 \|/) // the Markdown went to stdout
    const v = await validateSarif(path.join(out, 'p.sarif'))
    assert.ok(v.ok, v.output)
    const sarif = JSON.parse(fs.readFileSync(path.join(out, 'p.sarif'), 'utf8'))
    assert.deepEqual(
      sarif.runs[0].results.map((r: any) => r.level),
      ['note', 'note', 'warning', 'error'],
    )
    assert.equal((fs.readFileSync(path.join(out, 'p.xml'), 'utf8').match(/<failure /g) ?? []).length, 1)
    // --fail-on critical never trips on a 0..3 scale.
    const y = await runInProcess(
      ['https://shop.example.test/', '--tool', '170', '--fail-on', 'critical'],
      clientEnv({ WARD_URL: fake.base, WARD_API_KEY: 'public-key', WARD_SCAN_POLL_MS: '50' }),
    )
    assert.equal(y.code, 0, y.stderr)
  } finally {
    await fake.close()
  }
})

test('exit 2: the scan ends "connection error", or the server refuses the scan', async () => {
  const env = (base: string) => clientEnv({ WARD_URL: base, WARD_API_KEY: 'public-key', WARD_SCAN_POLL_MS: '50' })
  const fake = await startFake({ statuses: ['running', 'connection error'] })
  try {
    const x = await runInProcess(
      [
        'https://down.example.test/',
        '--tool',
        'website',
        '--fail-on',
        'critical',
        '--format',
        'json',
        '--output',
        path.join(dir, 'down.json'),
      ],
      env(fake.base),
    )
    assert.equal(x.code, 2, x.stderr)
    assert.match(x.stderr, /the scan did not finish: connection error \(exit 2\)/)
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'down.json'), 'utf8')).scan.status_name, 'connection error')
  } finally {
    await fake.close()
  }
  const refusing = await startFake({ statuses: ['finished'], createStatus: 403 })
  try {
    const x = await runInProcess(['https://blocked.example.test/', '--tool', 'website'], env(refusing.base))
    assert.equal(x.code, 2)
    assert.match(x.stderr, /the server refused: HTTP 403: Target is blacklisted/)
  } finally {
    await refusing.close()
  }
})

test('Ctrl-C without a terminal stops the remote scan and exits 130; --timeout stops it and exits 2', async () => {
  const fake = await startFake({ statuses: ['running'] })
  try {
    const c = spawnCli(
      ['https://slow.example.test/', '--tool', 'website'],
      clientEnv({ WARD_URL: fake.base, WARD_API_KEY: 'public-key', WARD_SCAN_POLL_MS: '100' }),
    )
    const until = Date.now() + 30_000
    while (!/scan 1 running/.test(c.stderr()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
    c.p.kill('SIGINT')
    const r = await c.done
    assert.equal(r.code, 130, r.stderr)
    assert.match(r.stderr, /interrupted: scan 1 stopped/)
    assert.ok(fake.requests.some((q) => q.method === 'POST' && q.url === '/api/v2/scans/1/stop'))

    const t = await runInProcess(
      ['https://slow.example.test/', '--tool', 'website', '--timeout', '300ms'],
      clientEnv({ WARD_URL: fake.base, WARD_API_KEY: 'public-key', WARD_SCAN_POLL_MS: '50' }),
    )
    assert.equal(t.code, 2, t.stderr)
    assert.match(t.stderr, /timed out after 0:00: stopping scan 1/)
    assert.equal(fake.requests.filter((q) => q.url === '/api/v2/scans/1/stop').length, 2)
  } finally {
    await fake.close()
  }
})

test('progress on a terminal is one line redrawn in place; in CI one plain line per change', () => {
  const chunks: string[] = []
  const tty = Object.assign(new PassThrough(), { columns: 120 })
  tty.on('data', (d) => chunks.push(String(d)))
  const state = {
    scanId: 3,
    status: 'running',
    progress: 45,
    tests: 20,
    testsDone: 9,
    elapsedS: 34,
    counts: { critical: 0, high: 1, medium: 2, low: 0, info: 3 },
  }
  const p = createProgress(tty, 'tty')
  p.update(state)
  p.update({ ...state, progress: 50 })
  p.done()
  const text = chunks.join('')
  assert.ok(text.startsWith('\r\x1b[2K[#########-----------]  45% tests 9/20 0:34 running | C0 H1 M2 L0 I3'), JSON.stringify(text))
  assert.equal(text.split('\n').length, 2, 'one line, ended once')
  const t2: string[] = []
  const tty2 = Object.assign(new PassThrough(), { columns: 120 })
  tty2.on('data', (d) => t2.push(String(d)))
  createProgress(tty2, 'tty').update({ ...state, etaS: 80 })
  assert.ok(t2.join('').endsWith('| C0 H1 M2 L0 I3 ~1:20 left'), JSON.stringify(t2.join('')))

  const plainChunks: string[] = []
  const log = new PassThrough()
  log.on('data', (d) => plainChunks.push(String(d)))
  const q = createProgress(log, 'plain')
  q.update(state)
  q.update({ ...state, elapsedS: 36 }) // only time moved: no new line
  q.update({ ...state, status: 'running\x1b[31m', progress: 50 }) // server text cannot smuggle escapes
  const waiting = {
    ...state,
    status: 'waiting',
    progress: 0,
    testsDone: 0,
    tests: 0,
    counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
  }
  q.update({ ...waiting, message: 'waiting for a worker slot: 2nd in queue' })
  q.update({ ...waiting, message: 'waiting for a worker slot: 2nd in queue', elapsedS: 40 })
  q.update({ ...waiting, message: 'waiting for a worker slot: 1st in queue' })
  q.update({ ...state, etaS: 61 })
  q.update({ ...state, etaS: 59 }) // only the estimate moved: no new line
  assert.deepEqual(plainChunks.join('').split('\n').filter(Boolean), [
    '[0:34] scan 3 running 45% tests 9/20 findings: 0 critical, 1 high, 2 medium, 0 low, 3 info',
    '[0:34] scan 3 running [31m 50% tests 9/20 findings: 0 critical, 1 high, 2 medium, 0 low, 3 info',
    '[0:34] scan 3 waiting 0% tests 0/0 findings: 0 critical, 0 high, 0 medium, 0 low, 0 info (waiting for a worker slot: 2nd in queue)',
    '[0:34] scan 3 waiting 0% tests 0/0 findings: 0 critical, 0 high, 0 medium, 0 low, 0 info (waiting for a worker slot: 1st in queue)',
    '[0:34] scan 3 running 45% tests 9/20 findings: 0 critical, 1 high, 2 medium, 0 low, 3 info ~1:01 left',
  ])
})

test('HTTP client: a dropped connection is retried with backoff for a GET, never for a POST that may have arrived; Retry-After in seconds or as a date', async () => {
  let n = 0
  const srv = http.createServer((req, res) => {
    n++
    if (n === 1 || req.method === 'POST') return req.socket.destroy()
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"data":{"ok":true}}')
  })
  await new Promise<void>((r) => srv.listen(0, FAKE_HOST, r))
  try {
    const waits: number[] = []
    const c = new V2Client(`http://${FAKE_HOST}:${(srv.address() as AddressInfo).port}`, 'k', {
      backoffMs: 10,
      onRetry: (_why, ms) => waits.push(ms),
    })
    assert.deepEqual(await c.data('GET', '/scans/1'), { ok: true })
    assert.equal(waits.length, 1)
    await assert.rejects(c.data('POST', '/scans', {}), NetworkError)
    assert.equal(n, 3, 'the POST was sent once')
  } finally {
    await new Promise((r) => srv.close(r))
  }
  assert.equal(retryAfterMs('2'), 2000)
  assert.equal(retryAfterMs(new Date(Date.parse('2026-11-23T10:00:05Z')).toUTCString(), Date.parse('2026-11-23T10:00:00Z')), 5000)
  assert.equal(retryAfterMs('soon'), null)
})
