// The sending loop both outbox senders run (report callbacks, integrations): claim due deliveries
// while fewer than `concurrency` attempts are in flight, attempt each, then sleep until the next
// poll or until an attempt ends. Stopping ends the loop and waits for the attempts in flight (with a
// grace period when the sender gives one); closing its transport stays with the sender.
import type { Logger } from 'pino'
import { wakeableSleep } from './wakeable-sleep.js'

export interface OutboxLoopOptions<D extends { id: number }> {
  concurrency: number
  pollMs: number
  log: Logger
  /** Aborted on stop (the sender's attempts watch its signal): no claim starts after it. */
  stopping: AbortController
  claim: () => Promise<D | null>
  attempt: (d: D) => Promise<void>
  /** Log messages: an attempt that threw, and a claim that failed. */
  failed: { attempt: string; claim: string }
  /** On stop, how long attempts in flight may still run, and what cuts them short after that. */
  grace?: { ms: number; late: () => void }
}

export interface OutboxLoop {
  /** Ends the loop and waits for the attempts in flight; false when it had already stopped. */
  stop(): Promise<boolean>
}

export function startOutboxLoop<D extends { id: number }>(o: OutboxLoopOptions<D>): OutboxLoop {
  const inflight = new Set<Promise<void>>()
  let wake: () => void = () => {}
  const stopping = o.stopping.signal
  const done = (async () => {
    while (!stopping.aborted) {
      try {
        while (!stopping.aborted && inflight.size < o.concurrency) {
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
      if (stopping.aborted) break
      const pause = wakeableSleep(Math.max(20, o.pollMs))
      wake = pause.wake
      await pause.done
    }
  })()
  return {
    async stop() {
      if (stopping.aborted) return false
      o.stopping.abort()
      wake()
      await done
      const drained = Promise.allSettled([...inflight])
      if (o.grace) {
        let timer: NodeJS.Timeout | undefined
        const late = await Promise.race([
          drained.then(() => false),
          new Promise<boolean>((r) => (timer = setTimeout(() => r(true), o.grace!.ms))),
        ])
        clearTimeout(timer)
        if (late) o.grace.late()
      }
      await drained
      return true
    },
  }
}
