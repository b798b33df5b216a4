// Stored times are ISO-8601 UTC with milliseconds (sortable as text); the API shows whole seconds.
export const nowIso = () => new Date().toISOString()
export const isoAfter = (ms: number) => new Date(Date.now() + ms).toISOString()
export const toApiTime = (s: string | null | undefined): string | null => (s ? s.slice(0, 19) + 'Z' : null)
