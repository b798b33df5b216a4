// The report's fonts ship with Ward (src/reports/fonts/, DejaVu, Bitstream Vera licence beside
// them), so Latin, Greek, Cyrillic, accents and common symbols render on any machine.
// Glyphs DejaVu lacks (CJK, most emoji) show as empty boxes; the text layer still holds them.
import { readFileSync } from 'node:fs'

export const FONT = { regular: 'ward-regular', bold: 'ward-bold', mono: 'ward-mono' } as const

const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', mono: 'DejaVuSansMono.ttf' } as const

let cache: Record<keyof typeof FILES, Buffer> | undefined

/** Font files, read once per process (each document parses and subsets them itself). */
function fontData(): Record<keyof typeof FILES, Buffer> {
  cache ??= {
    regular: readFileSync(new URL(`../fonts/${FILES.regular}`, import.meta.url)),
    bold: readFileSync(new URL(`../fonts/${FILES.bold}`, import.meta.url)),
    mono: readFileSync(new URL(`../fonts/${FILES.mono}`, import.meta.url)),
  }
  return cache
}

export function registerFonts(doc: PDFKit.PDFDocument): void {
  const data = fontData()
  doc.registerFont(FONT.regular, data.regular)
  doc.registerFont(FONT.bold, data.bold)
  doc.registerFont(FONT.mono, data.mono)
  doc.font(FONT.regular)
}

/** Words whose layout one font keeps before its cache is emptied. */
const LAYOUT_CACHE_WORDS = 2000

/**
 * pdfkit caches the glyph layout of every distinct word a font ever set, for the document's life: in
 * a big report (thousands of distinct URLs and ids) that cache grew by ~100 MB and made most of the
 * rendering time garbage collection. Emptied here, between findings and table rows; common words
 * are laid out again at once.
 */
export function trimLayoutCaches(doc: PDFKit.PDFDocument): void {
  const families = (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: Record<string, unknown> }> })._fontFamilies ?? {}
  for (const font of Object.values(families)) {
    if (font.layoutCache && Object.keys(font.layoutCache).length > LAYOUT_CACHE_WORDS) font.layoutCache = Object.create(null)
  }
}
