// Page-flow primitives shared by the report sections. Everything draws at the left margin over the
// content width and keeps doc.x/doc.y where the next block should start.
import { FONT, trimLayoutCaches } from './fonts.js'
import { COLOR, CONTENT_WIDTH, PAGE, SIZE } from './theme.js'

export type Doc = PDFKit.PDFDocument

export const LEFT = PAGE.margin.left
export const RIGHT = PAGE.width - PAGE.margin.right
export const TOP = PAGE.margin.top
export const BOTTOM = PAGE.height - PAGE.margin.bottom
export const LINE_GAP = 1.5

/** Between two findings or table rows: lets other work run and keeps pdfkit's caches bounded. */
export async function breathe(doc: Doc): Promise<void> {
  trimLayoutCaches(doc)
  await new Promise<void>((r) => setImmediate(r))
}

/** Starts a new page when fewer than `height` points are left on this one; true if it did. */
export function ensureSpace(doc: Doc, height: number): boolean {
  if (doc.y + height <= BOTTOM) return false
  doc.addPage()
  return true
}

/** A section's title at the top of a fresh page, with a rule under it. */
export function sectionTitle(doc: Doc, text: string): void {
  doc.addPage()
  doc.font(FONT.bold).fontSize(SIZE.h1).fillColor(COLOR.brand).text(text, LEFT, TOP, { width: CONTENT_WIDTH })
  const y = doc.y + 4
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(1.2).strokeColor(COLOR.brandAccent).stroke()
  doc.y = y + 14
  doc.x = LEFT
}

/** A titled block inside a section ("Findings by risk"); keeps at least `keep` points with it. */
export function subTitle(doc: Doc, text: string, keep = 60): void {
  ensureSpace(doc, keep)
  doc.font(FONT.bold).fontSize(SIZE.h3).fillColor(COLOR.brand).text(text, LEFT, doc.y, { width: CONTENT_WIDTH })
  doc.y += 6
}

/** Small upper-case label above a finding's field ("DESCRIPTION"); never left alone at a page end. */
export function fieldLabel(doc: Doc, text: string, x = LEFT, width = CONTENT_WIDTH): void {
  ensureSpace(doc, 42)
  doc.font(FONT.bold).fontSize(SIZE.label).fillColor(COLOR.muted).text(text.toUpperCase(), x, doc.y, { width })
  doc.y += 2
}

export function paragraph(doc: Doc, text: string, opts: { x?: number; width?: number; color?: string; size?: number } = {}): void {
  doc
    .font(FONT.regular)
    .fontSize(opts.size ?? SIZE.body)
    .fillColor(opts.color ?? COLOR.text)
    .text(text, opts.x ?? LEFT, doc.y, { width: opts.width ?? CONTENT_WIDTH, lineGap: LINE_GAP })
  doc.x = LEFT
}

/** A filled pill with white bold text; returns its width. */
export function badge(
  doc: Doc,
  x: number,
  y: number,
  text: string,
  color: string,
  opts: { outline?: boolean; size?: number } = {},
): number {
  const size = opts.size ?? 7.5
  doc.font(FONT.bold).fontSize(size)
  const w = doc.widthOfString(text, {}) + 12
  const h = size + 7
  if (opts.outline) {
    doc
      .roundedRect(x + 0.4, y + 0.4, w - 0.8, h - 0.8, h / 2)
      .lineWidth(0.8)
      .strokeColor(color)
      .stroke()
  } else {
    doc.roundedRect(x, y, w, h, h / 2).fill(color)
  }
  doc.fillColor(opts.outline ? color : '#ffffff').text(text, x + 6, y + 3.6, { lineBreak: false })
  return w
}
export const BADGE_HEIGHT = 7.5 + 7

export function rule(doc: Doc, y: number, color: string = COLOR.rule, width = 0.6): void {
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(width).strokeColor(color).stroke()
}

/** Label/value rows (label column muted, value column wrapping), split across pages by row. */
export function keyValues(
  doc: Doc,
  rows: Array<[string, string]>,
  opts: { labelWidth?: number; size?: number; x?: number; width?: number } = {},
): void {
  const x = opts.x ?? LEFT
  const width = opts.width ?? CONTENT_WIDTH
  const lw = opts.labelWidth ?? 90
  const size = opts.size ?? SIZE.body
  for (const [label, value] of rows) {
    doc.font(FONT.regular).fontSize(size)
    const h = Math.max(doc.heightOfString(value || '—', { width: width - lw, lineGap: LINE_GAP }), size + 2)
    ensureSpace(doc, Math.min(h, BOTTOM - TOP) + 3)
    const y = doc.y
    doc
      .font(FONT.bold)
      .fontSize(size - 0.5)
      .fillColor(COLOR.muted)
      .text(label, x, y + 0.5, { width: lw - 8, lineBreak: false, ellipsis: true })
    doc
      .font(FONT.regular)
      .fontSize(size)
      .fillColor(COLOR.text)
      .text(value || '—', x + lw, y, { width: width - lw, lineGap: LINE_GAP })
    doc.y += 3
  }
  doc.x = LEFT
}
