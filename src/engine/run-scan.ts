// One scan from claim to its final state: start the tool with its egress and time limits, wait for
// it (with a grace period once aborted), decide the final state, and write the end.
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import type { ScanRow } from '../store/schema.js'
import { getTargetById } from '../store/targets.js'
import { secretsOf } from '../store/secrets.js'
import { openSealedStrings } from '../store/secret-box.js'
import { handBackScan, toolParamsOf, transitionScan } from '../store/scans.js'
import { appendLogs, endOpenTests, endOpenTestsIn, findingsKept, keptWords, setScanOutput } from '../store/results.js'
import { endScanWithCallback } from '../store/callbacks.js'
import { nowIso } from '../store/time.js'
import type { ScanState } from '../store/scan-states.js'
import type { ToolCatalogue } from '../toolkit/tool.js'
import { ToolStartError } from '../toolkit/errors.js'
import { resolveToolParams } from '../toolkit/params.js'
import { createScanContext, type LiveContext, type MakeFinding } from './scan-context.js'
import { abortKind, type AbortKind } from './abort.js'
import { outcomeOf, type RunEnd } from './outcome.js'
import { EgressUnavailableError } from './egress-errors.js'
import { scopesOf } from '../toolkit/scope.js'
import { targetHost } from '../toolkit/ip.js'
import { engineMetrics } from './metrics.js'
import { CoverageRecorder } from '../toolkit/coverage.js'
import { recordingAnswers } from './answer-recording.js'
import { testTally } from '../store/test-tally.js'
import { SCAN_SHUTDOWN_GRACE_MS } from '../toolkit/timeouts.js'

const END_WRITE_ATTEMPTS = 6

export interface RunScanDeps {
  db: Db
  config: Config
  log: Logger
  makeFinding: MakeFinding
  tools: ToolCatalogue
  abort(scanId: number, kind: AbortKind, message: string): void
}

interface ToolRun {
  end: RunEnd
  ctx: LiveContext | null
  closeEgress: () => Promise<void>
}

export async function runScan(deps: RunScanDeps, scan: ScanRow, controller: AbortController): Promise<void> {
  const started = Date.now()
  if (scan.attempts > 1) {
    // The ScanContext is not made yet: this line goes straight to the log, before the tool's own.
    await appendLogs(deps.db, scan.id, [
      `Attempt ${scan.attempts} of ${deps.config.scanMaxAttempts}: the tool starts again; ` +
        'the tests, findings and log lines of earlier attempts are kept, and a finding reported again updates the one kept',
    ]).catch(() => {})
  }
  const run = await runTool(deps, scan, controller.signal)
  const end: RunEnd = {
    ...run.end,
    maxScanTimeMin: scan.max_scan_time,
    hardLimitMin: deps.config.scanHardLimitMin,
    testsStarted: run.ctx?.testsStarted() ?? 0,
  }
  await recordEnd(deps, scan, run.ctx, end, started)
  await run.closeEgress().catch(() => {})
}

