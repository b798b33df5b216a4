// Host names a certificate names: its subject's CN and the DNS entries of its subjectAltName. Pure.

/** Names from X509Certificate#subject ("CN=a.example\nO=...") and #subjectAltName ("DNS:a.example, DNS:*.b.example, IP Address:..."). */
export function certificateNames(subject: string | undefined, subjectAltName: string | undefined): string[] {
  const out = new Set<string>()
  for (const line of (subject ?? '').split('\n')) {
    const m = /^CN=(.+)$/.exec(line.trim())
    if (m && /^[*A-Za-z0-9_.-]+$/.test(m[1]!)) out.add(m[1]!.toLowerCase())
  }
  for (const entry of (subjectAltName ?? '').split(',')) {
    const e = entry.trim()
    if (e.startsWith('DNS:')) out.add(e.slice(4).trim().toLowerCase())
  }
  return [...out]
}
