// Which login services the target offers: open TCP ports among the plan, then the service on each
// (within the scan's budget), kept when it is a login kind the audit was asked for.
import type { ScanContext } from '../../../toolkit/tool.js'
import { TargetUnreachableError } from '../../../toolkit/errors.js'
import { scanBudget } from '../../../toolkit/budget.js'
import { discoverTcpPorts } from '../../lib/ports/scan.js'
import { detectService } from '../../lib/services/services.js'
import { loginKind } from '../detect/plan.js'
import type { ServiceKind } from '../params.js'

export interface LoginService {
  port: number
  kind: ServiceKind
  tls: boolean
  product: string | null
}

/** Services identified at once. */
const DETECT_CONCURRENCY = 4

export async function discoverLoginServices(
  ctx: Pick<ScanContext, 'net' | 'signal' | 'log'>,
  host: string,
  ports: readonly number[],
  wanted: ReadonlySet<ServiceKind>,
  onProgress: (done: number, total: number) => void,
): Promise<LoginService[]> {
  const { signal } = ctx
  const states = await discoverTcpPorts(ctx.net, host, ports, { signal, onProgress })
  const open = states.filter((s) => s.state === 'open').map((s) => s.port)
  if (!open.length && !states.some((s) => s.state === 'closed'))
    throw new TargetUnreachableError(`${host} did not answer on any of the ${ports.length} TCP ports scanned`)
  ctx.log(`open TCP ports: ${open.join(', ') || 'none'}`)
  const found: LoginService[] = []
  await scanBudget(ctx).each(open, { limit: DETECT_CONCURRENCY, host, signal }, async (port) => {
    const d = await detectService(ctx.net, host, port, { signal })
    const kind = loginKind(port, d)
    ctx.log(`${port}/tcp ${d.service ?? 'unknown'}${d.product ? ` ${d.product}` : ''}${kind ? ` → ${kind} login` : ''}`)
    if (kind && wanted.has(kind)) found.push({ port, kind, tls: d.tls, product: d.product })
  })
  return found.sort((a, b) => a.port - b.port)
}
