// URL patterns: pages that differ only in a date, a number, a UUID or a hash share one pattern, so a
// crawl samples a calendar instead of walking it forever, while ordinary records (/product/123) are
// still visited in their thousands.

/** Kind of a varying path segment, or null for a literal one. */
function segmentKind(seg: string): 'date' | 'id' | null {
  if (/^(19|20)\d\d([-_/.]?(0[1-9]|1[0-2])([-_/.]?(0[1-9]|[12]\d|3[01]))?)?$/.test(seg)) return 'date'
  if (/^\d+$/.test(seg)) return 'id'
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(seg)) return 'id'
  if (/^[0-9a-f]{16,}$/i.test(seg)) return 'id'
  return null
}

export interface UrlPattern {
  /** Origin, path with varying segments replaced, and the sorted query parameter names. */
  key: string
  /** The pattern holds a date segment (calendar-like), or a date-looking query value. */
  dated: boolean
}

/**
 * The pattern of a URL. A month or day number right after a year counts as part of the date
 * (/events/2024/11/25): calendars nest. Query values never matter, only their names.
 */
export function urlPattern(u: URL): UrlPattern {
  let dated = false
  let afterYear = 0
  const segs = u.pathname.split('/').map((seg) => {
    const k = segmentKind(seg)
    if (k === 'date') {
      dated = true
      afterYear = /^(19|20)\d\d$/.test(seg) ? 2 : 0
      return '{date}'
    }
    if (afterYear > 0 && /^\d{1,2}$/.test(seg)) {
      afterYear--
      return '{date}'
    }
    afterYear = 0
    return k === 'id' ? '{id}' : seg
  })
  const names = [...new Set(u.searchParams.keys())].sort()
  for (const v of u.searchParams.values()) if (segmentKind(v) === 'date') dated = true
  return { key: `${u.origin}${segs.join('/')}${names.length ? `?${names.join('&')}` : ''}`, dated }
}
