// User names WordPress gives away. Pure.
export interface WpUser {
  id: number | null
  login: string
  name: string | null
  source: string
}

/** /?author=N → 301 Location …/author/<slug>/ (the slug is the login, nicename form). */
export function authorFromRedirect(id: number, status: number, location: string | null): WpUser | null {
  if (status < 300 || status >= 400 || !location) return null
  const m = /\/author\/([^/?#]+)\/?/.exec(location)
  return m ? { id, login: decodeURIComponent(m[1]!), name: null, source: `/?author=${id}` } : null
}

/** /wp-json/wp/v2/users: a JSON array of {id, name, slug}. */
export function usersFromRest(status: number, body: string): WpUser[] {
  if (status !== 200) return []
  try {
    const list = JSON.parse(body) as unknown
    if (!Array.isArray(list)) return []
    return list
      .filter(
        (u): u is { id?: unknown; name?: unknown; slug: string } =>
          !!u && typeof u === 'object' && typeof (u as { slug?: unknown }).slug === 'string',
      )
      .slice(0, 500)
      .map((u) => ({
        id: typeof u.id === 'number' ? u.id : null,
        login: u.slug,
        name: typeof u.name === 'string' ? u.name : null,
        source: '/wp-json/wp/v2/users',
      }))
  } catch {
    return []
  }
}

/** oEmbed: {"author_name", "author_url": ".../author/<slug>/"}. */
export function userFromOembed(status: number, body: string): WpUser | null {
  if (status !== 200) return null
  try {
    const o = JSON.parse(body) as { author_name?: unknown; author_url?: unknown }
    const slug = typeof o.author_url === 'string' ? /\/author\/([^/?#]+)/.exec(o.author_url)?.[1] : undefined
    if (!slug) return null
    return { id: null, login: decodeURIComponent(slug), name: typeof o.author_name === 'string' ? o.author_name : null, source: 'oEmbed' }
  } catch {
    return null
  }
}

/** One entry per login, the first source kept; ids and names filled in from later sources. */
export function mergeUsers(list: readonly (WpUser | null)[]): WpUser[] {
  const byLogin = new Map<string, WpUser>()
  for (const u of list) {
    if (!u) continue
    const had = byLogin.get(u.login)
    if (!had) byLogin.set(u.login, { ...u })
    else {
      had.id ??= u.id
      had.name ??= u.name
    }
  }
  return [...byLogin.values()].sort((a, b) => (a.id ?? 1e9) - (b.id ?? 1e9) || a.login.localeCompare(b.login))
}
