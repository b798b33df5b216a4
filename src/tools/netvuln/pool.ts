// Runs async jobs with at most `limit` in flight; stops taking new ones once the signal aborts.
export async function runPool<T>(items: readonly T[], limit: number, signal: AbortSignal, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length && !signal.aborted) await fn(items[next++])
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
}
