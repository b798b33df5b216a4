// A worker thread's whole life: render one report from the model it was given (pdf-thread.ts) and
// post the PDF's bytes to its parent as they come, then 'end'. The parent's event loop only relays.
import { parentPort, workerData } from 'node:worker_threads'
import { writeScanPdf } from './index.js'
import type { PdfJob } from '../pdf-thread.js'

const job = workerData as PdfJob
await writeScanPdf((chunk) => parentPort!.postMessage(chunk), job.scan, job.findings, job.tests, { changes: job.changes, totals: job.totals, now: job.now })
parentPort!.postMessage('end')
