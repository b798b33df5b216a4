// The credentials tried on one service, as data: the shipped list of its product or protocol
// (credentials.json) and what tool_params add, ordered and capped. Pure.
import { readFileSync } from 'node:fs'

export type Pair = readonly [username: string, password: string]
export interface CredentialList {
  description: string
  pairs: readonly Pair[]
}

/** Shipped lists by id: a protocol ("ftp", "ssh", ..., "http") or a product ("tomcat", "grafana", ...). */
export const CREDENTIAL_LISTS: Readonly<Record<string, CredentialList>> = parseLists(
  JSON.parse(readFileSync(new URL('../credentials.json', import.meta.url), 'utf8')),
)

export function parseLists(json: unknown): Record<string, CredentialList> {
  const out: Record<string, CredentialList> = {}
  for (const [id, v] of Object.entries(json as Record<string, unknown>)) {
    if (id.startsWith('$')) continue
    const l = v as { description?: unknown; pairs?: unknown }
    if (typeof l.description !== 'string' || !Array.isArray(l.pairs))
      throw new Error(`credentials.json: list ${id} needs a description and pairs`)
    for (const p of l.pairs)
      if (!Array.isArray(p) || p.length !== 2 || p.some((x) => typeof x !== 'string'))
        throw new Error(`credentials.json: list ${id} has a pair that is not [user, password]`)
    out[id] = { description: l.description, pairs: l.pairs as Pair[] }
  }
  return out
}

export interface Additions {
  usernames: readonly string[]
  passwords: readonly string[]
  credentials: ReadonlyArray<{ username: string; password: string }>
  defaultLists: boolean
}

export interface Caps {
  /** Most passwords per account. */
  perAccount: number
  /** Most attempts in all. */
  perService: number
}

/**
 * The attempts for one service, in order: the user's pairs, the shipped pairs of `listId`, then every
 * given user name with the list's and the given passwords, and the list's user names with the given
 * passwords. Each account gets at most `perAccount` passwords; accounts take turns (one attempt each per
 * round), so consecutive failures on one account are spaced as far apart as the plan allows.
 */
export function planAttempts(listId: string, add: Additions, caps: Caps, lists = CREDENTIAL_LISTS): Pair[] {
  const shipped = add.defaultLists ? (lists[listId]?.pairs ?? []) : []
  const passwords = [...add.passwords, ...shipped.map((p) => p[1])]
  const users = [...new Set([...shipped.map((p) => p[0]), ...add.usernames])]
  const candidates: Pair[] = [
    ...add.credentials.map((c) => [c.username, c.password] as const),
    ...shipped,
    ...add.usernames.flatMap((u) => passwords.map((p) => [u, p] as const)),
    ...(add.passwords.length ? users.flatMap((u) => add.passwords.map((p) => [u, p] as const)) : []),
  ]
  const byUser = new Map<string, string[]>()
  for (const [u, p] of candidates) {
    const list = byUser.get(u) ?? []
    if (!list.includes(p) && list.length < caps.perAccount) list.push(p)
    byUser.set(u, list)
  }
  const queues = [...byUser.entries()]
  const plan: Pair[] = []
  for (let round = 0; plan.length < caps.perService; round++) {
    let any = false
    for (const [u, list] of queues) {
      if (round < list.length && plan.length < caps.perService) {
        plan.push([u, list[round]!])
        any = true
      }
    }
    if (!any) break
  }
  return plan
}
