// Where the Website Scanner's hits are when they do not say: the scanned page's URL, port and
// service. Tests are recorded by the toolkit's recorder (toolkit/recorder.ts).
import type { HitDefaults } from '../../toolkit/hit.js'

export interface Where {
  url: string
  port: number
  service: 'http' | 'https'
}

/** The recorder's placement of a hit that does not say where it is. */
export const placed = (where: Where): { where: HitDefaults } => ({ where: { ...where, protocol: 'tcp', confirmed: false } })
