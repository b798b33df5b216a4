// `npm run bench -- pdf-load [--findings 18000] [--parallel 8] [--ward-dir /path/to/other/checkout]`
// Issue 25, fault 5: a scan with ~18,000 findings (a URL fuzzer against a server answering 200 for
// every a<N>.bak, seeded through the store), then `parallel` PDF requests of it at once against
// `ward all` (run as package.json's start script runs it). Measures the child's peak RSS, the API's
// latency (GET /api/v2/scans, one request every 50 ms) during the PDFs, each PDF's time and status,
// and the RSS once idle afterwards. --ward-dir runs another checkout's compiled Ward (before/after).
import fs from 'node:fs'
import path from 'node:path'
import { openDatabase } from '../src/store/db.js'
import { createUser } from '../src/store/accounts.js'
import { insertTarget } from '../src/store/targets.js'
import { buildFinding } from '../src/domain/findings.js'
import { encodeFinding } from '../src/store/finding-rows.js'
import { loadKevSnapshot } from '../src/domain/kev.js'
import { tableEvidence } from '../src/toolkit/evidence.js'
import { urlFuzzerChecks } from '../src/tools/url-fuzzer/checks.js'
import type { NewScan } from '../src/store/schema.js'
import { fmt, machine, parseArgs, rssOf, sampleRss, startChild, stopChild } from './_shared.js'

const ROOT = path.resolve(import.meta.dirname, '..')
const SITE = 'http://127.0.83.50:8080/'

