// The one test recorder tools use: records a test around a step, attaches the step's hits as findings
// (with the test's own port/service/URL where a hit does not say), and turns an exception into the
// test's error (or, when the step says it does not apply, its skip). Counts what it recorded.
import type { ScanContext, TestHandle } from './tool.js'
import { placeHit, type Hit, type HitDefaults } from './hit.js'

/** Thrown by a step (or a probe inside it) when the check does not apply here: the test is skipped. */
export class NotApplicable extends Error {
  override name = 'NotApplicable'
}

/**
 * What a step gives back: its hits (the test failed where there are any, else passed), a string (the
 * reason it does not apply: the test is skipped), or nothing (the hits went through `t.finding`).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a step that reports through t.finding returns nothing (a void function)
export type StepResult = readonly Hit[] | string | void

export interface RecordOptions {
  /** Where the hits are when they do not say. */
  where?: HitDefaults
  /** After recording the error, throw it on (a step the rest of the run cannot do without). */
  rethrow?: boolean
}

export interface RecorderOptions {
  /** A test not yet started when the scan stops is not recorded at all (rather than recorded as an error). */
  quietAfterStop?: boolean
  /** Log one line per finding ("FOUND <vuln_id> <where>"). */
  logHits?: boolean
  /** The message of a test whose step threw (default: the error's message). */
  errorMessage?: (name: string, e: Error) => string
  /** Log a line ("<test name>: <error>") when a step throws. */
  logErrors?: boolean
  /** Called after each test is recorded (progress). */
  onDone?: () => void
}

export interface Recorder {
  /** Records one test named `name` around `step`. */
  test(name: string, description: string, step: (t: TestHandle) => Promise<StepResult> | StepResult, o?: RecordOptions): Promise<void>
  /** Findings attached so far. */
  readonly findings: number
  /** Tests recorded so far. */
  readonly done: number
}

const STOPPED = 'the scan was stopped before this check finished'

export function createRecorder(ctx: Pick<ScanContext<unknown>, 'test' | 'signal' | 'log'>, o: RecorderOptions = {}): Recorder {
  let findings = 0
  let done = 0
  const attach = async (t: TestHandle, hit: Hit, where: HitDefaults | undefined) => {
    const f = placeHit(hit, where)
    findings++
    if (o.logHits)
      ctx.log(`FOUND ${f.check.id} ${f.url ?? (f.port ? `${f.port}/${f.protocol ?? 'tcp'}` : '')}${f.location ? ` (${f.location})` : ''}`)
    await t.finding(f)
  }
  return {
    get findings() {
      return findings
    },
    get done() {
      return done
    },
    async test(name, description, step, r = {}) {
      if (o.quietAfterStop && ctx.signal.aborted) return
      const t = await ctx.test(name, description)
      // Hits a step attaches itself go through the same placement and counting.
      const handle: TestHandle = { ...t, finding: (h) => attach(t, h, r.where) }
      try {
        const result = await step(handle)
        if (typeof result === 'string') await t.skip(result)
        else if (ctx.signal.aborted && result && !result.length) await t.skip(STOPPED)
        else {
          for (const h of result ?? []) await attach(t, h, r.where)
          await t.done()
        }
      } catch (e) {
        const err = e as Error
        if (o.logErrors) ctx.log(`${name}: ${err.message}`)
        if (err instanceof NotApplicable) await t.skip(`not applicable: ${err.message}`)
        else if (ctx.signal.aborted) await t.error(STOPPED)
        else await t.error(o.errorMessage ? o.errorMessage(name, err) : err.message)
        if (r.rethrow) throw err
      } finally {
        done++
        o.onDone?.()
      }
    },
  }
}
