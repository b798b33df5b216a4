// What SharePoint tells of its build: the MicrosoftSharePointTeamServices header ("16.0.0.4351": the
// build without its revision), the _vti_pvt files (buildversion.cnf has the full build) and
// _vti_inf.html (the major only); then the product and update the build is. Pure.
import { compareVersions, satisfies } from '../../lib/versions/version.js'
import type { Answer } from '../../lib/cms/answer.js'
import { PRODUCT_LINES } from '../data/builds.js'

export interface Build {
  /** "16.0.4351.1000", or "16.0.4351" when only the header or service.cnf tells it. */
  build: string
  /** Where it was read. */
  source: string
}

const ok = (a: Answer | null): a is Answer => !!a && a.status === 200 && !/<html/i.test(a.body.slice(0, 512))

/** "16.0.0.4351" (header, vti_extenderversion) → "16.0.4351"; a full "16.0.4351.1000" stays. */
export function buildOf(value: string | null | undefined): string | null {
  const v = value?.trim() ?? ''
  const short = /^(1[2-9])\.0\.0\.(\d{4,5})$/.exec(v)
  if (short) return `${short[1]}.0.${short[2]}`
  return /^1[2-9]\.0\.\d{4,5}\.\d{1,5}$/.test(v) ? v : null
}

/** The build in a _vti_pvt file: vti_buildversion:SR|16.0.4351.1000 or vti_extenderversion:SR|16.0.0.4351. */
export function cnfBuild(a: Answer | null): string | null {
  if (!ok(a)) return null
  const m = /^vti_(?:buildversion|extenderversion):[A-Z]{2}\|([\d.]+)\s*$/m.exec(a.body.slice(0, 4096))
  return buildOf(m?.[1])
}

/** FPVersion="16.00.0.000" of _vti_inf.html: the major version (a sign of SharePoint, not a build). */
export function infMajor(a: Answer | null): string | null {
  if (a?.status !== 200) return null
  return /FPVersion="(\d{2})\.\d+/.exec(a.body.slice(0, 8192))?.[1] ?? null
}

/** The build to trust: a full build over a partial one, then the highest (the header can lag behind the patched binaries). */
export function bestBuild(candidates: readonly Build[]): Build | null {
  const parts = (b: Build) => b.build.split('.').length
  const sorted = [...candidates].sort((a, b) => parts(b) - parts(a) || compareVersions(b.build, a.build))
  return sorted[0] ?? null
}

/**
 * The version matched against the catalogue. A partial build's revision is unknown: the highest is
 * assumed, so only builds certainly older than a fix are reported (no finding on a guess).
 */
export const catalogueVersion = (build: string) => (build.split('.').length === 3 ? `${build}.99999` : build)

/** The product and the newest known update at or below the build. */
export function productOf(build: string): { product: string; update: string | null } | null {
  const v = catalogueVersion(build)
  const line = PRODUCT_LINES.find((l) => satisfies(v, l.range))
  if (!line) return null
  const known = line.builds.filter((b) => compareVersions(b.build, v) <= 0).at(-1)
  if (!known) return { product: line.name, update: null }
  const exact = known.build === build || known.build.startsWith(`${build}.`)
  return { product: line.name, update: exact ? known.update : `${known.update} or later` }
}

/** Signs of SharePoint: its response headers, its page context script, _vti_inf.html or a build file. */
export function looksLikeSharePoint(headers: Record<string, string>, pages: readonly (Answer | null)[], builds: readonly Build[]): boolean {
  if (builds.length || headers.microsoftsharepointteamservices || headers.sprequestguid || headers['x-sharepointhealthscore']) return true
  return pages.some(
    (a) => !!a && (/_spPageContextInfo|\/_layouts\/1[45]\/|FPVersion="1\d\./.test(a.body.slice(0, 200000)) || !!infMajor(a)),
  )
}
