// Ward's own script (no inline scripts: the CSP allows only files served by Ward).
// CSRF token on every htmx request; reveal/copy of a new API key; confirmation of destructive forms.
document.addEventListener('htmx:configRequest', (e) => {
  const t = document.querySelector('meta[name="csrf-token"]')
  if (t) e.detail.headers['x-csrf-token'] = t.getAttribute('content')
})
document.addEventListener('click', (e) => {
  const b = e.target.closest('[data-reveal]')
  if (b) {
    const el = document.getElementById(b.getAttribute('data-reveal'))
    const shown = el.getAttribute('data-shown') === '1'
    el.textContent = shown ? el.getAttribute('data-masked') : el.getAttribute('data-secret')
    el.setAttribute('data-shown', shown ? '0' : '1')
    b.textContent = shown ? 'Reveal' : 'Hide'
    b.setAttribute('aria-pressed', shown ? 'false' : 'true')
  }
  const c = e.target.closest('[data-copy]')
  if (c) {
    const el = document.getElementById(c.getAttribute('data-copy'))
    const text = el.getAttribute('data-secret') || el.textContent
    const done = () => { c.textContent = 'Copied'; setTimeout(() => { c.textContent = 'Copy' }, 1500) }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done))
    else fallbackCopy(text, done)
  }
})
function fallbackCopy(text, done) {
  const t = document.createElement('textarea')
  t.value = text
  t.setAttribute('readonly', '')
  t.className = 'offscreen'
  document.body.appendChild(t)
  t.select()
  try { document.execCommand('copy'); done() } finally { t.remove() }
}
document.addEventListener('submit', (e) => {
  const msg = e.target.getAttribute('data-confirm')
  if (msg && !window.confirm(msg)) e.preventDefault()
})
// Tool choice on the new-scan form: show only the chosen tool's parameters (the others are disabled, so not sent).
function showToolParams() {
  const sel = document.getElementById('tool_id')
  if (!sel) return
  for (const fs of document.querySelectorAll('fieldset[data-tool]')) {
    const on = fs.getAttribute('data-tool') === sel.value
    fs.hidden = !on
    fs.disabled = !on
  }
  for (const help of document.querySelectorAll('[data-tool-help]')) help.hidden = help.getAttribute('data-tool-help') !== sel.value
}
document.addEventListener('change', (e) => { if (e.target.id === 'tool_id') showToolParams() })
document.addEventListener('DOMContentLoaded', () => {
  showToolParams()
  const chart = document.getElementById('findings-chart')
  if (chart && window.uPlot) drawChart(chart)
})
function drawChart(el) {
  const data = JSON.parse(el.getAttribute('data-series'))
  const colors = ['#6b7280', '#2563eb', '#d97706', '#dc2626', '#7f1d1d']
  const names = ['info', 'low', 'medium', 'high', 'critical']
  const opts = {
    width: Math.max(320, el.clientWidth), height: 240,
    series: [{}, ...names.map((n, i) => ({ label: n, stroke: colors[i], width: 2 }))],
    axes: [{}, { label: 'findings' }],
    scales: { x: { time: true } },
  }
  new window.uPlot(opts, [data.t, ...data.s], el)
}
// Times: the reader's own time zone, "3 min ago" when recent; the ISO form stays on hover.
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
function showTimes(root) {
  const now = Date.now()
  for (const t of root.querySelectorAll('time[data-when]')) {
    const at = Date.parse(t.getAttribute('datetime'))
    if (Number.isNaN(at)) continue
    const secs = Math.round((at - now) / 1000)
    const abs = Math.abs(secs)
    t.textContent = abs < 45 ? 'just now' : abs < 3600 ? relative.format(Math.round(secs / 60), 'minute') : abs < 86400 ? relative.format(Math.round(secs / 3600), 'hour') : absolute.format(at)
  }
}
document.addEventListener('DOMContentLoaded', () => showTimes(document))
document.addEventListener('htmx:load', (e) => showTimes(e.target))
// Fields that belong to one choice (a VPN profile's type, an authentication kind): shown, and sent,
// only while that choice is made — data-show-if="<select id>=<value>".
function applyShowIf() {
  for (const el of document.querySelectorAll('[data-show-if]')) {
    const [id, value] = el.getAttribute('data-show-if').split('=')
    const sel = document.getElementById(id)
    const on = !!sel && sel.value === value
    el.hidden = !on
    for (const c of el.querySelectorAll('input, select, textarea')) c.disabled = !on
  }
}
document.addEventListener('change', (e) => { if (e.target.id && document.querySelector(`[data-show-if^="${CSS.escape(e.target.id)}="]`)) applyShowIf() })
document.addEventListener('DOMContentLoaded', applyShowIf)
// "Choose all" boxes: data-check-all="<form id>" ticks every row box of that form.
document.addEventListener('change', (e) => {
  const form = e.target.getAttribute && e.target.getAttribute('data-check-all')
  if (!form) return
  for (const b of document.querySelectorAll(`#${CSS.escape(form)} input[name="ids"]`)) b.checked = e.target.checked
})
