// A diagnostic step's "I/O": it waits `ms` (a probe waiting for an answer), then holds its thread
// `busyMs` in synchronous code (a tool stuck in a loop). No network.

/** Waits `ms`; ends early when `signal` aborts unless `ignoreAbort`. */
export const sleep = (ms: number, signal: AbortSignal, ignoreAbort: boolean) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms)
    // A tool that ignores abort must not keep the process alive after its scan was given up on.
    if (ignoreAbort) t.unref()
    function done() {
      clearTimeout(t)
      signal.removeEventListener('abort', onAbort)
      resolve()
    }
    const onAbort = () => {
      if (!ignoreAbort) done()
    }
    signal.addEventListener('abort', onAbort)
  })

export async function runStep(o: { ms: number; busyMs: number; signal: AbortSignal; ignoreAbort: boolean }): Promise<void> {
  await sleep(o.ms, o.signal, o.ignoreAbort)
  for (const until = Date.now() + o.busyMs; Date.now() < until; );
}
