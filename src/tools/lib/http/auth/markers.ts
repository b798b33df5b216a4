// success_marker / failure_marker: plain text, or /regex/flags run on the linear-time engine
// (toolkit/safe-regex.ts), since a marker is checked against every page a target sends.
import { regexMarker, safeRegex, UnsafePatternError } from '../../../../toolkit/safe-regex.js'
import type { Authentication } from './params.js'

export type MarkerTest = (text: string) => boolean

/**
 * The marker's test. "/…/" that is no valid regular expression at all stays plain text (as markers
 * always were); one that is valid but needs backtracking (backreferences, lookaround) throws
 * UnsafePatternError: the API refuses it (authenticationProblem) before it is ever stored.
 */
export function markerTest(marker: string): MarkerTest {
  const re = regexMarker(marker)
  if (re) {
    try {
      const safe = safeRegex(re.source, re.flags)
      return (text) => safe.test(text)
    } catch (e) {
      if (validJs(re.source, re.flags)) throw e
    }
  }
  return (text) => text.includes(marker)
}

/** "authentication.<marker>: why" for a marker the linear engine cannot run, else undefined. */
export function authenticationProblem(auth: Authentication | undefined): string | undefined {
  for (const key of ['success_marker', 'failure_marker'] as const) {
    const marker = auth?.[key]
    if (!marker) continue
    try {
      markerTest(marker)
    } catch (e) {
      if (e instanceof UnsafePatternError) return `authentication.${key}: ${e.message}`
      throw e
    }
  }
  return undefined
}

function validJs(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags)
    return true
  } catch {
    return false
  }
}
