// The login step of a web tool's scan: one "Authentication" test, then the authenticated egress.
import type { Egress } from '../../../../toolkit/egress.js'
import type { ScanContext } from '../../../../toolkit/tool.js'
import { AuthFailedError } from '../../../../toolkit/errors.js'
import { targetHost } from '../../../../toolkit/ip.js'
import { authenticate } from './session.js'
import type { Authentication } from './params.js'

const KIND = {
  form: 'form login',
  basic: 'HTTP Basic',
  digest: 'HTTP Digest',
  cookie: 'a session cookie',
  headers: 'extra request headers',
} as const

/** The URL whose host receives the credentials: the target's URL, or http://host/ for a host target. */
export function targetUrl(name: string): URL {
  if (/^https?:\/\//i.test(name)) return new URL(name)
  const host = targetHost(name)
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}/`)
}

/** ctx.net as is without `auth`; else logs in (recording the test) and returns the session's egress. */
export async function loginForScan(ctx: ScanContext<unknown>, auth: Authentication | undefined): Promise<Egress> {
  if (!auth) return ctx.net
  const t = await ctx.test(
    'Authentication',
    `Logs in with ${KIND[auth.type]} before scanning, checks the session, and logs in again if it ` +
      'ends; the scan ends "auth failed" when the credentials are rejected',
  )
  try {
    const s = await authenticate(ctx.net, auth, { target: targetUrl(ctx.target.name), signal: ctx.signal, log: ctx.log })
    ctx.log(`auth: ${s.summary}`)
    await t.done()
    return s.net
  } catch (e) {
    await t.error(e instanceof AuthFailedError ? e.message : `login failed: ${(e as Error).message}`)
    throw e
  }
}