/** Starts the tool and waits for it; failures before the tool ran end as `threw`. */
async function runTool(deps: RunScanDeps, scan: ScanRow, signal: AbortSignal): Promise<ToolRun> {
  const { db, config } = deps
  const timers: NodeJS.Timeout[] = []
  const run: ToolRun = { end: ended('threw'), ctx: null, closeEgress: async () => {} }
  try {
    const target = await getTargetById(db, scan.target_id)
    if (!target) throw new ToolStartError('the target was deleted')
    const tool = deps.tools.get(scan.tool_id)
    if (!tool) throw new ToolStartError(`tool ${scan.tool_id} is not available in this Ward`)
    const params = resolveToolParams(tool.params, openSealedStrings(secretsOf(db), toolParamsOf(scan)))
    if (!params.ok) throw new ToolStartError(params.message)
    const scanner = await tool.load()
    // The egress (sockets, HTTP client, proxies) loads with the first scan, not at start.
    const { egressForScan } = await import('./scan-egress.js')
    const egress = await egressForScan(db, scan, tool, signal, { scopes: scopesOf(config), targetHost: targetHost(target.name) })
    run.closeEgress = () => egress.close()
    const minute = config.minuteMs
    // A scan queued again counts its time limits from its first start (as its duration does).
    const spent = scan.attempts > 1 && scan.start_time ? Math.max(0, Date.now() - Date.parse(scan.start_time)) : 0
    if (tool.supportsMaxScanTime)
      timers.push(
        setTimeout(() => deps.abort(scan.id, 'max_scan_time', 'max_scan_time reached'), Math.max(0, scan.max_scan_time * minute - spent)),
      )
    timers.push(
      setTimeout(() => deps.abort(scan.id, 'hard_limit', 'hard limit reached'), Math.max(0, config.scanHardLimitMin * minute - spent)),
    )
    const deadline =
      Date.now() + Math.min(tool.supportsMaxScanTime ? scan.max_scan_time : Infinity, config.scanHardLimitMin) * minute - spent
    const coverage = new CoverageRecorder()
    run.ctx = createScanContext({
      db,
      scan,
      target,
      params: params.value,
      signal,
      net: recordingAnswers(egress, coverage),
      makeFinding: deps.makeFinding,
      settings: { dnsResolver: config.dnsResolver },
      deadline,
      coverage,
      findingsPerCheck: config.findingsPerCheck,
    })
    run.ctx.log(`Ward ${tool.name} (tool ${tool.id}) started on ${target.name}`)
    run.end = await runWithGrace(scanner(run.ctx), signal, config.toolAbortGraceMs)
  } catch (e) {
    // Failures before the tool ran: the scan never really started.
    run.end = { ...ended('threw'), error: e }
  } finally {
    timers.forEach(clearTimeout)
  }
  return run
}

const ended = (how: RunEnd['how'], abort: AbortKind | null = null): RunEnd => ({
  how,
  abort,
  maxScanTimeMin: 0,
  hardLimitMin: 0,
  testsStarted: 0,
  findingsKept: 0,
})

function finalState(end: RunEnd): { state: ScanState; message: string | null } {
  if (end.error instanceof EgressUnavailableError) return { state: 'VPN connection error', message: end.error.message }
  return outcomeOf(end)
}

// Recording the end is retried: a dropped database connection at this moment must not turn a
// finished scan into an aborted one. The scan stays active meanwhile, so its lease is renewed.
// Every step is idempotent (the transition is guarded by the `running` state and this lease).
async function recordEnd(deps: RunScanDeps, scan: ScanRow, ctx: LiveContext | null, end: RunEnd, started: number): Promise<void> {
  const { log } = deps
  const said = { logged: false }
  for (let attempt = 1; ; attempt++) {
    try {
      const state = await writeEnd(deps, scan, ctx, end, started, said)
      log.info({ scan: scan.id, tool: scan.tool_id, state, ms: Date.now() - started }, 'scan ended')
      engineMetrics.toolEnded(scan.tool_id, state, Date.now() - started)
      return
    } catch (e) {
      if (attempt >= END_WRITE_ATTEMPTS) {
        log.error({ err: e, scan: scan.id }, 'could not record the end of a scan (its lease will expire and it will be reaped)')
        return
      }
      log.warn({ err: e, scan: scan.id, attempt }, 'recording the end of a scan failed; retrying')
      await new Promise((r) => setTimeout(r, 200 * attempt))
    }
  }
}

/**
 * The end-of-scan writes: buffered results, output, open tests, then the terminal state — or, for a
 * restartable scan cut short by shutdown, back to the queue. A scan whose lease was lost belongs to
 * the reaper (and perhaps another worker) now: only its buffered log lines are written.
 */
