// One-time links (set-password, invitation) carry a token: what it names, or the 404 that tells the
// person what to do. A token longer than any Ward issues is not looked up.
import { WardError } from '../domain/errors.js'

export async function byLinkToken<T>(token: string, find: (token: string) => Promise<T | undefined>, missing: string): Promise<T> {
  const found = token.length <= 100 ? await find(token) : undefined
  if (!found) throw new WardError(404, missing)
  return found
}
