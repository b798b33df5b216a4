// Runs a Tool against an in-memory ScanContext for tool-level tests (the engine's DB-backed context is
// exercised by the API tests). Network traffic is real, through the real direct egress.
import type { Tool, FindingInput, ScanTarget, RedirectLevel } from '../../src/toolkit/tool.js'
import { createDirectEgress } from '../../src/engine/net/direct.js'
import type { Egress } from '../../src/toolkit/egress.js'
import type { TemplateSource } from '../../src/toolkit/templates.js'
import { resolveToolParams } from '../../src/toolkit/params.js'
import { dedupKey } from '../../src/domain/finding-identity.js'
import { CoverageRecorder, type PortCoverage, type ScanCoverage } from '../../src/toolkit/coverage.js'

export interface HarnessTest {
  name: string
  description: string
  status: 'running' | 'finished' | 'skipped' | 'error'
  result: 'passed' | 'failed' | 'error' | null
  findings: FindingInput[]
  message?: string
}

export interface HarnessResult {
  /** The ports the tool said it probed (cover()); origins are recorded by the engine's egress, not here. */
  coverage: ScanCoverage
  tests: HarnessTest[]
  findings: FindingInput[]
  logs: string[]
  output: Record<string, unknown>
  /** Secrets the tool asked to keep sealed (label → secret). */
  secrets: Array<{ label: string; secret: string }>
  progress: number
  /** Every progress report: the fraction done and when (ms since the start). */
  progressSteps: Array<{ ms: number; fraction: number }>
  error?: Error
  elapsedMs: number
}

export async function runTool(
  tool: Tool<any>,
  opts: {
    target: string | ScanTarget
    params?: unknown
    options?: Partial<{ scanOriginalUrl: boolean; redirectLevel: RedirectLevel }>
    signal?: AbortSignal
    egress?: Egress
    /** Stored templates offered to the tool (ScanContext.templates), as the engine does from the database. */
    templates?: TemplateSource
    /** What ctx.knownNames answers (names Ward knows in the workspace); absent: no such member. */
    knownNames?: string[]
  },
): Promise<HarnessResult> {
  const started = performance.now()
  const target: ScanTarget = typeof opts.target === 'string' ? { id: 1, name: opts.target, type: guessType(opts.target) } : opts.target
  const p = resolveToolParams(tool.params, opts.params)
  if (!p.ok) throw new Error(p.message)
  const tests: HarnessTest[] = []
  const findings: FindingInput[] = []
  const logs: string[] = []
  const output: Record<string, unknown> = {}
  const coverage = new CoverageRecorder()
  const secrets: HarnessResult['secrets'] = []
  let progress = 0
  const progressSteps: HarnessResult['progressSteps'] = []
  const egress = opts.egress ?? createDirectEgress()
  const ctx = {
    scanId: 1,
    target,
    params: p.value,
    options: { scanOriginalUrl: false, redirectLevel: 'same_domain' as RedirectLevel, ...opts.options },
    // As the configuration reads it, at the time of the run (tests set it around one run).
    settings: { dnsResolver: process.env.WARD_DNS_RESOLVER?.trim() || null },
    signal: opts.signal ?? new AbortController().signal,
    net: egress,
    templates: opts.templates,
    ...(opts.knownNames ? { knownNames: async (limit: number) => opts.knownNames!.slice(0, limit) } : {}),
    async test(name: string, description: string) {
      const t: HarnessTest = { name, description, status: 'running', result: null, findings: [] }
      tests.push(t)
      return {
        // As the engine does: a finding with the identity of one already reported in this scan
        // replaces it (the later report knows more).
        async finding(f: FindingInput) {
          const key = identity(f)
          const i = findings.findIndex((x) => identity(x) === key)
          if (i >= 0) {
            for (const other of tests) other.findings = other.findings.filter((x) => x !== findings[i])
            findings[i] = f
          } else findings.push(f)
          t.findings.push(f)
        },
        async done() {
          t.status = 'finished'
          t.result = t.findings.length ? 'failed' : 'passed'
        },
        async error(message: string) {
          t.status = 'error'
          t.result = 'error'
          t.message = message
        },
        async skip(reason: string) {
          t.status = 'skipped'
          t.message = reason
        },
      }
    },
    progress(done: number, total: number) {
      progress = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0
      progressSteps.push({ ms: performance.now() - started, fraction: total > 0 ? done / total : 0 })
    },
    log(line: string) {
      logs.push(line)
    },
    output(member: string, value: unknown) {
      output[member] = value
    },
    cover(c: PortCoverage) {
      coverage.ports(c)
    },
    async keepSecret(label: string, secret: string) {
      secrets.push({ label, secret })
    },
  }
  let error: Error | undefined
  try {
    await tool.run(ctx as any)
  } catch (e) {
    error = e as Error
  } finally {
    if (!opts.egress) await egress.close()
  }
  return {
    tests,
    findings,
    logs,
    output,
    secrets,
    progress,
    progressSteps,
    error,
    elapsedMs: performance.now() - started,
    coverage: coverage.toJSON(),
  }
}

const identity = (f: FindingInput) =>
  dedupKey({ targetId: 1, vulnId: f.check.id, port: f.port ?? null, protocol: f.protocol ?? null, url: f.url, location: f.location })

function guessType(name: string): ScanTarget['type'] {
  if (/^https?:\/\//i.test(name)) return 'url'
  if (/^[\d.]+$/.test(name) || name.includes(':')) return 'ip_address'
  return 'hostname'
}

/** vuln_ids of the findings, sorted and unique: the usual thing to compare with a test bed's truth. */
export const vulnIds = (r: HarnessResult) => [...new Set(r.findings.map((f) => f.check.id))].sort()
