import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderScanPdf } from '../../src/reports/pdf/index.js'
import { niceScale } from '../../src/reports/pdf/summary.js'
import { clean, formatDuration, formatTime } from '../../src/reports/pdf/text.js'
import type { ReportFinding, ReportScan, ReportTest, RiskLevel } from '../../src/reports/report-model.js'

// WARD_KEEP_PDF=/some/dir keeps the rendered files for a look (pdftoppm -png -r 60 ...).
const keepDir = process.env.WARD_KEEP_PDF
const dir = keepDir ?? mkdtempSync(join(tmpdir(), 'ward-pdf-'))
if (keepDir) mkdirSync(keepDir, { recursive: true })
after(() => {
  if (!keepDir) rmSync(dir, { recursive: true, force: true })
})

const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined
if (!hasPdftotext) console.log('pdftotext (poppler-utils) is not installed: checking PDF structure only, not its text')

const NOW = new Date('2026-11-21T10:20:00Z')
const NON_ASCII = 'Zürich — ✓ Ελληνικά Кириллица café naïve ½ € “quotes”'

function scan(n: number): ReportScan {
  return {
    id: 4242,
    tool_id: 170,
    tool_name: 'Website Scanner',
    target: { name: 'https://shop.example.com', type: 'url' },
    status_name: 'finished',
    status_message: n === 1 ? 'Reached max_scan_time (10 min); results so far are kept.' : null,
    start_time: '2026-11-21T10:15:00Z',
    end_time: '2026-11-21T10:19:32Z',
    duration: 272,
    result_summary: { critical: 0, high: 0, medium: 0, low: 0, info: 0, text: '' },
  }
}

const OWASP = {
  owasp_2017: 'A6:2017-Security Misconfiguration',
  owasp_2021: 'A05:2021-Security Misconfiguration',
  owasp_2025: 'A02:2025-Security Misconfiguration',
}

function finding(i: number): ReportFinding {
  const risk = ((i * 7) % 5) as RiskLevel
  const evidence: ReportFinding['vuln_evidence'] =
    i % 3 === 0
      ? {
          type: 'table',
          data: {
            headers: ['Header', 'Value', 'Note'],
            rows: Array.from({ length: i === 0 ? 90 : 3 }, (_, r) => [
              `x-row-${r}`,
              r === 1 ? 'a-very-long-unbroken-value-'.repeat(12) : `value ${r} ${NON_ASCII}`,
              r === 2 ? 'This cell holds a sentence long enough to wrap over several lines inside its narrow column of the table.' : '',
            ]),
          },
        }
      : i % 3 === 1
        ? {
            type: 'text',
            data: { text: `HTTP/1.1 200 OK\nServer: Apache/2.4.49 (Unix)\nX-Note: ${NON_ASCII}\n\n<html>${'x'.repeat(300)}</html>` },
          }
        : null
  return {
    id: 1000 + i,
    name: `Finding number ${i} ${i === 0 ? NON_ASCII : ''}`.trim(),
    vuln_id: `website.test.check-${i}`,
    risk_level: risk,
    status: i % 11 === 0 ? 'accepted' : 'open',
    vuln_description:
      `The response for finding ${i} lacks a protection. ${NON_ASCII}. ` + 'More words to fill a paragraph. '.repeat(i % 4 === 0 ? 12 : 2),
    risk_description: 'An attacker could take advantage of it to read data they should not.',
    recommendation: 'Set the header on every response and verify with a second scan.',
    references: [
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Content-Security-Policy',
      'https://cwe.mitre.org/data/definitions/693.html',
    ],
    cve: i % 5 === 0 ? ['CVE-2021-41773', 'CVE-2021-42013'] : [],
    cwe: 'CWE-693',
    owasp: OWASP,
    vuln_evidence: evidence,
    port: 443,
    protocol: 'tcp',
    service: 'https',
    confirmed: i % 2 === 0,
    in_cisa_catalog: i % 5 === 0,
    url: i % 2 === 0 ? `https://shop.example.com/path/${i}?q=1` : null,
  }
}

const findings = (n: number) => Array.from({ length: n }, (_, i) => finding(i))

const tests = (n: number): ReportTest[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `Test ${i}: security headers`,
    description: `Fetched the home page and checked response ${i} for headers. ${i === 0 ? NON_ASCII : ''}`,
    status: i % 9 === 0 ? 'skipped' : 'finished',
    result: i % 9 === 0 ? null : i % 4 === 0 ? 'failed' : i % 13 === 0 ? 'error' : 'passed',
  }))

