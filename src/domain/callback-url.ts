// report_callback URL rules: http/https only, no credentials in the URL, inside the callback scope
// (WARD_CALLBACK_BLOCKLIST plus the metadata defaults; any spelling of a blocked address counts).
import { hostBlockedBy, type Scope } from '../toolkit/scope.js'

export function callbackUrlProblem(raw: string, scope: Scope): string | null {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return 'report_callback.url is not a valid URL'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'report_callback.url must use http or https'
  if (u.username || u.password) return 'report_callback.url must not contain credentials; use report_callback.secret to sign deliveries'
  const rule = hostBlockedBy(scope, u.hostname)
  if (rule) return `report_callback.url is blocked: "${u.hostname}" matches the callback block list entry "${rule.text}"`
  return null
}
