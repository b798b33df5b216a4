// output_data.vhosts of Find Virtual Hosts: one entry per name and endpoint that serves a site of its own.
import type { RawAnswer } from './detect/answer.js'
import { pageTitle } from './detect/answer.js'
import type { Endpoint } from './probes/endpoints.js'

export interface VhostEntry {
  name: string
  scheme: 'http' | 'https'
  port: number
  status: number
  title: string
  /** Body bytes of the answer (up to the kept maximum). */
  size: number
  redirect: string | null
}

export const vhostEntry = (name: string, e: Endpoint, a: RawAnswer): VhostEntry => ({
  name,
  scheme: e.scheme,
  port: e.port,
  status: a.status,
  title: pageTitle(a.body),
  size: a.size,
  redirect: a.location,
})

/** Stable order for the stored output: by name, then scheme and port. */
export const byNameAndPort = (a: VhostEntry, b: VhostEntry) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.scheme < b.scheme ? -1 : a.scheme > b.scheme ? 1 : a.port - b.port