/** pdftotext may break a long string across lines; compare with whitespace collapsed. */
const flat = (s: string) => s.replace(/\s+/g, ' ')

interface Rendered {
  file: string
  buf: Buffer
  pages: number
  text: string | null
  layout: string
  has: (s: string) => boolean
  ms: number
}

async function render(name: string, f: ReportFinding[], t: ReportTest[], s = scan(f.length)): Promise<Rendered> {
  const t0 = performance.now()
  const buf = await renderScanPdf(s, f, t, { now: NOW })
  const ms = performance.now() - t0
  const file = join(dir, `${name}.pdf`)
  writeFileSync(file, buf)
  assert.equal(buf.subarray(0, 5).toString('latin1'), '%PDF-')
  assert.match(buf.subarray(-16).toString('latin1'), /%%EOF\s*$/)
  const pages = (buf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length
  const extract = (...args: string[]) =>
    flat(execFileSync('pdftotext', [...args, '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 << 20 }).toString('utf8'))
  // Reading order (paragraphs whole) and layout order (table rows whole): a string may be in either.
  const text = hasPdftotext ? extract() : null
  const layout = hasPdftotext ? extract('-layout') : ''
  const has = (s: string) => text !== null && (text.includes(s) || layout.includes(s))
  return { file, buf, pages, text, layout, has, ms }
}

test('a scan with no findings renders cover, summary and tests', async () => {
  const r = await render('report-0', [], tests(3))
  assert.equal(r.pages, 3, 'cover, summary, tests')
  if (!r.text) return
  const text = r.text
  for (const s of [
    'SECURITY SCAN REPORT',
    'https://shop.example.com',
    'Website Scanner · scan #4242',
    'finished',
    '2026-11-21 10:15:00 UTC',
    '4 min 32 s',
    'Findings by risk',
    'The scan recorded no findings.',
    'Tests performed',
    'Test 2: security headers',
    'Page 3 of 3',
    NON_ASCII,
  ])
    assert.ok(r.has(s), `missing: ${s}`)
  assert.ok(!text.includes('Findings overview'))
})

test('a scan with one finding shows every field of it', async () => {
  const f = finding(0)
  const r = await render('report-1', [f], tests(2))
  assert.ok(r.pages >= 4, `pages: ${r.pages}`)
  if (!r.text) return
  for (const s of [
    `1. ${f.name}`,
    'INFO',
    'ACCEPTED',
    'CONFIRMED',
    'CISA KEV: KNOWN EXPLOITED',
    'https://shop.example.com/path/0?q=1 · 443/tcp · https',
    'website.test.check-0',
    'CVE-2021-41773, CVE-2021-42013',
    'CWE-693',
    'A02:2025-Security Misconfiguration',
    'A05:2021-Security Misconfiguration',
    'A6:2017-Security Misconfiguration',
    'DESCRIPTION',
    'IMPACT',
    'EVIDENCE',
    'RECOMMENDATION',
    'REFERENCES',
    'An attacker could take advantage',
    'Set the header on every response',
    'https://cwe.mitre.org/data/definitions/693.html',
    // The evidence table: header row and cells, the 90th row on a later page.
    'Header Value Note',
    'x-row-0',
    'x-row-89',
    `value 3 ${NON_ASCII}`,
    'narrow column of the table.',
    'Reached max_scan_time',
    'Findings overview',
    '1 finding: 1 info.',
    NON_ASCII,
    `Page ${r.pages} of ${r.pages}`,
  ])
    assert.ok(r.has(s), `missing: ${s}`)
  // The 90-row table spans pages and repeats its header on each.
  assert.ok((r.layout.match(/Header Value Note/g) ?? []).length >= 2, 'table header repeated after a page break')
})

test('500 findings render quickly, in risk order, with text and table evidence', async () => {
  const all = findings(500)
  const r = await render('report-500', all, tests(120))
  console.log(`500 findings: ${r.pages} pages, ${(r.buf.length / 1024).toFixed(0)} KiB, ${r.ms.toFixed(0)} ms`)
  assert.ok(r.ms < 30_000, `rendering took ${r.ms} ms`)
  assert.ok(r.pages > 100 && r.pages < 1500, `pages: ${r.pages}`)
  assert.ok(r.buf.length < 20 * 1024 * 1024, `size: ${r.buf.length}`)
  if (!r.text) return
  const text = r.text
  // Details in risk order: all critical findings before any high one, ..., info last.
  const detailStart = text.indexOf('Findings 1. ')
  assert.ok(detailStart > 0, 'the findings section starts with finding 1')
  const detail = text.slice(detailStart)
  const firstOf = (level: RiskLevel) => detail.indexOf(`. Finding number ${all.findIndex((f) => f.risk_level === level)} `)
  const lastOf = (level: RiskLevel) =>
    detail.indexOf(`. Finding number ${all.length - 1 - [...all].reverse().findIndex((f) => f.risk_level === level)} `)
  for (const [hi, lo] of [
    [4, 3],
    [3, 2],
    [2, 1],
    [1, 0],
  ] as const) {
    assert.ok(firstOf(hi) >= 0 && lastOf(hi) >= 0 && firstOf(lo) >= 0, `levels ${hi}/${lo} present`)
    assert.ok(lastOf(hi) < firstOf(lo), `every level-${hi} finding precedes the level-${lo} ones`)
  }
  assert.ok(detail.includes('500. Finding number'), 'the 500th finding is detailed')
  assert.ok(text.includes('500 findings: 100 critical, 100 high, 100 medium, 100 low, 100 info.'))
  assert.ok(text.includes('HTTP/1.1 200 OK Server: Apache/2.4.49 (Unix)'), 'text evidence')
  assert.ok(text.includes('a-very-long-unbroken-value-a-very-long'), 'an unbroken cell value wraps without being lost')
  assert.ok(text.includes('Test 119: security headers'), 'the last test is listed')
  assert.ok(text.includes(`Page ${r.pages} of ${r.pages}`))
  assert.ok(text.includes('findings concern a vulnerability listed in CISA'))
})

test('hostile and oversized strings stay bounded and do not break rendering', async () => {
  const f = finding(1)
  f.name = `Bad\u0000name\u202Ewith controls\u0007 and a lone \uD800 surrogate`
  f.vuln_description = 'word '.repeat(200_000)
  f.vuln_evidence = { type: 'text', data: { text: `${'line\n'.repeat(50_000)}${'z'.repeat(100_000)}` } }
  f.references = Array.from({ length: 500 }, (_, i) => `https://example.com/ref/${i}`)
  const big: ReportFinding['vuln_evidence'] = {
    type: 'table',
    data: { headers: ['only'], rows: Array.from({ length: 10_000 }, (_, i) => [String(i), 'extra', 'cells']) },
  }
  const g = { ...finding(3), vuln_evidence: big }
  const r = await render('report-hostile', [f, g], tests(1))
  assert.ok(r.pages < 40, `pages: ${r.pages}`)
  assert.ok(r.ms < 20_000, `rendering took ${r.ms} ms`)
  if (!r.text) return
  const text = r.text
  assert.ok(text.includes('Badnamewith controls and a lone surrogate'), 'controls, bidi overrides and lone surrogates are dropped')
  assert.ok(text.includes('more characters in the JSON output'))
  assert.ok(text.includes('more lines in the JSON output'))
  assert.ok(text.includes('9800 more rows in the JSON output.'))
  assert.ok(text.includes('and 470 more (see the JSON output).'))
})

test('helpers: scale, durations, times, cleaning', () => {
  assert.deepEqual(niceScale(0), { step: 1, top: 1 })
  assert.deepEqual(niceScale(3), { step: 1, top: 3 })
  assert.deepEqual(niceScale(7), { step: 2, top: 8 })
  assert.deepEqual(niceScale(100), { step: 50, top: 100 })
  assert.deepEqual(niceScale(101), { step: 50, top: 150 })
  assert.equal(formatDuration(0), '0 s')
  assert.equal(formatDuration(272), '4 min 32 s')
  assert.equal(formatDuration(3725), '1 h 02 min 05 s')
  assert.equal(formatTime(null), '—')
  assert.equal(formatTime('2026-11-21T10:15:00Z'), '2026-11-21 10:15:00 UTC')
  assert.equal(clean('a\r\nb\tc\u0001'), 'a\nb    c')
  assert.equal(clean('abcdef', 3), 'abc… [3 more characters in the JSON output]')
})
