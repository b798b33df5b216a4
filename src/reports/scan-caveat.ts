// What a scan's result does not prove, in one sentence for the PDF and the web pages: a scan with
// no findings is "clean" only if it tested something (decisions.md, "Scan states").

export interface CaveatScan {
  status_name: string
  status_message: string | null
}

export interface TestCounts {
  total: number
  /** Tests that ran to a result (finished: passed or failed). */
  ran: number
}

export function countTests(tests: ReadonlyArray<{ status: string }>): TestCounts {
  return { total: tests.length, ran: tests.filter((t) => t.status === 'finished').length }
}

/** Null when the scan ran every test it started; else what the reader must know before trusting it. */
export function scanCaveat(s: CaveatScan, t: TestCounts, findings: number): string | null {
  const ended = s.status_name
  if (ended === 'waiting' || ended === 'running') return null
  if (t.total > 0 && t.ran === 0)
    return `No test ran to a result: the scan ended “${ended}”${findings ? '' : ', so having no findings says nothing about the target'}.`
  if (ended !== 'finished')
    return `The scan ended “${ended}” before it was complete: ${t.ran} of ${t.total} tests ran to a result${
      findings ? '' : ', so having no findings does not mean nothing is wrong'
    }.`
  if (t.ran < t.total)
    return `${t.total - t.ran} of ${t.total} tests could not run (see the tests): what they check is not covered by this scan.`
  return null
}
