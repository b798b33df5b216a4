// One concurrency budget per scan: how many operations (connects, requests, probe exchanges) a scan
// has in flight at once, in total and per host, whatever step of the tool starts them. Steps ask it
// for slots instead of each keeping a pool of its own, so two steps running side by side cannot
// together exceed what the scan may send to one host.
import { mapLimit } from './limit.js'

export interface BudgetLimits {
  /** Operations in flight for the whole scan. */
  total: number
  /** Operations in flight against one host. */
  perHost: number
}

export const DEFAULT_BUDGET: BudgetLimits = { total: 64, perHost: 16 }

class Slots {
  private used = 0
  private readonly waiting: Array<() => void> = []
  constructor(readonly size: number) {}
  get free() {
    return this.used < this.size
  }
  take() {
    this.used++
  }
  give() {
    this.used--
  }
  wait(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve))
  }
  wakeAll() {
    for (const w of this.waiting.splice(0)) w()
  }
}

export class ScanBudget {
  private readonly total: Slots
  private readonly hosts = new Map<string, Slots>()
  constructor(readonly limits: BudgetLimits = DEFAULT_BUDGET) {
    this.total = new Slots(Math.max(1, limits.total))
  }

  private hostSlots(host: string): Slots {
    let s = this.hosts.get(host)
    if (!s) this.hosts.set(host, (s = new Slots(Math.max(1, this.limits.perHost))))
    return s
  }

  /** Runs `fn` once a slot is free in the scan and for `host`; the slots are given back when it settles. */
  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const h = this.hostSlots(host)
    while (!(this.total.free && h.free)) await (this.total.free ? h.wait() : this.total.wait())
    this.total.take()
    h.take()
    try {
      return await fn()
    } finally {
      this.total.give()
      h.give()
      // Waiters re-check both budgets: a freed scan slot may be usable by a waiter on another host.
      h.wakeAll()
      this.total.wakeAll()
    }
  }

  /**
   * `fn` over `items` with at most `limit` of this call in flight, each inside the scan's budget for
   * `hostOf(item)`; results in input order. Once `signal` aborts no new item starts (results undefined).
   */
  map<T, R>(
    items: readonly T[],
    o: { limit: number; host: string | ((item: T) => string); signal?: AbortSignal },
    fn: (item: T, index: number) => Promise<R>,
  ): Promise<(R | undefined)[]> {
    const hostOf = typeof o.host === 'string' ? () => o.host as string : o.host
    return mapLimit(items, o.limit, o.signal, (item, i) => this.run(hostOf(item), () => fn(item, i)))
  }

  /** Like `map` for steps that need no results. */
  async each<T>(
    items: readonly T[],
    o: { limit: number; host: string | ((item: T) => string); signal?: AbortSignal },
    fn: (item: T, index: number) => Promise<void>,
  ): Promise<void> {
    await this.map(items, o, fn)
  }
}

const budgets = new WeakMap<object, ScanBudget>()

/**
 * The budget of the scan `ctx` belongs to: the same object for every step of one scan (keyed by the
 * scan's stop signal, which the engine creates once per scan), created on first use.
 */
export function scanBudget(ctx: { signal: AbortSignal }, limits?: BudgetLimits): ScanBudget {
  let b = budgets.get(ctx.signal)
  if (!b) budgets.set(ctx.signal, (b = new ScanBudget(limits)))
  return b
}
