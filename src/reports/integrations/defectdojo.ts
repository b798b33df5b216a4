// DefectDojo: after each finished scan, its findings go to DefectDojo's reimport-scan API as SARIF,
// so DefectDojo's own dedup and close-on-reimport decide what is new and what is mitigated.
import { randomBytes } from 'node:crypto'
import { getScanById } from '../../store/scans.js'
import { scanOutputJson } from '../scan-output.js'
import { toSarif } from '../formats/sarif.js'
import type { WireFinding } from '../formats/types.js'
import type { Channel } from './context.js'
import { httpRequest, outcomeOf } from './http.js'

function multipart(fields: Record<string, string>, file: { name: string; type: string; data: string }): { body: Buffer; type: string } {
  const b = `----ward${randomBytes(12).toString('hex')}`
  const parts = Object.entries(fields).map(([k, v]) => `--${b}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
  parts.push(
    `--${b}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: ${file.type}\r\n\r\n${file.data}\r\n--${b}--\r\n`,
  )
  return { body: Buffer.from(parts.join('')), type: `multipart/form-data; boundary=${b}` }
}

export const defectDojo: Channel = async (ctx, p) => {
  const c = ctx.integ.plain as {
    base_url: string
    api_key: string
    engagement_id?: number
    product_name?: string
    engagement_name?: string
    auto_create?: boolean
  }
  const base = c.base_url.replace(/\/+$/, '')
  const headers = { authorization: `Token ${c.api_key}`, accept: 'application/json' }
  if (p.kind !== 'scan' || p.scan.status !== 'finished') {
    // A test (or an event without scan results): prove the key with a read.
    return outcomeOf(
      await httpRequest(ctx.transport, ctx.timeoutMs, 'GET', `${base}/api/v2/engagements/?limit=1`, { headers }),
      'DefectDojo',
    )
  }
  const scan = await getScanById(ctx.db, p.scan.id)
  if (!scan) return { verdict: 'failed', statusCode: null, answer: null, error: 'the scan was deleted' }
  const findings = (await scanOutputJson(ctx.db, scan)).output_data.findings.filter(
    (f) => f.risk_level >= ctx.integ.min_risk,
  ) as unknown as WireFinding[]
  const sarif = toSarif(
    {
      id: scan.id,
      target: p.scan.target,
      tool_id: scan.tool_id,
      tool_name: p.scan.tool,
      status_name: scan.status,
      status_message: scan.status_message ?? undefined,
      start_time: null,
      end_time: p.scan.end_time,
      duration: 0,
    },
    findings,
    [],
    null,
  )
  const where: Record<string, string> =
    c.engagement_id !== undefined
      ? { engagement: String(c.engagement_id) }
      : { product_name: c.product_name!, engagement_name: c.engagement_name!, auto_create_context: c.auto_create ? 'true' : 'false' }
  const form = multipart(
    {
      scan_type: 'SARIF',
      ...where,
      test_title: `Ward: ${p.scan.tool} — ${p.scan.target}`,
      close_old_findings: 'true',
      active: 'true',
      verified: 'false',
      scan_date: (p.scan.end_time ?? '').slice(0, 10) || new Date().toISOString().slice(0, 10),
    },
    { name: `ward-scan-${scan.id}.sarif`, type: 'application/sarif+json', data: typeof sarif === 'string' ? sarif : JSON.stringify(sarif) },
  )
  return outcomeOf(
    await httpRequest(ctx.transport, ctx.timeoutMs, 'POST', `${base}/api/v2/reimport-scan/`, {
      headers: { ...headers, 'content-type': form.type },
      body: form.body,
    }),
    'DefectDojo reimport-scan',
  )
}
