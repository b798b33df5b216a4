// Tables drawn with vector shapes: header row, wrapping cells, zebra rows, page breaks between
// rows with the header repeated. A row taller than a page is clipped with an ellipsis.
import { FONT } from './fonts.js'
import { BOTTOM, LEFT, LINE_GAP, TOP, breathe, ensureSpace, paragraph, type Doc } from './layout.js'
import { COLOR, CONTENT_WIDTH, LIMIT, SIZE } from './theme.js'

export interface Column {
  header: string
  /** Relative width; the columns share the table width in these proportions. */
  weight: number
  font?: keyof typeof FONT
  align?: 'left' | 'right' | 'center'
}

export interface CellStyle {
  color?: string
  font?: keyof typeof FONT
  goTo?: string
}

export interface TableOptions {
  x?: number
  width?: number
  size?: number
  padding?: number
  zebra?: boolean
  cellStyle?: (row: number, col: number) => CellStyle | undefined
}

/** Rows drawn between two yields to the event loop, so a long table does not stall a server. */
const YIELD_EVERY_ROWS = 40

export async function drawTable(doc: Doc, columns: Column[], rows: string[][], opts: TableOptions = {}): Promise<void> {
  const x0 = opts.x ?? LEFT
  const width = opts.width ?? CONTENT_WIDTH
  const size = opts.size ?? SIZE.small
  const pad = opts.padding ?? 4
  const totalWeight = columns.reduce((s, c) => s + c.weight, 0)
  const widths = columns.map((c) => (c.weight / totalWeight) * width)
  const xs = widths.map((_, i) => x0 + widths.slice(0, i).reduce((s, w) => s + w, 0))
  const textWidth = (i: number) => Math.max(widths[i]! - 2 * pad, 4)

  const measure = (text: string, i: number, font: keyof typeof FONT) => {
    doc.font(FONT[font]).fontSize(size)
    return doc.heightOfString(text || ' ', { width: textWidth(i), lineGap: LINE_GAP })
  }

  const headerHeight = Math.max(...columns.map((c, i) => measure(c.header, i, 'bold'))) + 2 * pad
  const maxRowHeight = BOTTOM - TOP - headerHeight - 2

  let y = doc.y
  const drawHeader = () => {
    doc.rect(x0, y, width, headerHeight).fill(COLOR.tableHeader)
    columns.forEach((c, i) => {
      doc
        .font(FONT.bold)
        .fontSize(size)
        .fillColor(COLOR.brand)
        .text(c.header, xs[i]! + pad, y + pad, { width: textWidth(i), lineGap: LINE_GAP, align: c.align ?? 'left' })
    })
    y += headerHeight
  }

  const rowHeight = (row: string[], r: number) => {
    let h = 0
    columns.forEach((c, i) => {
      const font = opts.cellStyle?.(r, i)?.font ?? c.font ?? 'regular'
      h = Math.max(h, measure(row[i] ?? '', i, font))
    })
    return Math.min(h + 2 * pad, maxRowHeight)
  }

  // Header and first row stay together.
  const first = rows.length > 0 ? rowHeight(rows[0]!, 0) : 0
  if (ensureSpace(doc, headerHeight + first + 2)) y = doc.y
  drawHeader()

  for (let r = 0; r < rows.length; r++) {
    if (r > 0 && r % YIELD_EVERY_ROWS === 0) await breathe(doc)
    const row = rows[r]!
    const h = r === 0 ? first : rowHeight(row, r)
    if (y + h > BOTTOM) {
      doc.addPage()
      y = TOP
      drawHeader()
    }
    if (opts.zebra !== false && r % 2 === 1) doc.rect(x0, y, width, h).fill(COLOR.zebra)
    columns.forEach((c, i) => {
      const style = opts.cellStyle?.(r, i)
      doc
        .font(FONT[style?.font ?? c.font ?? 'regular'])
        .fontSize(size)
        .fillColor(style?.color ?? COLOR.text)
        .text(row[i] ?? '', xs[i]! + pad, y + pad, {
          width: textWidth(i),
          height: h - pad, // measured height plus slack, so rounding never drops a last line
          ellipsis: true,
          lineGap: LINE_GAP,
          align: c.align ?? 'left',
          ...(style?.goTo ? { goTo: style.goTo } : {}),
        })
    })
    y += h
    doc
      .moveTo(x0, y)
      .lineTo(x0 + width, y)
      .lineWidth(0.4)
      .strokeColor(COLOR.rule)
      .stroke()
  }

  doc.x = LEFT
  doc.y = y + 8
}

/** A column of a capped table: its header, its width, and the text (and style) of an item's cell. */
export interface ItemColumn<T> extends Column {
  text: (item: T) => string
  style?: (item: T) => CellStyle | undefined
}

/**
 * A table, a little below the text before it, of the first LIMIT.testRows `items` (one row each),
 * then a line saying how many more the API lists (`more`: "tests in the API (GET
 * /scans/{id}/tests)"), so a report stays a few pages.
 */
export async function drawCappedTable<T>(doc: Doc, columns: ItemColumn<T>[], items: readonly T[], more: string): Promise<void> {
  const shown = items.slice(0, LIMIT.testRows)
  doc.y += 8
  await drawTable(
    doc,
    columns,
    shown.map((item) => columns.map((c) => c.text(item))),
    { cellStyle: (r, col) => columns[col]!.style?.(shown[r]!) },
  )
  if (items.length > shown.length) paragraph(doc, `${items.length - shown.length} more ${more}.`, { color: COLOR.muted })
}
