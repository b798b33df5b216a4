// The one bounded-concurrency helper tools use: at most `limit` calls of `fn` in flight, results in
// input order. Once `signal` aborts no new item is started (those in flight finish on their own
// signal handling); the skipped items' results stay undefined.
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  fn: (item: T, index: number) => Promise<R>,
): Promise<(R | undefined)[]> {
  const out: (R | undefined)[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (!signal?.aborted) {
      const i = next++
      if (i >= items.length) return
      out[i] = await fn(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return out
}
