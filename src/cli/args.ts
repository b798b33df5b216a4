// Tiny argv parser: positional words and --flag value pairs.
export function parseArgs(argv: string[]): { words: string[]; flags: Record<string, string> } {
  const words: string[] = []
  const flags: Record<string, string> = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split('=', 2)
      if (inline !== undefined) flags[k] = inline
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[k] = argv[++i]
      else flags[k] = 'true'
    } else words.push(a)
  }
  return { words, flags }
}
