// The pause between two polls of an outbox sender: it ends after `ms`, or at once when woken (a new
// delivery was announced, or the sender is stopping).
export function wakeableSleep(ms: number): { done: Promise<void>; wake: () => void } {
  let wake = () => {}
  const done = new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms)
    wake = () => {
      clearTimeout(t)
      resolve()
    }
  })
  return { done, wake }
}
