// The list of tests the tool performed: what was checked, and how each check ended.
import { paragraph, sectionTitle, type Doc } from './layout.js'
import type { ReportContent } from './content.js'
import { drawCappedTable } from './table.js'
import { cell, plural } from './text.js'
import { COLOR } from './theme.js'

const RESULT_COLOR: Record<string, string> = { passed: '#1f7a4d', failed: '#c0392b', error: '#b9770e' }

export async function drawTests(doc: Doc, c: ReportContent): Promise<void> {
  sectionTitle(doc, 'Tests performed')
  doc.outline.addItem('Tests performed')
  const { tests } = c
  if (tests.length === 0) {
    paragraph(doc, 'The scan recorded no tests.', { color: COLOR.muted })
    return
  }
  const by = (r: string) => tests.filter((t) => t.result === r).length
  const skipped = tests.filter((t) => t.status === 'skipped').length
  paragraph(
    doc,
    `${plural(tests.length, 'test')}: ${by('passed')} passed, ${by('failed')} failed, ${by('error')} ended in error, ${skipped} skipped.`,
  )
  const result = (t: (typeof tests)[number]) => ({ color: RESULT_COLOR[t.result ?? ''] ?? COLOR.muted, font: 'bold' as const })
  await drawCappedTable(
    doc,
    [
      { header: 'Test', weight: 30, text: (t) => cell(t.name, 300) },
      { header: 'Description', weight: 48, text: (t) => cell(t.description, 1000) },
      { header: 'Status', weight: 11, text: (t) => cell(t.status, 30) },
      { header: 'Result', weight: 11, text: (t) => cell(t.result ?? '—', 30), style: result },
    ],
    tests,
    'tests in the API (GET /scans/{id}/tests)',
  )
}
