// The text of a PDF that pdfkit wrote (embedded font subsets, hex glyph strings), without poppler: each
// Flate stream is inflated, the fonts' ToUnicode maps read, and every Tj/TJ string decoded with each map.
// Enough to search a report for words (tests), not a general PDF reader.
import { inflateSync } from 'node:zlib'

function streams(pdf: Buffer): string[] {
  const out: string[] = []
  let at = 0
  for (;;) {
    const s = pdf.indexOf('stream', at)
    if (s < 0) break
    const start = pdf[s + 6] === 0x0d ? s + 8 : s + 7
    const end = pdf.indexOf('endstream', start)
    if (end < 0) break
    const raw = pdf.subarray(start, end)
    try {
      out.push(inflateSync(raw).toString('latin1'))
    } catch {
      out.push(raw.toString('latin1'))
    }
    at = end + 9
  }
  return out
}

function cmap(text: string): Map<number, string> {
  const m = new Map<number, string>()
  // Ligatures map one glyph to several code points: <0066 0069>.
  const uni = (hex: string) => String.fromCodePoint(...(hex.replace(/\s+/g, '').match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)))
  for (const block of text.split('beginbfchar').slice(1))
    for (const x of block.split('endbfchar')[0]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) m.set(parseInt(x[1]!, 16), uni(x[2]!))
  for (const block of text.split('beginbfrange').slice(1))
    for (const x of block.split('endbfrange')[0]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F\s]+>)/g)) {
      const lo = parseInt(x[1]!, 16)
      const hi = parseInt(x[2]!, 16)
      if (x[3]!.startsWith('[')) [...x[3]!.matchAll(/<([0-9a-fA-F\s]+)>/g)].forEach((d, i) => m.set(lo + i, uni(d[1]!)))
      else for (let g = lo; g <= hi; g++) m.set(g, String.fromCodePoint(parseInt(x[3]!.slice(1, -1), 16) + g - lo))
    }
  return m
}

/** Every text string of the PDF, decoded with each font's map (one entry per string and map). */
export function pdfTexts(pdf: Buffer): string[] {
  const all = streams(pdf)
  const maps = all.filter((s) => s.includes('beginbfchar') || s.includes('beginbfrange')).map(cmap)
  const out: string[] = []
  for (const s of all) {
    // A TJ array's pieces (kerning numbers between them) make one string.
    for (const op of s.matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hex = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1]).join('') : op[2]!
      for (const m of maps) out.push((hex.match(/.{4}/g) ?? []).map((g) => m.get(parseInt(g, 16)) ?? '\uFFFD').join(''))
    }
  }
  return out
}
