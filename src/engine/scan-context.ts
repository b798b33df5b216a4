// The database-backed ScanContext a worker hands to a tool: tests and findings are written as they
// happen; progress, log lines and output members are buffered briefly and flushed.
import type { Db } from '../store/db.js'
import type { ScanRow, TargetRow } from '../store/schema.js'
import type { Egress } from '../toolkit/egress.js'
import type { FindingInput, RedirectLevel, ScanContext, ScanSettings, TestHandle } from '../toolkit/tool.js'
import { appendLogs, endTest, insertTest, setScanOutput, setScanProgress } from '../store/results.js'
import type { FindingPlace, FindingRecord } from '../store/finding-rows.js'
import { nowIso } from '../store/time.js'
import { keepScanSecret } from '../store/secrets.js'
import { createVulnLookup } from './vuln-lookup.js'
import { createTemplateSource } from './template-source.js'
import { knownNamesOf } from '../store/known-names.js'
import { etaClock, etaMoved } from './eta.js'
import { CoverageRecorder, type PortCoverage } from '../toolkit/coverage.js'
import { cappedFindings, DEFAULT_FINDINGS_PER_CHECK } from './finding-cap.js'

const FLUSH_MS = 300
const MAX_LOG_LINE = 4000

/** The domain's rule that turns what a tool reported into the finding to store (domain/findings.ts). */
export type MakeFinding = (f: FindingInput, at: FindingPlace) => FindingRecord | Promise<FindingRecord>

export interface LiveContext extends ScanContext<unknown> {
  flush(): Promise<void>
  outputData(): Record<string, unknown>
  testsStarted(): number
  /** What the scan looked at so far: ports the tool reported, origins that answered (run-scan.ts). */
  coverage: CoverageRecorder
  /** Writes that failed (kept so the worker can report them, never silently dropped). */
  writeErrors: Error[]
}

type Findings = ReturnType<typeof cappedFindings>

/** What the context buffers and flushes every FLUSH_MS: log lines, output members, progress and its ETA. */
function scanBuffer(db: Db, scanId: number, findings: Findings, deadline: number | undefined) {
  const eta = etaClock(Date.now(), deadline ?? null)
  let etaAt: number | null = null
  let etaWritten: number | null = null
  let logBuffer: string[] = []
  const output: Record<string, unknown> = {}
  let outputDirty = false
  let progress = -1
  let progressWritten = -1
  let timer: NodeJS.Timeout | null = null
  let flushing: Promise<void> = Promise.resolve()
  const writeErrors: Error[] = []

  const schedule = () => {
    if (!timer) timer = setTimeout(() => void flush(), FLUSH_MS)
  }
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer)
    timer = null
    flushing = flushing.then(async () => {
      try {
        const lines = logBuffer
        logBuffer = []
        await appendLogs(db, scanId, lines)
        if (outputDirty) {
          outputDirty = false
          await setScanOutput(db, scanId, output)
        }
        if (progress !== progressWritten || etaAt !== etaWritten) {
          progressWritten = progress
          etaWritten = etaAt
          await setScanProgress(db, scanId, progress, etaAt === null ? null : new Date(etaAt).toISOString())
        }
        await findings.flush()
      } catch (e) {
        writeErrors.push(e as Error)
      }
    })
    return flushing
  }
  return {
    writeErrors,
    flush,
    outputData: () => output,
    progress(done: number, total: number) {
      const fraction = total > 0 ? Math.max(0, Math.min(1, done / total)) : 0
      const p = Math.min(99, Math.floor(fraction * 100))
      const next = eta.at(fraction)
      const moved = etaMoved(etaWritten, next)
      if (moved) etaAt = next
      if (p > progress || moved) {
        progress = Math.max(p, progress)
        schedule()
      }
    },
    log(line: string) {
      logBuffer.push(line.length > MAX_LOG_LINE ? line.slice(0, MAX_LOG_LINE) + '…' : line)
      schedule()
    },
    output(member: string, value: unknown) {
      if (member === 'findings') throw new Error('output member "findings" is reserved')
      output[member] = value
      outputDirty = true
      schedule()
    },
  }
}

/** One test row, written at once; its findings go through the per-check cap. */
async function startTest(
  db: Db,
  scan: ScanRow,
  target: TargetRow,
  findings: Findings,
  name: string,
  description: string,
): Promise<TestHandle> {
  const testId = await insertTest(db, scan.id, name.slice(0, 500), description.slice(0, 4000))
  let found = 0
  let ended = false
  const end = async (status: 'finished' | 'skipped' | 'error', result: 'passed' | 'failed' | 'error' | null, message: string | null) => {
    if (ended) return
    ended = true
    await endTest(db, scan.id, testId, status, result, message)
  }
  return {
    async finding(f: FindingInput) {
      found++
      await findings.write(f, {
        scanId: scan.id,
        targetId: target.id,
        workspaceId: scan.workspace_id,
        testId,
        testDescription: description,
        now: nowIso(),
      })
    },
    done: () => end('finished', found ? 'failed' : 'passed', null),
    error: (message: string) => end('error', 'error', message.slice(0, 2000)),
    skip: (reason: string) => end('skipped', null, reason.slice(0, 2000)),
  }
}

export function createScanContext(opts: {
  db: Db
  scan: ScanRow
  target: TargetRow
  params: unknown
  signal: AbortSignal
  net: Egress
  makeFinding: MakeFinding
  settings?: ScanSettings
  /** When the scan must stop at the latest (epoch ms): the expected end is never later. */
  deadline?: number
  coverage?: CoverageRecorder
  /** Findings of one check stored one by one; the rest make one summarising finding (finding-cap.ts). */
  findingsPerCheck?: number
}): LiveContext {
  const { db, scan, target } = opts
  let tests = 0
  const coverage = opts.coverage ?? new CoverageRecorder()
  const findings = cappedFindings(db, scan.id, opts.findingsPerCheck ?? DEFAULT_FINDINGS_PER_CHECK, opts.makeFinding)
  const buffer = scanBuffer(db, scan.id, findings, opts.deadline)
  return {
    scanId: scan.id,
    target: { id: target.id, name: target.name, type: target.type as 'hostname' | 'ip_address' | 'url' },
    params: opts.params,
    options: { scanOriginalUrl: scan.scan_original_url === 1, redirectLevel: scan.redirect_level as RedirectLevel },
    settings: opts.settings ?? { dnsResolver: null },
    signal: opts.signal,
    deadline: opts.deadline,
    net: opts.net,
    vulns: createVulnLookup(db),
    templates: createTemplateSource(db),
    knownNames: (limit: number) => knownNamesOf(db, scan.workspace_id, limit),
    writeErrors: buffer.writeErrors,
    async test(name: string, description: string): Promise<TestHandle> {
      tests++
      return startTest(db, scan, target, findings, name, description)
    },
    progress: buffer.progress,
    log: buffer.log,
    output: buffer.output,
    cover(c: PortCoverage) {
      coverage.ports(c)
    },
    coverage,
    keepSecret: (label: string, secret: string) => keepScanSecret(db, scan.id, label, secret),
    flush: buffer.flush,
    outputData: buffer.outputData,
    testsStarted: () => tests,
  }
}
