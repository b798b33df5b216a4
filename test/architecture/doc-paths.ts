// The paths under src/ that Ward's docs name, read by the rule stated at the top of
// docs/architecture.md, so a test can fail when a doc names a file or folder that no longer exists.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

export interface DocPath {
  doc: string
  line: number
  /** As written, without a leading "src/". */
  path: string
}

/**
 * Every `backticked` path of `text` under src/: a span whose first word starts with "src/" or with
 * "<layer>/" for one of `layers` (the folders of src/). Only the first word of a span counts
 * (`store/scans.ts queueScan` names store/scans.ts); ":12" or "#part" after it is no part of the path.
 */
export function docPaths(doc: string, text: string, layers: readonly string[]): DocPath[] {
  const found: DocPath[] = []
  const lines = text.split('\n')
  let fenced = false
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    if (fenced) return // code blocks are shell sessions and listings, not references
    for (const m of line.matchAll(/`([^`\n]+)`/g)) {
      const word = m[1]!
        .trim()
        .split(/\s+/)[0]!
        .replace(/[:#].*$/, '')
      const path = word.startsWith('src/') ? word.slice(4) : word
      const first = path.split('/')[0]!
      if (path.includes('/') && layers.includes(first)) found.push({ doc, line: i + 1, path })
    }
  })
  return found
}

/**
 * Whether `path` names something under `srcDir`. A segment in angle brackets (`tools/<tool>/run.ts`)
 * stands for any folder or file name: the path exists when at least one name fills it.
 */
export function pathExists(srcDir: string, path: string): boolean {
  const parts = path.replace(/\/$/, '').split('/')
  const walk = (dir: string, i: number): boolean => {
    if (i === parts.length) return true
    const part = parts[i]!
    if (/^<[^>]+>$/.test(part)) {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) return false
      return readdirSync(dir).some((name) => walk(join(dir, name), i + 1))
    }
    const next = join(dir, part)
    return existsSync(next) && walk(next, i + 1)
  }
  return walk(srcDir, 0)
}

/** Every Markdown file under `dir`, recursively (paths relative to the repository root as `prefix/...`). */
export function markdownFiles(dir: string, prefix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name), `${prefix}/${e.name}`) : e.name.endsWith('.md') ? [`${prefix}/${e.name}`] : [],
  )
}
