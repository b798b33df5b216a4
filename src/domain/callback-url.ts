// report_callback URL rules: http/https only, no credentials in the URL, not on the block list.
import { blockedBy, type BlockRule } from './blocklist.js'
import { stripBrackets } from '../toolkit/ip.js'

export function callbackUrlProblem(raw: string, blocklist: BlockRule[]): string | null {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return 'report_callback.url is not a valid URL'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'report_callback.url must use http or https'
  if (u.username || u.password) return 'report_callback.url must not contain credentials; use report_callback.secret to sign deliveries'
  const rule = blockedBy(blocklist, stripBrackets(u.hostname))
  if (rule) return `report_callback.url is blocked: "${u.hostname}" matches the callback block list entry "${rule.text}"`
  return null
}
