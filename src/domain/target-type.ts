// The target type rule of decisions.md: IP literal → ip_address; http(s) URL → url;
// a valid DNS name (RFC 1123 labels, at least one dot, or `localhost`) → hostname; else invalid.
import { domainToASCII } from 'node:url'
import { ipVersion, stripBrackets } from '../toolkit/ip.js'

export type TargetType = 'hostname' | 'ip_address' | 'url'
export type Classified = { ok: true; name: string; nameKey: string; type: TargetType; host: string } | { ok: false; message: string }

const MAX_NAME = 2048
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** The ASCII (punycode) form of a DNS name when valid, else null. */
export function asciiHostname(name: string): string | null {
  const n = name.endsWith('.') ? name.slice(0, -1) : name
  if (!n || n.length > 253) return null
  if (/[\s/\\?#@:%]/.test(n)) return null
  const ascii = /^[\x21-\x7e]+$/.test(n) ? n.toLowerCase() : domainToASCII(n)
  if (!ascii || ascii.length > 253) return null
  if (ascii === 'localhost') return ascii
  const labels = ascii.split('.')
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null
  // An all-numeric last label is an invalid IP, not a name (e.g. 999.1.1.1).
  if (/^\d+$/.test(labels[labels.length - 1])) return null
  return ascii
}

/**
 * A zone id (`fe80::1%eth0`, `http://[fe80::1%25eth0]/`) names an interface of the host it is read
 * on: node's isIP accepts it but the URL parser does not, so it is refused here, in words.
 */
function zoneIdProblem(name: string): string | null {
  const literal = /^https?:\/\/(?:[^@/?#]*@)?\[([^\]/?#]*)\]/i.exec(name)?.[1] ?? (ipVersion(name) === 6 ? stripBrackets(name) : '')
  const i = literal.indexOf('%')
  return i < 0 ? null : `IPv6 zone ids ("${literal.slice(i, i + 40)}") are not supported in target names; give the address without the zone`
}

export function classifyTarget(raw: unknown): Classified {
  if (typeof raw !== 'string') return { ok: false, message: 'name must be a string' }
  const name = raw.trim()
  if (!name) return { ok: false, message: 'name must not be empty' }
  if (name.length > MAX_NAME) return { ok: false, message: `name must be at most ${MAX_NAME} characters` }
  if (/[\u0000-\u001f\u007f]/.test(name)) return { ok: false, message: 'name must not contain control characters' }

  const zone = zoneIdProblem(name)
  if (zone) return { ok: false, message: zone }
  const v = ipVersion(name)
  if (v) {
    const bare = stripBrackets(name)
    const canonical = v === 6 ? new URL(`http://[${bare}]/`).hostname.slice(1, -1) : bare
    return { ok: true, name: bare, nameKey: canonical.toLowerCase(), type: 'ip_address', host: canonical }
  }

  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    if (!/^https?:\/\//i.test(name)) return { ok: false, message: 'URL targets must use http:// or https://' }
    let url: URL
    try {
      url = new URL(name)
    } catch {
      return { ok: false, message: `"${name.slice(0, 100)}" is not a valid URL` }
    }
    if (url.username || url.password) return { ok: false, message: 'URL targets must not contain credentials' }
    const host = stripBrackets(url.hostname)
    if (!ipVersion(host) && !asciiHostname(host))
      return { ok: false, message: `the URL's host "${host.slice(0, 100)}" is not a valid hostname or IP address` }
    return { ok: true, name, nameKey: name, type: 'url', host }
  }

  const ascii = asciiHostname(name)
  if (ascii) return { ok: true, name, nameKey: ascii.replace(/\.$/, ''), type: 'hostname', host: ascii }
  return { ok: false, message: `"${name.slice(0, 100)}" is not a valid hostname, IP address or http(s) URL` }
}
