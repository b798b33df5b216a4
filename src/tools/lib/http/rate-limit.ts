// Per-host request pacing: each request reserves the next free slot (1/rate apart) and waits for it.
// Slots are absolute, so timer granularity does not add up into a lower or higher average rate.
import { setTimeout as sleep } from 'node:timers/promises'

export class RateLimiter {
  private next = 0
  private readonly interval: number

  constructor(perSecond: number) {
    this.interval = 1000 / perSecond
  }

  /**
   * Undefined when the caller may send now, else a promise that resolves at its slot (rejects when
   * `signal` aborts). Sub-millisecond waits are not worth a timer: the next slot's wait pays the debt.
   */
  take(signal?: AbortSignal): Promise<void> | undefined {
    signal?.throwIfAborted()
    const now = performance.now()
    const slot = Math.max(now, this.next)
    this.next = slot + this.interval
    const wait = slot - now
    return wait >= 1 ? sleep(wait, undefined, { signal }) : undefined
  }
}

/** One limiter per host name, so a redirect to another port of the same host shares the budget. */
export class HostLimiters {
  private readonly byHost = new Map<string, RateLimiter>()
  constructor(private readonly perSecond: number) {}

  take(host: string, signal?: AbortSignal): Promise<void> | undefined {
    let l = this.byHost.get(host)
    if (!l) this.byHost.set(host, (l = new RateLimiter(this.perSecond)))
    return l.take(signal)
  }
}
