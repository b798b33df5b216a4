// output_data.wordpress of the WordPress Scanner.
import type { KnownComponent } from '../lib/cms/components.js'
import type { SeenComponent } from './detect/components.js'
import type { WpUser } from './detect/users.js'

export interface WpComponentEntry {
  slug: string
  version: string | null
  latest_known: string | null
}

export interface WordpressOutput {
  version: string | null
  plugins: WpComponentEntry[]
  themes: WpComponentEntry[]
  users: Array<{ id: number | null; login: string; name: string | null }>
}

export const componentEntry = (c: SeenComponent, known: KnownComponent | undefined): WpComponentEntry => ({
  slug: c.slug,
  version: c.version,
  latest_known: known?.latest || null,
})

export const userEntry = (u: WpUser) => ({ id: u.id, login: u.login, name: u.name })
