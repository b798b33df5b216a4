// Running header and "Page n of N" footer on every page but the cover, drawn as each page starts, so
// pages can leave for the output as soon as they are done (no page stays in memory). N is known only
// at the end: every footer shows one form XObject whose content, the page count, is written then.
// pdfkit has no public API for form XObjects; the few internals used are named in `Internals`.
import { FONT } from './fonts.js'
import { LEFT, RIGHT, type Doc } from './layout.js'
import { oneLine } from './text.js'
import { COLOR, CONTENT_WIDTH, PAGE } from './theme.js'
import type { ReportContent } from './content.js'

interface PdfRef {
  write(chunk: string): void
  end(): void
}
interface EmbeddedFont {
  id: string
  ascender: number
  ref(): PdfRef
  encode(text: string): [string[], unknown[]]
}
interface Internals {
  _font: EmbeddedFont
  _fontSize: number
  _fillColor?: [unknown, unknown]
  ref(data: Record<string, unknown>): PdfRef
  addContent(op: string): void
  page: { xobjects: Record<string, PdfRef> }
}

const SIZE = 7.5
const TOTAL_NAME = 'WardPageTotal'

/** Starts stamping the pages added from now on; call `finish()` before `doc.end()`. */
export function stampPages(doc: Doc, c: ReportContent): { finish(): void } {
  const d = doc as unknown as Internals
  const saved = { font: d._font, size: d._fontSize }
  doc.font(FONT.regular).fontSize(SIZE)
  const font = d._font
  // Room for the count after "of": a space and four digits; more pages still show (the box is wider).
  const totalWidth = doc.widthOfString(' 0000')
  const total = d.ref({
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, -SIZE, 80, SIZE * 1.5],
    Resources: { Font: { [font.id]: font.ref() } },
  })
  d._font = saved.font
  d._fontSize = saved.size
  const title = `Ward · ${oneLine(c.scan.tool_name, 60)} · scan #${c.scan.id}`
  const target = oneLine(c.scan.target.name, 70)
  let pages = 1 // the cover, added before this

  doc.on('pageAdded', () => {
    pages++
    // A page may start in the middle of a paragraph: what the text was drawn with is put back after.
    const before = { font: d._font, size: d._fontSize, fill: d._fillColor, x: doc.x, y: doc.y, bottom: doc.page.margins.bottom }
    // Drawing in the margins: lift the bottom margin so pdfkit does not open a new page.
    doc.page.margins.bottom = 0
    doc.font(FONT.regular).fontSize(SIZE).fillColor(COLOR.muted)
    // One line each, clipped (height + ellipsis): a long target must not run into the rule.
    const line = { width: CONTENT_WIDTH / 2 - 6, height: 10, ellipsis: true }
    doc.text(title, LEFT, 30, line)
    doc.text(target, LEFT + CONTENT_WIDTH / 2 + 6, 30, { ...line, align: 'right' })
    doc.moveTo(LEFT, 44).lineTo(RIGHT, 44).lineWidth(0.5).strokeColor(COLOR.rule).stroke()
    const fy = PAGE.height - 40
    doc
      .moveTo(LEFT, fy - 8)
      .lineTo(RIGHT, fy - 8)
      .lineWidth(0.5)
      .strokeColor(COLOR.rule)
      .stroke()
    doc.fillColor(COLOR.muted)
    doc.text('Confidential security report', LEFT, fy, { width: CONTENT_WIDTH / 2, lineBreak: false })
    doc.text(`Page ${pages} of`, LEFT + CONTENT_WIDTH / 2, fy, { width: CONTENT_WIDTH / 2 - totalWidth, align: 'right', lineBreak: false })
    // The count, on the baseline of the line above (pdfkit draws with y downwards; the form's y is up).
    doc.save()
    doc.transform(1, 0, 0, -1, RIGHT - totalWidth, fy + (font.ascender / 1000) * SIZE)
    d.page.xobjects[TOTAL_NAME] = total
    d.addContent(`/${TOTAL_NAME} Do`)
    doc.restore()
    doc.page.margins.bottom = before.bottom
    d._font = before.font
    d._fontSize = before.size
    if (before.fill) doc.fillColor(...(before.fill as [string, number]))
    doc.x = before.x
    doc.y = before.y
  })

  return {
    finish() {
      const [glyphs] = font.encode(` ${pages}`)
      total.write(`BT /${font.id} ${SIZE} Tf ${rgb(COLOR.muted)} rg 0 0 Td <${glyphs.join('')}> Tj ET`)
      total.end()
    },
  }
}

const rgb = (hex: string) => [1, 3, 5].map((i) => (parseInt(hex.slice(i, i + 2), 16) / 255).toFixed(3)).join(' ')
