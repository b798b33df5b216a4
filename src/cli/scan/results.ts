// What a followed scan ends with: its findings and tests fetched, the reports written (stdout or
// files), and the verdict a pipeline gates on (the exit code).
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { WRITERS, levelOf, severityOf, type ScanInfo, type WireFinding, type WireTest } from '../../reports/formats/index.js'
import { plain, type V2Client } from './client.js'
import { clock, countsText, type Progress } from './progress.js'
import { EXIT, type ScanIo, type ScanOptions } from './options.js'
import type { ScanAnswer } from './follow.js'

export interface ScanResults {
  info: ScanInfo
  findings: WireFinding[]
  tests: WireTest[]
}

export async function fetchResults(
  client: V2Client,
  scanId: number,
  s: ScanAnswer,
  about: { target: string; toolId: number; toolName: string; server: string },
): Promise<ScanResults> {
  const out = await client.data<{ output_data?: { findings?: WireFinding[] } }>('GET', `/scans/${scanId}/output`)
  const findings: WireFinding[] = Array.isArray(out?.output_data?.findings) ? out!.output_data!.findings! : []
  const tr = await client.request('GET', `/scans/${scanId}/tests`)
  const tests: WireTest[] = tr.status === 200 && Array.isArray(tr.json?.data) ? tr.json.data : []
  const info: ScanInfo = {
    id: scanId,
    target: about.target,
    tool_id: about.toolId,
    tool_name: about.toolName,
    status_name: String(s?.status_name ?? 'unknown'),
    status_message: s?.status_message ? String(s.status_message) : undefined,
    start_time: s?.start_time ?? null,
    end_time: s?.end_time ?? null,
    duration: Number(s?.duration) || 0,
    server: about.server,
  }
  return { info, findings, tests }
}

/** Writes every --format; the exit code when a file could not be written, else null. */
export function writeReports(r: ScanResults, o: ScanOptions, io: ScanIo, progress: Progress, err: (s: string) => void): number | null {
  for (let i = 0; i < o.formats.length; i++) {
    const text = WRITERS[o.formats[i]!](r.info, r.findings, r.tests, o.failOn)
    const file = o.outputs[i]
    if (file === undefined) io.stdout.write(text)
    else {
      try {
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, text)
      } catch (e) {
        err(`cannot write ${file}: ${(e as Error).message}`)
        return EXIT.NOT_FINISHED
      }
      progress.note(`wrote ${o.formats[i]} to ${file}`)
    }
  }
  return null
}

export function verdict({ info, findings }: ScanResults, o: ScanOptions, timedOut: boolean, io: ScanIo, err: (s: string) => void): number {
  const counts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 }
  for (const f of findings) counts[severityOf(f.risk_level)]++
  const failOn = o.failOn
  const hits = failOn ? findings.filter((f) => levelOf(severityOf(f.risk_level)) >= levelOf(failOn)).length : 0
  const why = info.status_message ? ` (${plain(info.status_message)})` : ''
  const head = `scan ${info.id} ${plain(info.status_name)}${why} after ${clock(info.duration ?? 0)}: ${findings.length} finding(s): ${countsText(counts)}`
  if (!o.quiet) io.stderr.write(head + '\n')
  // Findings at or above the threshold are a certain verdict even when the scan did not finish.
  if (hits) {
    err(`${hits} finding(s) at or above ${failOn}: failing (exit 1)`)
    return EXIT.THRESHOLD
  }
  if (timedOut) {
    err(`gave up waiting after ${clock(o.timeoutMs! / 1000)} (exit 2)`)
    return EXIT.NOT_FINISHED
  }
  if (info.status_name !== 'finished') {
    err(`the scan did not finish: ${plain(info.status_name)} (exit 2)`)
    return EXIT.NOT_FINISHED
  }
  if (failOn && !o.quiet) io.stderr.write(`no finding at or above ${failOn}\n`)
  return EXIT.OK
}
