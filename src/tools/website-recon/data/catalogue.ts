// Technology fingerprint catalogues (fingerprints.json, format in docs/tools.md), compiled;
// entries given in tool_params.fingerprints the same way. A bad pattern names its entry.
import { productKey, type ProductKey } from '../../lib/services/products.js'

export interface Pattern {
  re: RegExp
  /** "\1"-style template of the version, or null. */
  version: string | null
  confidence: number
}

export interface Technology {
  name: string
  cats: string[]
  headers: Array<[string, Pattern]>
  cookies: Array<[string, Pattern]>
  meta: Array<[string, Pattern]>
  scripts: Pattern[]
  scriptText: Pattern[]
  links: Pattern[]
  html: Pattern[]
  /** mmh3 (Shodan) as a decimal string, or "sha256:<hex>". */
  favicon: string[]
  implies: string[]
  /** The version catalogue's product, for end-of-life and CVE findings. */
  product: ProductKey | null
}

export type RawEntry = {
  cats?: string[]
  headers?: Record<string, string>
  cookies?: Record<string, string>
  meta?: Record<string, string>
  scripts?: string[]
  scriptText?: string[]
  links?: string[]
  html?: string[]
  favicon?: string[]
  implies?: string[]
  product?: string
}

export class FingerprintError extends Error {
  override name = 'FingerprintError'
}

/** "regex\;version:\1\;confidence:50" → a Pattern. */
export function parsePattern(text: string, where: string): Pattern {
  const [source, ...tags] = text.split('\\;')
  let version: string | null = null
  let confidence = 100
  for (const t of tags) {
    if (t.startsWith('version:')) version = t.slice(8)
    else if (t.startsWith('confidence:')) confidence = Math.max(0, Math.min(100, Number(t.slice(11)) || 0))
  }
  try {
    // Bounded input (a page is cut to 512 KiB) and no backreferences: patterns stay linear in practice.
    return { re: new RegExp(source ?? '', 'i'), version, confidence }
  } catch (e) {
    throw new FingerprintError(`${where}: ${(e as Error).message}`)
  }
}

const strings = (v: unknown, where: string): string[] => {
  if (v === undefined) return []
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new FingerprintError(`${where} must be a list of strings`)
  return v as string[]
}
const pairs = (v: unknown, name: string, member: string): Array<[string, Pattern]> => {
  if (v === undefined) return []
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new FingerprintError(`${name}.${member} must be an object of name → pattern`)
  return Object.entries(v as Record<string, unknown>).map(([k, p]) => {
    if (typeof p !== 'string') throw new FingerprintError(`${name}.${member}.${k} must be a string`)
    return [k.toLowerCase(), parsePattern(p, `${name}.${member}.${k}`)]
  })
}

export function compileEntry(name: string, e: RawEntry): Technology {
  const list = (member: keyof RawEntry) => strings(e[member], `${name}.${member}`).map((p, i) => parsePattern(p, `${name}.${member}[${i}]`))
  return {
    name,
    cats: strings(e.cats, `${name}.cats`),
    headers: pairs(e.headers, name, 'headers'),
    cookies: pairs(e.cookies, name, 'cookies'),
    meta: pairs(e.meta, name, 'meta'),
    scripts: list('scripts'),
    scriptText: list('scriptText'),
    links: list('links'),
    html: list('html'),
    favicon: strings(e.favicon, `${name}.favicon`),
    implies: strings(e.implies, `${name}.implies`),
    product: productKey(e.product) ?? (e.product ? null : productKey(name)),
  }
}

export function compileCatalogue(entries: Record<string, RawEntry>): Technology[] {
  return Object.entries(entries).map(([name, e]) => compileEntry(name, e))
}
