// A worker thread's whole life: render one report from the model it was given (pdf-thread.ts) and
// post the PDF's bytes to its parent as they come, then 'end'. The parent's event loop only relays.
import { parentPort, workerData } from 'node:worker_threads'
import { writeScanPdf } from './index.js'
import type { PdfJob } from '../pdf-thread.js'

/** pdfkit writes many tiny pieces; posted one by one they flooded the parent's event loop (seconds of stall). */
const POST_BYTES = 256 * 1024

const job = workerData as PdfJob
let pending: Buffer[] = []
let size = 0
const post = () => {
  if (!size) return
  parentPort!.postMessage(Buffer.concat(pending, size))
  pending = []
  size = 0
}
await writeScanPdf(
  (chunk) => {
    pending.push(chunk)
    size += chunk.length
    if (size >= POST_BYTES) post()
  },
  job.scan,
  job.findings,
  job.tests,
  { changes: job.changes, totals: job.totals, now: job.now },
)
post()
parentPort!.postMessage('end')
