// IP literal helpers shared by the target rules, the egress and the tools (tools may not import node:net
// themselves: isIP is the one pure function they need from it, so it is wrapped here).
import { isIP as nodeIsIP } from 'node:net'

/** 4, 6, or 0 when `s` is not an IP literal. Accepts bracketed IPv6 ("[::1]"). */
export function ipVersion(s: string): 0 | 4 | 6 {
  const bare = s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s
  return nodeIsIP(bare) as 0 | 4 | 6
}

export const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host)

/** The host part of a target name: the URL's host for URLs, the name itself otherwise. */
export function targetHost(name: string): string {
  if (/^https?:\/\//i.test(name)) return stripBrackets(new URL(name).hostname)
  return stripBrackets(name)
}
