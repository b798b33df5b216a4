// Version comparison for banner versions ('8.9p1', '2.4.49', '1.0.1f', '1.3.5rc3', '1.0.2-beta1')
// and version ranges of the CVE catalogue ('>=8.5 <9.8 || =2.4.50'). Pure.

type Token = number | string

/** Pre-release words, lowest first: they sort before the bare release. */
const PRE = ['dev', 'alpha', 'beta', 'pre', 'rc'] as const

/**
 * A single post-release letter (OpenSSL 1.0.1f, ProFTPD 1.3.5a, the 'p' of 9.8p1) is a number, its place
 * in the alphabet: 1.0.1f is 1.0.1.6, as the web tools' component tables write it.
 */
function tokenize(v: string): Token[] {
  return (v.toLowerCase().match(/\d+|[a-z]+/g) ?? []).map((t) =>
    /^\d/.test(t) ? Number(t) : t.length === 1 && !isPre(t) ? t.charCodeAt(0) - 96 : t,
  )
}

const preRank = (s: string) => PRE.indexOf(s as (typeof PRE)[number])
/** A word token is either a pre-release (rc, beta...) or a post-release mark (OpenSSL/ProFTPD letters, 'p'). */
const isPre = (s: string) => preRank(s) >= 0 || s === 'm'

function compareWords(a: string, b: string): number {
  const ap = isPre(a)
  const bp = isPre(b)
  if (ap !== bp) return ap ? -1 : 1
  if (ap) return (preRank(a) === -1 ? -0.5 : preRank(a)) - (preRank(b) === -1 ? -0.5 : preRank(b)) || cmp(a, b)
  return cmp(a, b)
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * -1, 0 or 1. Missing numeric parts count as 0 ('7.7' = '7.7.0'); '1.0.1' < '1.0.1f' = '1.0.1.6' < '1.0.1g';
 * '1.3.5rc3' < '1.3.5'. The one version order of every tool.
 */
export function compareVersions(a: string, b: string): number {
  const x = tokenize(a)
  const y = tokenize(b)
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i]
    const q = y[i]
    let r: number
    if (p === undefined) r = typeof q === 'number' ? cmp(0, q) : isPre(q as string) ? 1 : -1
    else if (q === undefined) r = typeof p === 'number' ? cmp(p, 0) : isPre(p) ? -1 : 1
    else if (typeof p === 'number' && typeof q === 'number') r = cmp(p, q)
    else if (typeof p === 'string' && typeof q === 'string') r = compareWords(p, q)
    else if (typeof p === 'number') r = isPre(q as string) || p > 0 ? 1 : -1
    else r = isPre(p) || (q as number) > 0 ? -1 : 1
    if (r !== 0) return r < 0 ? -1 : 1
  }
  return 0
}

type Op = '=' | '<' | '<=' | '>' | '>='
type Comparator = { op: Op; version: string }

/** Parses '>=8.5 <9.8 || =2.4.50' into alternatives of comparators (all of one alternative must hold). */
export function parseRange(range: string): Comparator[][] {
  return range.split('||').map((alt) => {
    const parts = alt.trim().split(/\s+/).filter(Boolean)
    if (!parts.length) throw new Error(`empty alternative in version range "${range}"`)
    return parts.map((p) => {
      const m = /^(>=|<=|=|<|>)(\S+)$/.exec(p)
      if (!m) throw new Error(`bad comparator "${p}" in version range "${range}"`)
      return { op: m[1] as Op, version: m[2] }
    })
  })
}

export function satisfies(version: string, range: string): boolean {
  return parseRange(range).some((alt) =>
    alt.every(({ op, version: v }) => {
      const c = compareVersions(version, v)
      switch (op) {
        case '=':
          return c === 0
        case '<':
          return c < 0
        case '<=':
          return c <= 0
        case '>':
          return c > 0
        case '>=':
          return c >= 0
      }
    }),
  )
}
