// The WordPress core version from each place that tells it, and the one most of them agree on. Pure.
import { assetVersion, mostVoted, type PageFacts } from '../../lib/cms/page.js'

export interface VersionVote {
  version: string
  source: string
}

const VERSION = /^\d+\.\d+(?:\.\d+)?$/

export function generatorVersion(facts: PageFacts): string | null {
  for (const g of facts.generators) {
    const m = /^WordPress\s+(\d+\.\d+(?:\.\d+)?)/i.exec(g)
    if (m) return m[1]!
  }
  return null
}

/** readme.html: "<br /> Version 4.0.1" under the logo. */
export function readmeVersion(body: string): string | null {
  if (!body.includes('WordPress')) return null
  const at = body.search(/<br\s*\/?>\s*Version\s+\d/i)
  if (at < 0) return null
  return /Version\s+(\d+\.\d+(?:\.\d+)?)/i.exec(body.slice(at, at + 80))?.[1] ?? null
}

/** RSS/Atom feeds: <generator>https://wordpress.org/?v=4.0.1</generator>. */
export function feedVersion(body: string): string | null {
  const at = body.indexOf('wordpress.org/?v=')
  if (at < 0) return null
  return /^wordpress\.org\/\?v=(\d+\.\d+(?:\.\d+)?)/.exec(body.slice(at, at + 40))?.[1] ?? null
}

/** ?ver= of core assets (wp-includes/, wp-admin/): WordPress appends its own version to them. */
export function coreAssetVersions(facts: PageFacts): string[] {
  return facts.assets
    .filter((u) => /\/wp-(includes|admin)\//.test(u) && !/\/js\/jquery\//.test(u))
    .map(assetVersion)
    .filter((v): v is string => !!v && VERSION.test(v))
}

/** Every vote and the version they elect. */
export function electVersion(votes: readonly VersionVote[]): { version: string | null; sources: string[] } {
  const version = mostVoted(votes.map((v) => v.version))
  return { version, sources: votes.filter((v) => v.version === version).map((v) => v.source) }
}
