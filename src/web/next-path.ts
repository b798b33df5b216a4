// Where a page sends people after sign-in: only ever a path of this site. Browsers drop tabs and
// newlines from URLs and read `\` as `/`, so `/\t/evil.example` or `/\evil.example` would lead to
// another host; a control character in a Location header is a 500 of its own. Anything but a plain
// path falls back to `/`.

/** `/` then anything but `/` or `\`; no whitespace or control character. */
const PLAIN_PATH = /^\/(?![/\\])[^\s\u0000-\u001f\u007f-\u009f]*$/

/** `v` when it is a same-origin path (and not a sign-in page), else `/`. */
export function sameOriginPath(v: unknown): string {
  // Printable ASCII only: what a browser sends as a path, and what a Location header can carry.
  if (typeof v !== 'string' || v.length > 2048 || !/^[\x21-\x7e]+$/.test(v)) return '/'
  // The path once more percent-decoded, as a proxy or a second decoder might read it (`/%2F/evil`
  // is `//evil`). The query may hold encoded spaces (a search term): it cannot change the host.
  let path: string
  try {
    path = decodeURIComponent(v.split(/[?#]/)[0]!)
  } catch {
    return '/'
  }
  return [v, path].every((p) => PLAIN_PATH.test(p) && !p.startsWith('/sign-')) ? v : '/'
}
