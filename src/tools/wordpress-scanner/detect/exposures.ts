// What each exposure probe's answer means, judged by content so a site that answers 200 to
// everything reports nothing. Pure.
import type { Answer } from '../../lib/cms/answer.js'

const ok = (a: Answer | null): a is Answer => !!a && a.status === 200

/** xmlrpc.php answered system.listMethods with a method list. */
export const xmlrpcMethods = (a: Answer | null): string[] | null => {
  if (!ok(a) || !a.body.includes('<methodResponse')) return null
  const methods: string[] = []
  for (let at = a.body.indexOf('<string>'); at >= 0 && methods.length < 500; at = a.body.indexOf('<string>', at + 8)) {
    const end = a.body.indexOf('</string>', at)
    if (end < 0) break
    methods.push(a.body.slice(at + 8, end).trim())
  }
  return methods
}

/** wp-cron.php runs for anyone: 200 with an empty (or near-empty) body. */
export const cronPublic = (a: Answer | null) => ok(a) && a.body.trim().length < 64 && !/<html/i.test(a.body)

/** debug.log: PHP log lines. */
export const debugLogServed = (a: Answer | null) =>
  ok(a) &&
  /PHP (Notice|Warning|Fatal error|Deprecated|Parse error)|\[\d{2}-[A-Z][a-z]{2}-\d{4} /.test(a.body.slice(0, 65536)) &&
  !/<html/i.test(a.body.slice(0, 512))

/** A directory listing of uploads/. */
export const uploadsListed = (a: Answer | null) => ok(a) && /<title>\s*Index of \//i.test(a.body.slice(0, 4096))

/** A wp-config copy served as text: its defines are readable. */
export const configCopy = (a: Answer) =>
  a.status === 200 && /define\s*\(\s*['"](DB_PASSWORD|DB_NAME|AUTH_KEY)['"]/.test(a.body.slice(0, 65536))

/** An installer that would run: WordPress's install or setup form, or a Duplicator installer. */
export function installerOpen(a: Answer): string | null {
  if (a.status !== 200) return null
  const b = a.body.slice(0, 65536)
  if (/name=["']weblog_title["']/.test(b) || /five-minute WordPress installation/i.test(b)) return 'the WordPress installation form'
  if (/setup-config\.php\?step=1/.test(b) && /wp-config\.php/.test(b) && !/already exists/i.test(b)) return 'the wp-config.php setup wizard'
  if (/Duplicator/.test(b) && /installer/i.test(b)) return 'a Duplicator installer'
  return null
}

/** The registration form is shown (closed registration redirects with registration=disabled). */
export const registrationOpen = (a: Answer | null) =>
  ok(a) && /name=["']user_login["']/.test(a.body) && /name=["']user_email["']/.test(a.body)

/** Signs that the site is WordPress at all. */
export const looksLikeWordpress = (pages: readonly (Answer | null)[]) =>
  pages.some((a) => !!a && /\/wp-(content|includes)\/|wp-login\.php|name="generator" content="WordPress/i.test(a.body.slice(0, 200000)))
