// A PDF report refused because the process's build queue is full (reports/pdf-builds.ts) answers 503
// with the time to come back, on the API and on the web pages alike.
import { PdfBusyError } from '../reports/pdf-builds.js'
import { WardError } from './errors.js'

export async function pdfOrBusy<T>(reply: { header(name: string, value: string): unknown }, build: () => Promise<T>): Promise<T> {
  try {
    return await build()
  } catch (e) {
    if (!(e instanceof PdfBusyError)) throw e
    reply.header('retry-after', String(e.retryAfterS))
    throw new WardError(503, e.message)
  }
}
