// Paths that carry a secret: a set-password link's token is the whole proof of who may set the
// password, so the request log shows where such a request went, never the token itself.

/** `url` with a set-password token replaced by `[redacted]` (any spelling the router accepts). */
export function redactSecretPath(url: string): string {
  let path = url
  try {
    path = decodeURIComponent(url)
  } catch {}
  // The router also takes `//set-password/...` (duplicate slashes); case-insensitive for safety.
  return /^\/+set-password(?:[/?#]|$)/i.test(path) ? '/set-password/[redacted]' : url
}
