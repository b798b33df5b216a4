// Turns detector hits into test records and findings: one test per check (or check × page).
import type { Check } from '../../toolkit/check.js'
import type { FindingInput, ScanContext } from '../../toolkit/tool.js'
import type { Hit } from './detect/types.js'

export interface Where {
  url: string
  port: number
  service: 'http' | 'https'
}

export interface Recorder {
  /** Records one test; `run` returns the hits, or a string = the reason the test does not apply. */
  test(name: string, description: string, where: Where, run: () => Promise<Hit[] | string> | Hit[] | string): Promise<void>
  readonly findings: number
  /** Tests recorded so far (for progress). */
  readonly done: number
}

export function toFinding(h: Hit, where: Where): FindingInput {
  return {
    check: h.check,
    detail: h.detail,
    evidence: h.evidence,
    port: h.port ?? where.port,
    protocol: 'tcp',
    service: h.service ?? where.service,
    url: h.url ?? where.url,
    location: h.location ?? null,
    cve: h.cve,
    confirmed: h.confirmed ?? false,
    risk: h.risk,
    name: h.name,
    cvss: h.cvss ?? null,
  }
}

export function createRecorder(ctx: ScanContext<unknown>, onDone: () => void): Recorder {
  let findings = 0
  let done = 0
  return {
    get findings() {
      return findings
    },
    get done() {
      return done
    },
    async test(name, description, where, run) {
      if (ctx.signal.aborted) return
      const t = await ctx.test(name, description)
      try {
        const r = await run()
        if (typeof r === 'string') await t.skip(r)
        else if (ctx.signal.aborted && !r.length) await t.skip('the scan stopped before this check completed')
        else {
          for (const h of r) {
            findings++
            ctx.log(`FOUND ${h.check.id} ${h.url ?? where.url}${h.location ? ` (${h.location})` : ''}`)
            await t.finding(toFinding(h, where))
          }
          await t.done()
        }
      } catch (e) {
        await t.error((e as Error).message)
      } finally {
        done++
        onDone()
      }
    },
  }
}

/** Test name of a check: its title without "Missing". */
export const testName = (c: Check) => c.name
