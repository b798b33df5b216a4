// FIRST's Exploit Prediction Scoring System (`ward admin epss import FILE`): the daily CSV
// (epss_scores-YYYY-MM-DD.csv, gzip accepted), a comment line
// `#model_version:v2025.03.14,score_date:2026-11-24T00:00:00+0000`, a header `cve,epss,percentile`,
// then one line per CVE. Read line by line; a finding carries the score of its CVEs with its date.
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import { normaliseCve } from './kev.js'

export class EpssFeedError extends Error {
  override name = 'EpssFeedError'
}

export interface EpssScore {
  cve: string
  score: number
  percentile: number
}

/** The score date of the comment line ('2026-11-24'), or null when the line does not carry one. */
export function epssScoreDate(line: string): string | null {
  const m = /score_date:(\d{4}-\d{2}-\d{2})/.exec(line)
  return m ? m[1]! : null
}

/** Reads the file: its score date, then the scores in batches of `batch` (the caller writes each). */
export async function readEpssFile(
  file: string,
  onBatch: (date: string, scores: EpssScore[]) => Promise<void>,
  batch = 2000,
): Promise<{ date: string; count: number }> {
  const raw = createReadStream(file)
  const input = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw
  const lines = createInterface({ input, crlfDelay: Infinity })
  let date: string | null = null
  let header = false
  let count = 0
  let lineNo = 0
  let pending: EpssScore[] = []
  for await (const rawLine of lines) {
    lineNo++
    const line = rawLine.trim()
    if (!line) continue
    if (line.startsWith('#')) {
      date ??= epssScoreDate(line)
      continue
    }
    if (!header) {
      if (!/^cve,epss,percentile$/i.test(line))
        throw new EpssFeedError(`line ${lineNo}: expected the header "cve,epss,percentile", got ${JSON.stringify(line.slice(0, 80))}`)
      if (!date)
        throw new EpssFeedError('no "#model_version:...,score_date:YYYY-MM-DD..." line before the header: the scores would have no date')
      header = true
      continue
    }
    const [c, e, p] = line.split(',')
    const cve = normaliseCve(c ?? '')
    const score = Number(e)
    const percentile = Number(p)
    if (!cve || !(e ?? '').trim() || !(score >= 0 && score <= 1) || !(percentile >= 0 && percentile <= 1))
      throw new EpssFeedError(
        `line ${lineNo}: expected "CVE-YYYY-NNNN,<epss 0-1>,<percentile 0-1>", got ${JSON.stringify(line.slice(0, 80))}`,
      )
    pending.push({ cve, score, percentile })
    count++
    if (pending.length >= batch) {
      await onBatch(date!, pending)
      pending = []
    }
  }
  if (!header) throw new EpssFeedError('the file has no "cve,epss,percentile" header: is it FIRST\'s EPSS CSV?')
  if (pending.length) await onBatch(date!, pending)
  return { date: date!, count }
}
