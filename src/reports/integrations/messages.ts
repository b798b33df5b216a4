// Messages people read, one per scan (never one per finding): Slack Block Kit, a Teams Adaptive
// Card, and an e-mail digest (plain text and HTML). Scanner text (finding names, locations, target
// names, status messages) is escaped for each format: Slack mrkdwn (&, <, >), HTML, and in Adaptive
// Cards it is put only in TextRuns, which render no Markdown, with template braces broken.
import type { FindingItem, ScanEvent } from './scan-event.js'
import { RISK_NAMES } from '../risk.js'

/** A message that is not about a scan: a missed schedule slot, a test. */
export interface Notice {
  kind: 'notice'
  title: string
  text: string
  link: string | null
}
export type Message = ScanEvent | Notice

export const LIST_MAX = 10

const riskName = (r: number) => RISK_NAMES[r] ?? String(r)

export function titleOf(m: Message): string {
  if (m.kind === 'notice') return m.title
  const s = m.scan
  const what = m.events.includes('scan.failed') ? `ended "${s.status}"` : s.status === 'finished' ? 'finished' : `ended "${s.status}"`
  return `Ward: ${s.tool} scan ${s.id} of ${s.target} ${what}`
}

function sections(m: ScanEvent): Array<[string, FindingItem[]]> {
  return (
    [
      ['New findings', m.new],
      ['Back again (regressions)', m.regression],
      ['Fixed', m.fixed],
    ] as Array<[string, FindingItem[]]>
  ).filter(([, l]) => l.length)
}

const line = (f: FindingItem) => `${riskName(f.risk_level)}: ${f.name}${f.location ? ` at ${f.location}` : ''}`

// ---- Slack ----
export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const slackLink = (url: string | null, text: string) => (url ? `<${url}|${slackEscape(text).replace(/\|/g, '¦')}>` : slackEscape(text))

export function slackMessage(m: Message): Record<string, unknown> {
  const title = titleOf(m)
  const blocks: unknown[] = [{ type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } }]
  if (m.kind === 'notice') {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: slackEscape(m.text).slice(0, 3000) } })
    return { text: title, blocks }
  }
  const head = [`*Findings:* ${m.scan.summary}`]
  if (m.scan.status_message) head.push(slackEscape(m.scan.status_message))
  if (m.scan.link) head.push(slackLink(m.scan.link, 'Open the scan in Ward'))
  blocks.push({ type: 'section', text: { type: 'mrkdwn', text: head.join('\n').slice(0, 3000) } })
  for (const [label, list] of sections(m)) {
    const rows = list
      .slice(0, LIST_MAX)
      .map((f) => `• *${riskName(f.risk_level)}* ${slackLink(f.link, f.name)}${f.location ? ` — ${slackEscape(f.location)}` : ''}`)
    if (list.length > LIST_MAX) rows.push(`_and ${list.length - LIST_MAX} more_`)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*${label} (${list.length})*\n${rows.join('\n')}`.slice(0, 3000) } })
  }
  return { text: title, blocks }
}

// ---- Teams (Adaptive Card in a workflow webhook message) ----
/** Plain text for a TextRun: no Markdown is rendered there; `{{` would start a template function. */
const cardText = (s: string) => s.replace(/\{\{/g, '{\u200b{')
const run = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'TextRun', text: cardText(text), ...extra })

export function teamsMessage(m: Message): Record<string, unknown> {
  const body: unknown[] = [{ type: 'RichTextBlock', inlines: [run(titleOf(m), { weight: 'Bolder', size: 'Medium' })] }]
  let link: string | null
  if (m.kind === 'notice') {
    body.push({ type: 'RichTextBlock', inlines: [run(m.text)] })
    link = m.link
  } else {
    body.push({ type: 'RichTextBlock', inlines: [run(`Findings: ${m.scan.summary}`)] })
    if (m.scan.status_message) body.push({ type: 'RichTextBlock', inlines: [run(m.scan.status_message, { isSubtle: true })] })
    for (const [label, list] of sections(m)) {
      body.push({ type: 'RichTextBlock', inlines: [run(`${label} (${list.length})`, { weight: 'Bolder' })] })
      for (const f of list.slice(0, LIST_MAX)) {
        const inlines: unknown[] = [
          run(`${riskName(f.risk_level)}: `, { weight: 'Bolder' }),
          run(f.name, f.link ? { selectAction: { type: 'Action.OpenUrl', url: f.link } } : {}),
        ]
        if (f.location) inlines.push(run(` — ${f.location}`))
        body.push({ type: 'RichTextBlock', inlines })
      }
      if (list.length > LIST_MAX)
        body.push({ type: 'RichTextBlock', inlines: [run(`and ${list.length - LIST_MAX} more`, { italic: true })] })
    }
    link = m.scan.link
  }
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    ...(link ? { actions: [{ type: 'Action.OpenUrl', title: 'Open in Ward', url: link }] } : {}),
  }
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] }
}

// ---- E-mail digest ----
export const htmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

export function emailMessage(m: Message): { subject: string; text: string; html: string } {
  const subject = titleOf(m)
    .replace(/[\r\n]+/g, ' ')
    .slice(0, 250)
  if (m.kind === 'notice') {
    const link = m.link ? `\n\n${m.link}` : ''
    return {
      subject,
      text: `${m.text}${link}\n`,
      html: `<p>${htmlEscape(m.text)}</p>${m.link ? `<p><a href="${htmlEscape(m.link)}">Open in Ward</a></p>` : ''}`,
    }
  }
  const text: string[] = [subject, '', `Findings: ${m.scan.summary}`]
  const html: string[] = [`<h2>${htmlEscape(subject)}</h2>`, `<p>Findings: ${htmlEscape(m.scan.summary)}</p>`]
  if (m.scan.status_message) {
    text.push(m.scan.status_message)
    html.push(`<p>${htmlEscape(m.scan.status_message)}</p>`)
  }
  for (const [label, list] of sections(m)) {
    text.push('', `${label} (${list.length}):`, ...list.map((f) => `- ${line(f)}${f.link ? `\n  ${f.link}` : ''}`))
    const items = list.map(
      (f) =>
        `<li><strong>${htmlEscape(riskName(f.risk_level))}</strong> ${
          f.link ? `<a href="${htmlEscape(f.link)}">${htmlEscape(f.name)}</a>` : htmlEscape(f.name)
        }${f.location ? ` — ${htmlEscape(f.location)}` : ''}</li>`,
    )
    html.push(`<h3>${htmlEscape(label)} (${list.length})</h3><ul>${items.join('')}</ul>`)
  }
  if (m.scan.link) {
    text.push('', `Open the scan: ${m.scan.link}`)
    html.push(`<p><a href="${htmlEscape(m.scan.link)}">Open the scan in Ward</a></p>`)
  }
  return { subject, text: `${text.join('\n')}\n`, html: `<!doctype html><html><body>${html.join('\n')}</body></html>` }
}
