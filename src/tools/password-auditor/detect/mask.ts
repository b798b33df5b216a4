// How a found password is shown: enough to recognise it ("ad***n"), never enough to use it. Pure.

/** "admin" → "ad***n"; 3-4 characters keep the first only; shorter ones nothing; "" → "(empty)". */
export function maskPassword(password: string): string {
  const chars = [...password]
  if (!chars.length) return '(empty)'
  if (chars.length <= 2) return '***'
  if (chars.length <= 4) return `${chars[0]}***`
  return `${chars.slice(0, 2).join('')}***${chars[chars.length - 1]}`
}
