// How many PDF reports one process builds at once, and how many requests may wait for one. A build
// holds a report's model and a thread (pdf-thread.ts) for seconds; without a bound, eight requests
// of one big scan took a process from 750 MB to 2.9 GB. Requests past the queue are refused (503 with
// retry-after) instead of piling up; report callbacks wait their turn, whatever the queue.
export interface PdfBuildLimits {
  /** Builds at once (WARD_PDF_BUILDS). */
  concurrency: number
  /** Requests that may wait for a build (WARD_PDF_QUEUE); more are refused. */
  queue: number
}

export const DEFAULT_PDF_BUILD_LIMITS: PdfBuildLimits = { concurrency: 2, queue: 16 }

/** Seconds a refused client is told to wait: about one build of a big report. */
const RETRY_AFTER_S = 30

/** The queue is full: domain/report-requests.ts makes it a 503 with retry-after. */
export class PdfBusyError extends Error {
  override name = 'PdfBusyError'
  readonly retryAfterS = RETRY_AFTER_S
  constructor(limits: PdfBuildLimits) {
    super(
      `Too many PDF reports are being built (${limits.concurrency} at once, ${limits.queue} waiting): try again in ${RETRY_AFTER_S} seconds`,
    )
  }
}

export class PdfBuildSlots {
  private running = 0
  private readonly waiters: Array<() => void> = []
  private refusedCount = 0

  constructor(private limits: PdfBuildLimits = DEFAULT_PDF_BUILD_LIMITS) {}

  configure(limits: PdfBuildLimits): void {
    this.limits = limits
    while (this.running < limits.concurrency && this.waiters.length) this.waiters.shift()!()
  }

  /**
   * A build slot; the returned function gives it back (once). A full queue throws PdfBusyError,
   * unless `refuseWhenFull` is false (report callbacks: they wait however long the queue is).
   */
  async acquire(opts: { refuseWhenFull?: boolean } = {}): Promise<() => void> {
    if (this.running >= this.limits.concurrency) {
      if (opts.refuseWhenFull !== false && this.waiters.length >= this.limits.queue) {
        this.refusedCount++
        throw new PdfBusyError(this.limits)
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    } else this.running++
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiters.shift()
      if (next)
        next() // the slot passes straight to the next waiter
      else this.running--
    }
  }

  stats(): { running: number; waiting: number; refused: number } {
    return { running: this.running, waiting: this.waiters.length, refused: this.refusedCount }
  }
}

/** The process's slots: every PDF built here (API, web pages, report callbacks) takes one. */
export const pdfBuilds = new PdfBuildSlots()
