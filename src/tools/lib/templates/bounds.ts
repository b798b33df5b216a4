// The bounds every template request of a scan keeps, whichever tool runs it: the scan's concurrency
// budget for the host (toolkit/budget.ts, shared with the tool's own probes) and the per-host pace of
// tool_params.rate_limit, which the engine takes a slot of before each connection, TLS handshake or
// DNS query (as the Website Scanner's http templates do through createTemplateSender).
import { scanBudget } from '../../../toolkit/budget.js'
import { HostLimiters } from '../http/rate-limit.js'

export interface TemplateBounds {
  /** Given to the engine in the run's env (TemplateTcpEnv, TemplateSslEnv, TemplateDnsEnv). */
  limiter: HostLimiters
  /** Runs one template at one place inside the scan's budget for `host`. */
  run<T>(host: string, fn: () => Promise<T>): Promise<T>
}

export function templateBounds(ctx: { signal: AbortSignal; params: { rate_limit: number } }): TemplateBounds {
  const budget = scanBudget(ctx)
  return { limiter: new HostLimiters(ctx.params.rate_limit), run: (host, fn) => budget.run(host, fn) }
}