async function seed(file: string, findings: number): Promise<{ key: string; scanId: number }> {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true })
  const h = await openDatabase({ kind: 'sqlite', file }, { secrets: { secretKey: null, secretKeyFile: `${file}.key` } })
  const db = h.db
  const user = await createUser(db, { name: 'pdf-bench', maxTargets: 10 })
  const key = user.apiKey
  const targetId = await insertTarget(db, {
    workspaceId: user.workspaceId,
    userId: user.userId,
    name: SITE,
    nameKey: SITE,
    type: 'url',
    description: '',
  })
  const now = new Date().toISOString()
  const scan = await db
    .insertInto('scans')
    .values({
      workspace_id: user.workspaceId,
      target_id: targetId,
      user_id: user.userId,
      tool_id: 90,
      status: 'finished',
      status_message: null,
      vpn_profile_uuid: null,
      vpn_scan: 0,
      progress: 100,
      num_tests: 1,
      num_finished_tests: 1,
      max_scan_time: 60,
      scan_original_url: 0,
      redirect_level: 'same_domain',
      report_callback: null,
      tool_params: '{}',
      output_data: '{}',
      count_info: 0,
      count_low: 0,
      count_medium: findings,
      count_high: 0,
      count_critical: 0,
      created_at: now,
      start_time: now,
      end_time: now,
      lease_owner: null,
      lease_expires_at: null,
      stop_requested: 0,
      attempts: 1,
    } as NewScan)
    .returning('id')
    .executeTakeFirstOrThrow()
  const test = await db
    .insertInto('tests')
    .values({
      scan_id: scan.id,
      name: 'Backup files',
      description: 'Requests every word with backup suffixes.',
      status: 'finished',
      result: 'failed',
      message: null,
      start_time: now,
      end_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const check = urlFuzzerChecks.find((c) => c.id === 'fuzzer.exposure.backup')!
  const kev = loadKevSnapshot()
  const rows = []
  for (let i = 0; i < findings; i++) {
    const url = `${SITE}a${i}.bak`
    rows.push(
      encodeFinding(
        buildFinding(
          {
            check,
            url,
            port: 8080,
            protocol: 'tcp',
            service: 'http',
            detail: `GET ${url} answered 200 with ${40 + (i % 7) * 26} bytes of application/octet-stream.`,
            evidence: tableEvidence(
              ['Method', 'URL', 'Status', 'Length', 'Content type', 'Redirect'],
              [['GET', url, 200, 40 + (i % 7) * 26, 'application/octet-stream', '']],
            ),
          },
          {
            scanId: scan.id,
            targetId,
            workspaceId: user.workspaceId,
            testId: test.id,
            testDescription: 'Requests every word with backup suffixes.',
            now,
          },
          kev,
        ),
      ),
    )
  }
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('findings')
      .values(rows.slice(i, i + 200))
      .execute()
  await h.close()
  return { key, scanId: scan.id }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const findings = Number(a.get('findings') ?? 18000)
  const parallel = Number(a.get('parallel') ?? 8)
  const wardDir = path.resolve(a.get('ward-dir') ?? ROOT)
  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true })
  const file = path.join(ROOT, '.tmp', `pdf-load-${process.pid}.db`)
  console.log(`pdf-load: ${fmt(findings)} findings, ${parallel} PDFs at once, Ward from ${wardDir}\n${machine()}`)
  const { key, scanId } = await seed(file, findings)
  // As package.json's start script runs it.
  const ward = await startChild(
    process.execPath,
    ['--max-semi-space-size=2', path.join(wardDir, 'bin/ward.js'), 'all'],
    {
      WARD_DATABASE_URL: `sqlite:${file}`,
      PORT: '0',
      HOST: '127.0.0.1',
      WARD_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      WARD_SECRET_KEY_FILE: `${file}.key`,
    },
    /^Ward is listening on/,
  )
  const base = /(http:\/\/\S+\/api\/v2)/.exec(ward.line)![1]!
  const headers = { authorization: `Bearer ${key}` }
  try {
    await new Promise((r) => setTimeout(r, 3000))
    const idle = await rssOf(ward.child.pid!)
    const rss = sampleRss(ward.child.pid!, 50)
    const lat: number[] = []
    let probing = true
    const probe = (async () => {
      while (probing) {
        const t0 = performance.now()
        await (await fetch(`${base}/scans?limit=10`, { headers })).arrayBuffer()
        lat.push(performance.now() - t0)
        await new Promise((r) => setTimeout(r, 50))
      }
    })()
    const t0 = performance.now()
    const pdfs = await Promise.all(
      Array.from({ length: parallel }, async () => {
        const r = await fetch(`${base}/scans/${scanId}/output`, { headers: { ...headers, accept: 'application/pdf' } })
        const body = Buffer.from(await r.arrayBuffer())
        return { status: r.status, ms: performance.now() - t0, bytes: body.length, pdf: body.subarray(0, 5).toString('latin1') === '%PDF-' }
      }),
    )
    probing = false
    await probe
    const peak = await rss.stop()
    const after = await rssOf(ward.child.pid!)
    await new Promise((r) => setTimeout(r, 30_000))
    const idleAfter = await rssOf(ward.child.pid!)
    const mb = (b: number) => `${fmt(b / 2 ** 20)} MB`
    const ok = pdfs.filter((p) => p.status === 200 && p.pdf)
    console.log(
      `idle RSS before: ${mb(idle)}; peak during the PDFs: ${mb(peak)}; right after: ${mb(after)}; idle 30 s later: ${mb(idleAfter)}`,
    )
    console.log(
      `PDFs: ${ok.length}/${parallel} valid (statuses ${pdfs.map((p) => p.status).join(',')}), ${fmt(ok[0]?.bytes ?? 0)} bytes each; done after ${pdfs.map((p) => fmt(p.ms / 1000, 1)).join(', ')} s`,
    )
    console.log(
      `GET /api/v2/scans during the PDFs: ${lat.length} requests, p50 ${fmt(pct(lat, 50))} ms, p99 ${fmt(pct(lat, 99))} ms, max ${fmt(Math.max(...lat))} ms`,
    )
  } finally {
    await stopChild(ward.child)
    for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}.key`]) fs.rmSync(f, { force: true })
  }
}