async function writeEnd(
  deps: RunScanDeps,
  scan: ScanRow,
  ctx: LiveContext | null,
  end: RunEnd,
  started: number,
  said: { logged: boolean },
): Promise<string> {
  const { db, log } = deps
  const owner = scan.lease_owner ?? undefined
  if (end.abort === 'lease_lost') {
    await ctx?.flush()
    return 'lease lost'
  }
  const kept = await findingsKept(db, scan.id)
  if (ctx) await ctx.flush()
  // Tests decide whether a scan that returned tested anything (decisions.md, "Scan states").
  const tally = ctx && end.how === 'returned' && !end.abort ? await testTally(db, scan.id) : undefined
  const { state, message } = finalState({ ...end, findingsKept: kept, tally })
  // Only a scan that ran to its own end records what it covered: a finding is closed only where such a scan looked.
  const coverage = state === 'finished' && tally && ctx ? JSON.stringify(ctx.coverage.toJSON()) : null
  const handBack = state === 'aborted' && end.abort === 'shutdown' && deps.tools.get(scan.tool_id)?.restartable === true
  if (ctx && !said.logged) {
    const secs = Math.round((Date.now() - started) / 1000)
    ctx.log(
      handBack
        ? `Ward shut down after ${secs} s: the scan goes back to the queue and restarts on the next worker; ${keptWords(kept)}`
        : `Scan ended: ${state}${message ? ` — ${message}` : ''} after ${secs} s`,
    )
    said.logged = true
  }
  if (ctx) {
    await ctx.flush()
    if (ctx.writeErrors.length) log.error({ scan: scan.id, err: ctx.writeErrors[0] }, 'some scan results could not be written')
    await setScanOutput(db, scan.id, ctx.outputData())
  }
  if (handBack) {
    const moved = await db.transaction().execute(async (trx) => {
      const ok = await handBackScan(
        trx,
        scan.id,
        owner ?? '',
        `Ward shut down while the scan was running; queued again to restart; ${keptWords(kept)}`,
      )
      if (ok) await endOpenTestsIn(trx, scan.id, 'error', 'interrupted: Ward shut down; the scan restarts on the next worker')
      return ok
    })
    if (!moved) log.warn({ scan: scan.id }, 'scan was already ended elsewhere')
    return 'waiting'
  }
  await endOpenTests(db, scan.id, state === 'finished' || state === 'stopped' ? 'skipped' : 'error', `scan ended: ${state}`)
  const set = {
    end_time: nowIso(),
    status_message: message,
    lease_owner: null,
    eta_at: null,
    coverage,
    ...(state === 'finished' ? { progress: 100 } : {}),
  }
  // The outbox row of a report callback is written in the same transaction as the terminal state.
  const moved = await endScanWithCallback(db, scan.id, (trx) => transitionScan(trx, scan.id, state, set, ['running'], owner))
  if (!moved) log.warn({ scan: scan.id, state }, 'scan was already ended elsewhere')
  return state
}

/** Waits for the tool; once the signal aborts, gives it `graceMs` to return before giving up on it. */
function runWithGrace(run: Promise<void>, signal: AbortSignal, graceMs: number): Promise<RunEnd> {
  return new Promise((resolve) => {
    let graceTimer: NodeJS.Timeout | null = null
    const finish = (r: RunEnd) => {
      if (graceTimer) clearTimeout(graceTimer)
      signal.removeEventListener('abort', onAbort)
      resolve(r)
    }
    const onAbort = () => {
      // Shutdown must finish within 10 s: tools get a short grace, then their scans are ended anyway.
      const ms = abortKind(signal) === 'shutdown' ? Math.min(graceMs, SCAN_SHUTDOWN_GRACE_MS) : graceMs
      graceTimer = setTimeout(() => finish(ended('ignored-abort', abortKind(signal))), ms)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    run.then(
      () => finish(ended('returned', abortKind(signal))),
      (error) => finish({ ...ended('threw', abortKind(signal)), error }),
    )
  })
}
