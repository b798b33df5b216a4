// Pure: SPF (RFC 7208) and DMARC (RFC 7489) records → verdicts. No I/O.
import type { Risk } from '../../../toolkit/check.js'

export type PolicyVerdict =
  | { kind: 'missing' }
  | { kind: 'weak'; record: string; reason: string; risk?: Risk }
  | { kind: 'ok'; record: string }

export function analyzeSpf(txts: readonly string[]): PolicyVerdict {
  const spf = txts.map((t) => t.trim()).filter((t) => /^v=spf1(\s|$)/i.test(t))
  if (spf.length === 0) return { kind: 'missing' }
  if (spf.length > 1)
    return {
      kind: 'weak',
      record: spf.join(' | '),
      reason: `${spf.length} SPF records are published; receivers treat this as a permanent error (RFC 7208 4.5), so SPF protects nothing.`,
    }
  const record = spf[0]!
  const terms = record.split(/\s+/).slice(1)
  const all = terms.find((t) => /^[+\-~?]?all$/i.test(t))
  if (all) {
    const q = /^[+\-~?]/.test(all) ? all[0] : '+'
    if (q === '+')
      return { kind: 'weak', record, reason: `"${all}" authorises every host on the Internet to send mail for the domain.`, risk: 'high' }
    if (q === '?') return { kind: 'weak', record, reason: '"?all" gives unlisted senders a neutral result: forged mail is not rejected.' }
    return { kind: 'ok', record }
  }
  if (terms.some((t) => /^redirect=/i.test(t))) return { kind: 'ok', record }
  return { kind: 'weak', record, reason: 'The record has no "all" mechanism: unlisted senders get a neutral result.' }
}

/** DMARC tags of one record ("v=DMARC1; p=reject; pct=100" → {v, p, pct}). */
export const dmarcTags = (record: string): Record<string, string> =>
  Object.fromEntries(
    record
      .split(';')
      .map((kv) => kv.trim())
      .filter(Boolean)
      .map((kv) => {
        const i = kv.indexOf('=')
        return i < 0 ? [kv.toLowerCase(), ''] : [kv.slice(0, i).trim().toLowerCase(), kv.slice(i + 1).trim()]
      }),
  )

export function analyzeDmarc(txts: readonly string[]): PolicyVerdict {
  const dmarc = txts.map((t) => t.trim()).filter((t) => /^v=DMARC1\s*(;|$)/i.test(t))
  if (dmarc.length === 0) return { kind: 'missing' }
  if (dmarc.length > 1)
    return {
      kind: 'weak',
      record: dmarc.join(' | '),
      reason: `${dmarc.length} DMARC records are published; receivers ignore DMARC then (RFC 7489 6.6.3).`,
    }
  const record = dmarc[0]!
  const tags = dmarcTags(record)
  const p = tags.p?.toLowerCase()
  if (!p) return { kind: 'weak', record, reason: 'The record has no p= policy tag.' }
  if (p === 'none') return { kind: 'weak', record, reason: 'p=none only monitors: mail failing DMARC is still delivered.' }
  if (p !== 'quarantine' && p !== 'reject') return { kind: 'weak', record, reason: `p=${tags.p} is not a valid policy.` }
  const pct = tags.pct === undefined ? 100 : Number(tags.pct)
  if (Number.isFinite(pct) && pct < 100)
    return { kind: 'weak', record, reason: `pct=${tags.pct}: the ${p} policy applies to ${pct}% of failing mail only.` }
  return { kind: 'ok', record }
}
