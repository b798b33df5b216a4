// The scan's egress, recording every HTTP origin that answered (any status) as covered: a finding on
// a URL is closed only by a scan that reached its origin (store/coverage.ts).
import type { Egress } from '../toolkit/egress.js'
import type { CoverageRecorder } from '../toolkit/coverage.js'

export function recordingAnswers(egress: Egress, coverage: CoverageRecorder): Egress {
  const wrapped: Egress = Object.create(egress)
  wrapped.http = async (url, req) => {
    const res = await egress.http(url, req)
    coverage.answered(res.url || url)
    return res
  }
  return wrapped
}
