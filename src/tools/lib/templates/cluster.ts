// Request clustering: identical idempotent requests of different templates are sent once in a
// scan, and every template reads the one response (nuclei clusters the same way). Responses are kept
// up to a byte budget; a template asking the same thing twice (a state it changed) gets a fresh send.
import type { HttpResponse } from '../../../toolkit/egress.js'

export interface RequestCluster {
  /** The response for `key`, sent by `send` unless another template already asked. */
  get(key: string, templateId: string, send: () => Promise<HttpResponse>): Promise<HttpResponse>
  /** Requests answered from another template's send. */
  readonly saved: number
  readonly sent: number
}

export function createRequestCluster(budgetBytes = 64 << 20): RequestCluster {
  const entries = new Map<string, { res: Promise<HttpResponse>; users: Set<string>; bytes: number }>()
  let bytes = 0
  let saved = 0
  let sent = 0
  return {
    get saved() {
      return saved
    },
    get sent() {
      return sent
    },
    async get(key, templateId, send) {
      const e = entries.get(key)
      if (e && !e.users.has(templateId)) {
        e.users.add(templateId)
        saved++
        return e.res
      }
      sent++
      const res = send()
      const entry = { res, users: new Set([templateId]), bytes: 0 }
      entries.set(key, entry)
      try {
        const r = await res
        entry.bytes = r.body.length + 1024
        bytes += entry.bytes
        // Oldest first: Map keeps insertion order.
        for (const [k, old] of entries) {
          if (bytes <= budgetBytes) break
          entries.delete(k)
          bytes -= old.bytes
        }
        return r
      } catch (err) {
        // A failed send is not shared: the next template tries for itself.
        if (entries.get(key) === entry) entries.delete(key)
        throw err
      }
    },
  }
}
