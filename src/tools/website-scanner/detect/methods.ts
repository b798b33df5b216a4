// HTTP methods: TRACE echo, and write methods advertised by OPTIONS.
import { textEvidence } from '../../../toolkit/evidence.js'
import { traceEnabled, unsafeMethods } from '../checks.js'
import type { Hit } from './types.js'

export interface TraceObs {
  url: string
  status: number
  body: string
  /** Header sent with the TRACE request; an echo proves TRACE is handled. */
  marker: string
}

export function detectTrace(o: TraceObs | null): Hit[] {
  if (o?.status !== 200 || !o.body.includes(o.marker)) return []
  return [{ check: traceEnabled, confirmed: true, evidence: textEvidence(`TRACE ${o.url} → ${o.status}\n\n${o.body.slice(0, 600)}`) }]
}

export interface OptionsObs {
  url: string
  status: number
  allow?: string
  public?: string
}

const UNSAFE = ['PUT', 'DELETE', 'MKCOL', 'MOVE', 'COPY', 'PROPPATCH', 'LOCK']

export function detectUnsafeMethods(o: OptionsObs | null): Hit[] {
  if (!o || o.status >= 400) return []
  const listed = `${o.allow ?? ''},${o.public ?? ''}`
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean)
  const bad = UNSAFE.filter((m) => listed.includes(m))
  if (!bad.length) return []
  return [
    {
      check: unsafeMethods,
      detail: `OPTIONS lists ${bad.join(', ')}.`,
      evidence: textEvidence(`OPTIONS ${o.url} → ${o.status}\nallow: ${o.allow ?? '(not sent)'}${o.public ? `\npublic: ${o.public}` : ''}`),
    },
  ]
}
