// The scans this worker is running right now, each with the controller that aborts its tool.
import { ScanAbort, type AbortKind } from './abort.js'

interface Entry {
  controller: AbortController
  done: Promise<void>
}

export class ActiveScans {
  private readonly scans = new Map<number, Entry>()

  get size(): number {
    return this.scans.size
  }

  ids(): number[] {
    return [...this.scans.keys()]
  }

  /** Runs `run` as the scan's work; the scan leaves the set when it settles, then `onDone` runs. */
  start(scanId: number, run: (controller: AbortController) => Promise<void>, onDone: () => void): void {
    const controller = new AbortController()
    const entry: Entry = { controller, done: Promise.resolve() }
    this.scans.set(scanId, entry)
    entry.done = run(controller).finally(() => {
      this.scans.delete(scanId)
      onDone()
    })
  }

  /** Aborts one scan's tool (once); the reason becomes its final state. */
  abort(scanId: number, kind: AbortKind, message: string): void {
    const a = this.scans.get(scanId)
    if (a && !a.controller.signal.aborted) a.controller.abort(new ScanAbort(kind, message))
  }

  abortAll(kind: AbortKind, message: string): void {
    for (const id of this.scans.keys()) this.abort(id, kind, message)
  }

  /** Resolves when every scan running now has written its end. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.scans.values()].map((a) => a.done))
  }
}
