// NVD CVE API 2.0 feeds (`ward admin cve import FILE…`): the JSON files NVD publishes, whole-year
// feeds included ({"vulnerabilities": [{"cve": {...}}, ...]}), read as a stream one vulnerability at
// a time so a feed of any size fits in memory, and turned into what Ward keeps of each CVE: the
// description, CVSS v3.1 (and v4.0) base score and vector, CWE ids, references, and the product
// version ranges of its vulnerable CPE matches.
import { createReadStream } from 'node:fs'
import { createGunzip } from 'node:zlib'
import { normaliseCve } from './kev.js'
import type { CveImport } from '../store/cves.js'

export class NvdFeedError extends Error {
  override name = 'NvdFeedError'
}

/** What Ward keeps of a CVE (store/cves.ts writes it). */
export type NvdCve = CveImport
/** One vulnerable product range of a CVE (a `cpeMatch` with `vulnerable: true`). */
export type CveProductRange = CveImport['products'][number]

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const optStr = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null)

/** The fields of a CPE 2.3 name, split on the colons that are not escaped ('cpe:2.3:a:apache:http_server:2.4.49:...'). */
export function parseCpe(cpe: string): { part: string; vendor: string; product: string; version: string } | null {
  const f = cpe.split(/(?<!\\):/)
  if (f.length < 6 || f[0] !== 'cpe' || f[1] !== '2.3') return null
  const unescaped = (s: string) => s.replace(/\\(.)/g, '$1').toLowerCase()
  return { part: f[2]!, vendor: unescaped(f[3]!), product: unescaped(f[4]!), version: unescaped(f[5]!) }
}

/** The first metric of a kind, preferring NVD's own ("Primary") over a CNA's. */
function metric(list: unknown): { score: number; vector: string } | null {
  const ms = arr(list).filter(isObject)
  const m = ms.find((x) => x.type === 'Primary') ?? ms[0]
  const data = m && isObject(m.cvssData) ? m.cvssData : null
  if (!data || typeof data.baseScore !== 'number' || typeof data.vectorString !== 'string') return null
  if (!(data.baseScore >= 0 && data.baseScore <= 10)) return null
  return { score: data.baseScore, vector: data.vectorString }
}

/** One element of the feed's `vulnerabilities` array → an NvdCve, or null when it is not a usable CVE (rejected, no id). */
export function cveFromFeedItem(item: unknown): NvdCve | null {
  const cve = isObject(item) && isObject(item.cve) ? item.cve : null
  const id = cve && typeof cve.id === 'string' ? normaliseCve(cve.id) : null
  if (!cve || !id) return null
  if (cve.vulnStatus === 'Rejected') return null
  const descs = arr(cve.descriptions).filter(isObject)
  const description = optStr((descs.find((d) => d.lang === 'en') ?? descs[0])?.value) ?? ''
  const metrics = isObject(cve.metrics) ? cve.metrics : {}
  const cwe = new Set<string>()
  for (const w of arr(cve.weaknesses).filter(isObject))
    for (const d of arr(w.description).filter(isObject)) if (typeof d.value === 'string' && /^CWE-\d+$/.test(d.value)) cwe.add(d.value)
  const references = [
    ...new Set(
      arr(cve.references)
        .filter(isObject)
        .map((r) => optStr(r.url))
        .filter((u): u is string => !!u && /^https?:\/\//i.test(u)),
    ),
  ]
  const products: CveProductRange[] = []
  for (const conf of arr(cve.configurations).filter(isObject))
    for (const node of arr(conf.nodes).filter(isObject))
      for (const m of arr(node.cpeMatch).filter(isObject)) {
        if (m.vulnerable !== true || typeof m.criteria !== 'string') continue
        const cpe = parseCpe(m.criteria)
        if (!cpe || cpe.part === 'o' || cpe.part === 'h') continue
        const bounded = ['versionStartIncluding', 'versionStartExcluding', 'versionEndIncluding', 'versionEndExcluding'].some((k) =>
          optStr(m[k]),
        )
        const version = cpe.version === '*' || cpe.version === '-' ? null : cpe.version
        // '*' without bounds says "every version": it tells nothing about the version seen, so it is left out.
        if (!version && !bounded) continue
        products.push({
          vendor: cpe.vendor,
          product: cpe.product,
          version,
          startIncluding: optStr(m.versionStartIncluding),
          startExcluding: optStr(m.versionStartExcluding),
          endIncluding: optStr(m.versionEndIncluding),
          endExcluding: optStr(m.versionEndExcluding),
        })
      }
  return {
    id,
    description,
    cvss3: metric(metrics.cvssMetricV31) ?? metric(metrics.cvssMetricV30),
    cvss4: metric(metrics.cvssMetricV40),
    cwe: [...cwe],
    references,
    lastModified: optStr(cve.lastModified),
    products,
  }
}

/**
 * The elements of the top-level `vulnerabilities` array of a JSON file (gzip when the name ends in .gz),
 * one parsed element at a time: the text is scanned for the array's element boundaries (strings and
 * escapes respected) and only one element is held at once.
 */
export async function* feedItems(file: string): AsyncGenerator<unknown> {
  const raw = createReadStream(file)
  const stream = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw
  stream.setEncoding('utf8')
  let depth = 0
  let inString = false
  let escaped = false
  let key = ''
  let keyBuf: string[] | null = null
  let lastKey = ''
  let inArray = false
  let seenArray = false
  let item: string[] = []
  let itemStart = -1
  let sawTop = false
  for await (const chunk of stream as AsyncIterable<string>) {
    itemStart = inArray && depth >= 3 ? 0 : -1
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]!
      if (inString) {
        if (keyBuf && !escaped && ch !== '"' && ch !== '\\') keyBuf.push(ch)
        if (escaped) escaped = false
        else if (ch === '\\') escaped = true
        else if (ch === '"') {
          inString = false
          if (keyBuf) {
            key = keyBuf.join('')
            keyBuf = null
          }
        }
        continue
      }
      switch (ch) {
        case '"':
          inString = true
          if (depth === 1) keyBuf = []
          break
        case ':':
          if (depth === 1) lastKey = key
          break
        case '{':
        case '[':
          if (depth === 0 && ch !== '{') throw new NvdFeedError('an NVD feed is a JSON object with a "vulnerabilities" array')
          if (depth === 0) sawTop = true
          depth++
          if (depth === 2 && ch === '[' && lastKey === 'vulnerabilities') {
            inArray = true
            seenArray = true
          } else if (inArray && depth === 3) itemStart = i
          break
        case '}':
        case ']':
          depth--
          if (inArray && depth === 2) {
            item.push(chunk.slice(itemStart, i + 1))
            const text = item.join('')
            item = []
            itemStart = -1
            try {
              yield JSON.parse(text) as unknown
            } catch (e) {
              throw new NvdFeedError(`a vulnerabilities[] element is not valid JSON: ${(e as Error).message}`)
            }
          } else if (inArray && depth === 1) inArray = false
          if (depth === 1 && ch === ']') lastKey = ''
          break
        default:
          if (depth === 1 && ch === ',') lastKey = ''
      }
    }
    if (inArray && itemStart >= 0 && depth >= 3) item.push(chunk.slice(itemStart))
  }
  if (!sawTop) throw new NvdFeedError('the file holds no JSON object')
  if (depth !== 0 || inString) throw new NvdFeedError('the file ends inside its JSON (truncated?)')
  if (!seenArray) throw new NvdFeedError('the file has no "vulnerabilities" array; is it an NVD CVE API 2.0 feed?')
}
