// Paths that carry a secret: a set-password link's token is the whole proof of who may set the
// password (an invitation link's, of who may join a workspace), so the request log shows where such a request went, never the token itself.

/** `url` with a set-password token replaced by `[redacted]` (any spelling the router accepts). */
export function redactSecretPath(url: string): string {
  let path = url
  try {
    path = decodeURIComponent(url)
  } catch {}
  // The router also takes `//set-password/...` (duplicate slashes); case-insensitive for safety.
  if (/^\/+set-password(?:[/?#]|$)/i.test(path)) return '/set-password/[redacted]'
  // An invitation link's token lets whoever holds it join a workspace.
  if (/^\/+invite(?:[/?#]|$)/i.test(path)) return '/invite/[redacted]'
  // Sign-in carries where to go next, which may be an invitation link.
  return /^\/+sign-in\?.*next=[^&]*invite/i.test(path) ? '/sign-in?next=[redacted]' : url
}
