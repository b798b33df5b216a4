// What Drupal's files and pages say: the core version (and major), modules and themes, user names,
// and whether update.php or install.php would run. Pure; judged by content, so a site answering 200
// to everything reports nothing.
import { assetVersion, type PageFacts } from '../../lib/cms/page.js'
import type { Answer } from '../../lib/cms/answer.js'

const ok = (a: Answer | null): a is Answer => !!a && a.status === 200

/** CHANGELOG.txt's first release line: "Drupal 7.57, 2018-02-21" (D7) or "Drupal 8.5.0, 2018-03-07" (D8 core/). */
export function changelogVersion(a: Answer | null): string | null {
  if (!ok(a) || /<html/i.test(a.body.slice(0, 512))) return null
  return /^Drupal (\d+\.\d+(?:\.\d+)?)(?:-dev)?,/m.exec(a.body.slice(0, 4096))?.[1] ?? null
}

/** The major version from the generator tag or X-Generator header: "Drupal 7 (http://drupal.org)". */
export function generatorMajor(facts: PageFacts, xGenerator: string | undefined): string | null {
  for (const g of [...facts.generators, xGenerator ?? '']) {
    const m = /^Drupal (\d+)\b/i.exec(g.trim())
    if (m) return m[1]!
  }
  return null
}

/** ?v= of core assets (core/misc/drupal.js?v=8.5.0): Drupal 8+ stamps core libraries with its version. */
export function coreAssetVersions(facts: PageFacts): string[] {
  return facts.assets
    .filter((u) => /\/core\/(misc|assets|modules|themes)\//.test(u))
    .map(assetVersion)
    .filter((v): v is string => !!v && /^\d+\.\d+\.\d+$/.test(v))
}

const COMPONENT = /\/(?:sites\/[^/]+\/)?(modules|themes)\/(?:contrib\/|custom\/)?([a-z0-9_]{2,64})\//

/** Modules and themes whose files the page links to (core's own under /core/ and D7's /misc/ are left out). */
export function componentsInPage(facts: PageFacts): { modules: string[]; themes: string[] } {
  const modules = new Set<string>()
  const themes = new Set<string>()
  for (const u of facts.assets) {
    let path: string
    try {
      path = new URL(u).pathname
    } catch {
      continue
    }
    if (path.startsWith('/core/')) continue
    const m = COMPONENT.exec(path)
    if (m) (m[1] === 'modules' ? modules : themes).add(m[2]!)
  }
  return { modules: [...modules].sort(), themes: [...themes].sort() }
}

/** A module .info(.yml) file: version = "7.x-3.2" or version: '8.x-1.5'. Null when it is no .info file. */
export function infoVersion(a: Answer | null): { version: string | null } | null {
  if (!ok(a) || !/^\s*(name|core|core_version_requirement|type)\s*[=:]/m.test(a.body.slice(0, 8192))) return null
  const v = /^\s*version\s*[=:]\s*["']?([0-9][0-9A-Za-z.+-]*)["']?\s*$/m.exec(a.body.slice(0, 8192))
  return { version: v ? v[1]! : null }
}

/** A user page shown to anonymous visitors: the name from the page title ("admin | Site"). */
export function userFromPage(id: number, a: Answer | null): { id: number; name: string } | null {
  if (!ok(a) || !/\buser-profile|class="profile"|\/user\/\d+/.test(a.body)) return null
  const title = /<title>([^<|]{1,128})/i.exec(a.body.slice(0, 8192))?.[1]?.trim()
  if (!title || /access denied|page not found|log in|user account/i.test(title)) return null
  return { id, name: title }
}

/** update.php showing its update form rather than "Access denied". */
export const updateOpen = (a: Answer | null) => ok(a) && /Drupal database update/i.test(a.body) && !/Access denied/i.test(a.body)

/** install.php offering to install rather than "Drupal already installed". */
export const installOpen = (a: Answer | null) =>
  ok(a) && /(Choose language|Select an installation profile|Choose profile)/i.test(a.body) && !/already installed/i.test(a.body)

/** Signs of Drupal at all. */
export const looksLikeDrupal = (pages: readonly (Answer | null)[], generator: string | null) =>
  !!generator ||
  pages.some(
    (a) =>
      !!a &&
      /Drupal\.settings|drupal-settings-json|\/sites\/(default|all)\/|\/core\/misc\/drupal\.js|^Drupal \d/m.test(a.body.slice(0, 200000)),
  )
