// The canonical form of a finding's location, part of its identity: the dedup key Ward stores
// (domain/finding-identity.ts) and the fingerprints of exports (formats/fingerprint.ts) share it.

// A scheme followed by "//": only these are parsed as URLs. "host:8080" or "C:\path" stay plain.
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i

/**
 * Canonical form of a finding location.
 *
 * For URLs (`scheme://...`), keeps scheme + host + port + path:
 * - scheme and host lower-cased; `www.example.com` stays distinct from `example.com`; a trailing
 *   root dot on the host is dropped (`example.com.` is the same DNS name);
 * - IDN hosts in punycode (`bücher.example` → `xn--bcher-kva.example`); IPv6 bracketed and
 *   compressed (`[2001:db8::1]`); IPv4 in dotted form;
 * - default ports removed (80 for http/ws, 443 for https/wss, 21 for ftp); other ports kept;
 * - credentials, query and fragment dropped: they are not where the problem is, and credentials
 *   must never end up in a key;
 * - path: dot segments resolved, percent-encoding normalised (escapes of unreserved characters
 *   decoded, other escapes upper-cased, non-ASCII UTF-8 encoded) so `/caf%c3%a9`, `/café` and
 *   `/caf%C3%A9` are one path; case is kept, since paths are case-sensitive;
 * - the trailing slash is kept as-is: `/admin` and `/admin/` are different resources to many
 *   servers (one may redirect, the other list a directory), so they are different locations.
 *   An empty path becomes `/` (`https://a.example` ≡ `https://a.example/`).
 *
 * Anything else (a host:port, a file path, a DNS record name, or a string that fails to parse as
 * a URL) is returned trimmed and otherwise untouched.
 */
export function normaliseLocation(location: string): string {
  const trimmed = location.trim()
  if (!URL_LIKE.test(trimmed)) return trimmed
  let u: URL
  try {
    u = new URL(trimmed)
  } catch {
    return trimmed
  }
  // Non-special schemes ("foo://") have opaque hosts we should not reinterpret.
  if (!u.host) return trimmed
  const host = u.hostname.endsWith('.') && !u.hostname.startsWith('[') ? u.hostname.slice(0, -1) : u.hostname
  const port = u.port ? `:${u.port}` : '' // WHATWG URL already drops the scheme's default port
  const path = normalisePercentEncoding(u.pathname || '/')
  return `${u.protocol}//${host}${port}${path}`
}

const UNRESERVED = /[A-Za-z0-9\-._~]/

/** Decodes escapes of unreserved characters (RFC 3986 §6.2.2.2) and upper-cases the rest. */
function normalisePercentEncoding(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16))
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`
  })
}
