// Every answer about one scan (the scan, lists, tests, raw log, each output format), its stored row
// and its findings, as one text: what a test searches for a secret that must appear nowhere.
import type { TestWard } from './ward.js'

export async function scanAnswersText(w: TestWard, id: number): Promise<string> {
  const reads = [
    `/api/v2/scans/${id}`,
    '/api/v2/scans',
    `/api/v2/scans/${id}/tests`,
    `/api/v2/scans/${id}/raw`,
    `/api/v2/findings?task_id=${id}`,
  ]
  const out: string[] = []
  for (const url of reads) out.push((await w.req('GET', url)).body)
  for (const accept of ['application/json', 'application/sarif+json', 'text/csv', 'application/xml', 'text/markdown'])
    out.push((await w.req('GET', `/api/v2/scans/${id}/output`, { headers: { accept } })).body)
  const row = await w.h.db.selectFrom('scans').select(['tool_params', 'status_message']).where('id', '=', id).executeTakeFirstOrThrow()
  out.push(row.tool_params, row.status_message ?? '')
  return out.join('\n')
}
