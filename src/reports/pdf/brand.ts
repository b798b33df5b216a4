// Ward's mark: a shield with a check, drawn as vector paths (24-unit design grid).
import type { Doc } from './layout.js'

const SHIELD = 'M12 1.5 L21 5 V11.2 C21 17 17.2 21.3 12 22.8 C6.8 21.3 3 17 3 11.2 V5 Z'
const CHECK = 'M7.8 12.2 L10.8 15.2 L16.4 9.2'

export function drawLogo(doc: Doc, x: number, y: number, size: number, color: string, checkColor: string): void {
  const s = size / 24
  doc.save()
  doc.translate(x, y).scale(s)
  doc.path(SHIELD).fill(color)
  doc.path(CHECK).lineWidth(2.2).lineCap('round').lineJoin('round').strokeColor(checkColor).stroke()
  doc.restore()
}
