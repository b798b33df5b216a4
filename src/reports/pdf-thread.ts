// Builds a PDF report in a worker thread of its own, so the seconds of layout a big report takes never
// stall the event loop that answers the API and pages, and its memory goes when the thread ends.
// The bytes come back as a stream, piece by piece as pdfkit writes them.
import { PassThrough, type Readable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import type { ReportFinding, ReportScan, ReportTest } from './report-model.js'
import type { ScanChanges } from './scan-changes.js'
import type { ReportTotals } from './pdf/content.js'

/** What the thread renders: the report model (at most LIMIT.overviewRows findings) and the counts over all. */
export interface PdfJob {
  scan: ReportScan
  findings: ReportFinding[]
  tests: ReportTest[]
  totals: ReportTotals
  changes?: ScanChanges
  now?: Date
}

/**
 * A bound on one build's heap: the largest report the caps allow (pdf/theme.ts LIMIT) stays near
 * 100 MB; a build past this ends with an error instead of growing the process.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 384 }

function startThread(job: PdfJob): Worker {
  const ts = import.meta.url.endsWith('.ts')
  const entry = new URL(ts ? './pdf/thread.ts' : './pdf/thread.js', import.meta.url)
  // Run from the TypeScript sources (tests, benchmarks, through tsx): the thread loads tsx first.
  if (ts)
    return new Worker(`import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(entry.href)}))`, {
      eval: true,
      workerData: job,
      resourceLimits: THREAD_LIMITS,
    })
  return new Worker(entry, { workerData: job, resourceLimits: THREAD_LIMITS })
}

/** The PDF of `job` as a stream; `done` runs once the thread has ended (finished, failed or stopped because the reader went away). */
export function pdfInThread(job: PdfJob, done: () => void): Readable {
  const out = new PassThrough()
  const thread = startThread(job)
  thread.on('message', (m: Uint8Array | 'end') => {
    if (m === 'end') out.end()
    else out.write(Buffer.from(m.buffer, m.byteOffset, m.byteLength))
  })
  thread.on('error', (e) => out.destroy(e))
  thread.on('exit', (code) => {
    done()
    if (!out.writableEnded) out.destroy(new Error(`the PDF report thread stopped (exit code ${code})`))
  })
  // A reader that went away (client disconnected) stops the build.
  out.on('close', () => void thread.terminate())
  return out
}
