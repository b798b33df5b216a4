// The file trees `ward admin templates import` reads: a directory, a .tar.gz (node zlib and a small
// tar reader) or a .zip (fflate). Each is a list of relative paths and a bounded read.
import { readdirSync, readFileSync, statSync, lstatSync } from 'node:fs'
import { join, posix, relative } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { unzipSync } from 'fflate'

export interface TemplateTree {
  label: string
  /** Relative paths (with '/') of every regular file. */
  files(): string[]
  /** A file's text, or null when absent or too large. */
  read(rel: string): string | null
}

/** Bounds: one file, and a whole archive once unpacked. */
export const TREE_LIMITS = { fileBytes: 4 << 20, archiveBytes: 1 << 30, files: 200_000 }

export class TreeError extends Error {}

function dirTree(dir: string): TemplateTree {
  const out: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git' || name === 'node_modules') continue
      const p = join(d, name)
      const st = lstatSync(p)
      // Symbolic links are not followed: an imported tree cannot point outside itself.
      if (st.isDirectory()) walk(p)
      else if (st.isFile() && out.length < TREE_LIMITS.files) out.push(relative(dir, p).split('\\').join('/'))
    }
  }
  walk(dir)
  return {
    label: dir,
    files: () => out,
    read(rel) {
      const p = join(dir, rel)
      try {
        const st = lstatSync(p)
        return st.isFile() && st.size <= TREE_LIMITS.fileBytes ? readFileSync(p, 'utf8') : null
      } catch {
        return null
      }
    },
  }
}

const memTree = (label: string, m: Map<string, Buffer>): TemplateTree => ({
  label,
  files: () => [...m.keys()],
  read: (rel) => m.get(rel)?.toString('utf8') ?? null,
})

/** ustar/pax/GNU tar: regular files only, names from pax `path`, GNU 'L' records or prefix+name. */
export function readTar(buf: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  let off = 0
  let longName: string | null = null
  const field = (o: number, n: number) =>
    buf
      .subarray(o, o + n)
      .toString('utf8')
      .replace(/\0.*$/s, '')
  while (off + 512 <= buf.length) {
    const h = buf.subarray(off, off + 512)
    if (h.every((b) => b === 0)) break
    const size = parseInt(field(off + 124, 12).trim() || '0', 8)
    if (!Number.isFinite(size) || size < 0) throw new TreeError('corrupt tar header')
    const type = String.fromCharCode(h[156]!)
    const data = buf.subarray(off + 512, off + 512 + size)
    const prefix = field(off + 345, 155)
    let name = longName ?? (prefix ? `${prefix}/${field(off, 100)}` : field(off, 100))
    longName = null
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))
      if (m) longName = m[1]!
    } else if (type === 'L') longName = data.toString('utf8').replace(/\0.*$/s, '')
    else if ((type === '0' || type === '\0') && size <= TREE_LIMITS.fileBytes && files.size < TREE_LIMITS.files) {
      name = posix.normalize(name.replace(/^\.?\//, ''))
      if (!name.startsWith('..')) files.set(name, Buffer.from(data))
    }
    off += 512 + Math.ceil(size / 512) * 512
  }
  return files
}

export function openTree(path: string): TemplateTree {
  const st = statSync(path)
  if (st.isDirectory()) return dirTree(path)
  const lower = path.toLowerCase()
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) {
    const tar = gunzipSync(readFileSync(path), { maxOutputLength: TREE_LIMITS.archiveBytes })
    return memTree(path, readTar(tar))
  }
  if (lower.endsWith('.zip')) {
    let total = 0
    const entries = unzipSync(readFileSync(path), {
      filter: (f) =>
        !f.name.endsWith('/') && f.originalSize <= TREE_LIMITS.fileBytes && (total += f.originalSize) <= TREE_LIMITS.archiveBytes,
    })
    return memTree(
      path,
      new Map(
        Object.entries(entries)
          .map(([k, v]) => [posix.normalize(k), Buffer.from(v)] as const)
          .filter(([k]) => !k.startsWith('..')),
      ),
    )
  }
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) {
    const name = path.split(/[\\/]/).pop()!
    return { label: path, files: () => [name], read: (rel) => (rel === name ? readFileSync(path, 'utf8') : null) }
  }
  throw new TreeError(`${path}: not a directory, .tar.gz, .zip or .yaml file`)
}

/** A payload file a template names: beside the template, at the tree's root, or under its top folder. */
export function resolveRef(tree: TemplateTree, templatePath: string, ref: string): string | null {
  if (posix.isAbsolute(ref) || ref.includes('\0')) return null
  const top = templatePath.includes('/') ? templatePath.split('/')[0]! : ''
  for (const cand of [posix.join(posix.dirname(templatePath), ref), posix.normalize(ref), top ? posix.join(top, ref) : null]) {
    if (!cand || cand.startsWith('..')) continue
    const t = tree.read(cand)
    if (t !== null) return t
  }
  return null
}
