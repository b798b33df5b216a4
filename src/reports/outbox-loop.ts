// The sending loop both outbox senders run (report callbacks, integrations): claim due deliveries
// while fewer than `concurrency` attempts are in flight, attempt each, then sleep until the next
// poll or until an attempt ends. What a sender does on stop beyond ending the loop (a grace period,
// closing its transport) stays with it.
import type { Logger } from 'pino'
import { wakeableSleep } from './wakeable-sleep.js'

export interface OutboxLoopOptions<D extends { id: number }> {
  concurrency: number
  pollMs: number
  log: Logger
  /** Aborted by the sender when it stops: no claim starts after it. */
  stopping: AbortSignal
  claim: () => Promise<D | null>
  attempt: (d: D) => Promise<void>
  /** Log messages: an attempt that threw, and a claim that failed. */
  failed: { attempt: string; claim: string }
}

export interface OutboxLoop {
  /** Ends once `stopping` is aborted (call wake() after aborting, so a pause ends at once). */
  done: Promise<void>
  wake(): void
  /** The attempts in flight. */
  inflight: ReadonlySet<Promise<void>>
}

export function startOutboxLoop<D extends { id: number }>(o: OutboxLoopOptions<D>): OutboxLoop {
  const inflight = new Set<Promise<void>>()
  let wake: () => void = () => {}
  const done = (async () => {
    while (!o.stopping.aborted) {
      try {
        while (!o.stopping.aborted && inflight.size < o.concurrency) {
          const d = await o.claim()
          if (!d) break
          const p: Promise<void> = o
            .attempt(d)
            .catch((e) => o.log.error({ err: e, delivery: d.id }, o.failed.attempt))
            .finally(() => {
              inflight.delete(p)
              wake()
            })
          inflight.add(p)
        }
      } catch (e) {
        o.log.error({ err: e }, o.failed.claim)
      }
      if (o.stopping.aborted) break
      const pause = wakeableSleep(Math.max(20, o.pollMs))
      wake = pause.wake
      await pause.done
    }
  })()
  return { done, wake: () => wake(), inflight }
}
