// Schedules: the list (timing, next run, last scans, paused), a new schedule from a scan's settings
// or from a form (target, tool with its defaults, cron with a time zone or an interval), and pause,
// resume, run now and delete — the rules of POST /schedules, through the same domain functions.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createSchedule, setSchedulePaused } from '../../domain/schedules.js'
import { notFound } from '../../domain/errors.js'
import { changeLoaded } from '../loaded-change.js'
import { viewerRefused } from '../../domain/access.js'
import { audited } from '../../store/audit.js'
import { scopesOf } from '../../toolkit/scope.js'
import { deleteSchedule, getSchedule, listSchedules, runScheduleNow, scheduleHistory } from '../../store/schedules.js'
import { getScan } from '../../store/scans.js'
import { listTargets } from '../../store/targets.js'
import { targetNames } from '../../store/web-lists.js'
import { publish } from '../../store/notify.js'
import type { ScheduleRow } from '../../store/schema.js'
import { toolName } from '../../tools/registry.js'
import type { ToolManifest } from '../../toolkit/tool.js'
import { userOf, type WebContext } from '../context.js'
import { newScanWords } from '../form-words.js'
import { html, option, qs, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { attempt, formOf, idOf, okMessage, sendPage } from '../respond.js'
import { when } from '../time.js'
import { type FormRefusal, formPageOf } from '../form-page.js'
import { savedSettingsOf, statusBadge } from './scans.js'

const timing = (s: ScheduleRow) => (s.interval_minutes ? `every ${s.interval_minutes} min` : `cron ${s.cron} (${s.timezone})`)
const num = (v: string | undefined) => (v && /^\d{1,9}$/.test(v) ? Number(v) : undefined)

export function schedulePages(app: FastifyInstance, ctx: WebContext) {
  const { db, tools } = ctx
  const toolList = [...tools.all()].sort((a, b) => a.id - b.id)
  const rules = {
    tools,
    targetBlocklist: ctx.blocklist,
    callbackBlocklist: scopesOf(ctx.config).callback,
    resolveVpnProfile: ctx.resolveVpnProfile,
  }

  app.get('/schedules', async (req, reply) => renderSchedules(db, toolList, req, reply))

  app.post('/schedules', async (req, reply) => {
    const f = formOf(req)
    const byInterval = (f.timing ?? 'interval') === 'interval'
    const r = await attempt(() =>
      audited(
        db,
        req.audit,
        (trx) =>
          createSchedule(trx, userOf(req), rules, {
            name: f.name?.trim() || undefined,
            ...(num(f.from_scan_id)
              ? { from_scan_id: num(f.from_scan_id) }
              : num(f.settings_id)
                ? { settings_id: num(f.settings_id), target_id: num(f.target_id) ?? -1 }
                : { tool_id: num(f.tool_id) ?? -1, target_id: num(f.target_id) ?? -1 }),
            ...(byInterval
              ? { interval_minutes: num(f.interval_minutes) ?? 0 }
              : { cron: f.cron ?? '', timezone: f.timezone?.trim() || 'UTC' }),
          } as Parameters<typeof createSchedule>[3]),
        (id) => ({ objectId: id }),
      ),
    )
    if (!r.ok) return renderSchedules(db, toolList, req, reply, { error: newScanWords(r.message), status: r.status, form: f })
    return reply.redirect(`/schedules?ok=schedule-created#schedule-${r.value}`, 303)
  })

  const loadId = async (req: FastifyRequest) => {
    const id = idOf((req.params as { id: string }).id, 'Schedule')
    if (!(await getSchedule(db, userOf(req).userId, id))) throw notFound('Schedule')
    return id
  }
  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const)
    app.post(`/schedules/:id/${verb}`, async (req, reply) => {
      const id = await loadId(req)
      await audited(
        db,
        req.audit,
        (trx) => setSchedulePaused(trx, userOf(req), id, paused),
        () => true,
      )
      return reply.redirect(`/schedules?ok=schedule-${verb}d#schedule-${id}`, 303)
    })
  app.post('/schedules/:id/run', async (req, reply) => {
    const id = await loadId(req)
    const run = await audited(
      db,
      req.audit,
      (trx) => runScheduleNow(trx, userOf(req).userId, id),
      (run) => run !== null,
    )
    // The schedule could be read (loadId): nothing run means the caller's role refused it.
    if (!run) throw viewerRefused()
    if (run.scanIds.length) publish({ type: 'queued' })
    return reply.redirect(`/schedules${qs({ ok: run.outcome === 'skipped' ? 'schedule-skipped' : 'schedule-run' })}#schedule-${id}`, 303)
  })
  app.post('/schedules/:id/delete', async (req, reply) => {
    const id = await loadId(req)
    await changeLoaded(db, req, id, deleteSchedule, Boolean)
    return reply.redirect('/schedules?ok=schedule-deleted', 303)
  })
}

/** The schedules of the active workspace and the new-schedule form (kept as sent when it was refused). */
async function renderSchedules(
  db: WebContext['db'],
  toolList: ToolManifest[],
  req: FastifyRequest,
  reply: FastifyReply,
  o: FormRefusal = {},
) {
  const { u, q, f, ws } = await formPageOf(db, req, o)
  const fromId = num(f.from_scan_id ?? q.from_scan_id)
  const [rows, targets, from, saved] = await Promise.all([
    listSchedules(db, u.userId, { workspaceId: ws.active?.id, limit: 200, page: 1 }),
    listTargets(db, u.userId, { workspaceId: ws.active?.id, limit: 1000, page: 1 }),
    fromId ? getScan(db, u.userId, fromId) : undefined,
    fromId ? undefined : savedSettingsOf(db, u.userId, f.settings_id ?? q.settings_id),
  ])
  if (fromId && !from) throw notFound('Scan')
  const [history, names] = await Promise.all([
    scheduleHistory(
      db,
      rows.map((r) => r.id),
    ),
    targetNames(db, u.userId, [...rows.map((r) => r.target_id ?? 0), from?.target_id ?? 0]),
  ])
  const useInterval = (f.timing ?? 'interval') === 'interval'
  const body = html`<h1>Schedules</h1>
${
  rows.length
    ? html`<div class="table-wrap"><table data-testid="schedules">${[
        tableHead('Name', 'Scans', 'When', 'Next run', 'Last scans', ''),
      ]}<tbody>${rows.map((s) => scheduleRow(req, s, history.get(s.id)!, names))}</tbody></table></div>`
    : html`<p>No schedules in this workspace yet.</p>`
}
<section class="card mt" aria-labelledby="new-schedule"><h2 id="new-schedule">New schedule</h2>
<form method="post" action="/schedules">${csrfField(req)}
  ${
    from
      ? html`<input type="hidden" name="from_scan_id" value="${from.id}"><p data-testid="from-scan">${[
          html`With the settings of scan <a href="/scans/${from.id}">#${from.id}</a>: `,
          html`${toolName(from.tool_id)} of ${names.get(from.target_id) ?? from.target_id}, its tool parameters and time limit.`,
        ]}</p>`
      : html`<div class="grid">
    <div class="field"><label for="s-target">Target</label><select id="s-target" name="target_id">${[
      targets.map((t) => option(t.id, t.name, String(t.id) === (f.target_id ?? q.target_id))),
    ]}</select></div>
    ${
      saved
        ? html`<input type="hidden" name="settings_id" value="${saved.id}"><p class="field" data-testid="from-settings">${[
            html`With the saved settings <a href="/scan-settings#settings-${saved.id}">${saved.name}</a>: `,
            html`${toolName(saved.tool_id)}, its tool parameters and time limit.`,
          ]}</p>`
        : html`<div class="field"><label for="s-tool">Tool</label><select id="s-tool" name="tool_id">${[
            toolList.map((t) => option(t.id, t.name, String(t.id) === f.tool_id)),
          ]}</select><small>With the tool's default parameters; for other parameters, choose "Schedule with…" on ${[
            html`<a href="/scan-settings">saved scan settings</a>, or "Schedule these settings" on a scan's page.`,
          ]}</small></div>`
    }
  </div>`
  }
  <div class="grid">
    <div class="field"><label for="s-name">Name</label>${[
      html`<input type="text" id="s-name" name="name" maxlength="200" value="${f.name ?? ''}" placeholder="Weekly port scan">`,
    ]}</div>
    <div class="field"><label for="s-timing">Runs</label><select id="s-timing" name="timing">${[
      option('interval', 'at a fixed interval', useInterval),
      option('cron', 'on a cron schedule', !useInterval),
    ]}</select></div>
    <div class="field" data-show-if="s-timing=interval"${useInterval ? '' : html` hidden`}>${[
      html`<label for="s-interval">Every (minutes)</label>`,
      html`<input type="number" id="s-interval" name="interval_minutes" min="1" value="${f.interval_minutes ?? '1440'}">`,
    ]}</div>
    <div class="field" data-show-if="s-timing=cron"${useInterval ? html` hidden` : ''}>${[
      html`<label for="s-cron">Cron expression</label><input type="text" id="s-cron" name="cron" value="${f.cron ?? '0 3 * * 1'}">`,
      html`<small>minute hour day month weekday, e.g. 0 3 * * 1 is Mondays at 03:00</small>`,
    ]}</div>
    <div class="field" data-show-if="s-timing=cron"${useInterval ? html` hidden` : ''}>${[
      html`<label for="s-tz">Time zone</label><input type="text" id="s-tz" name="timezone" value="${f.timezone ?? 'UTC'}">`,
      html`<small>An IANA name such as Europe/Berlin</small>`,
    ]}</div>
  </div>
  <button type="submit">Create schedule</button>
</form></section>`
  return sendPage(
    reply,
    page(req, 'Schedules', body, { section: 'schedules', workspace: ws, ok: okMessage(req), error: o.error }),
    o.status ?? 200,
  )
}

/** A schedule's row: what it scans, when, its last scans and its buttons. */
function scheduleRow(req: FastifyRequest, s: ScheduleRow, h: { scans: Array<{ id: number; status: string }> }, names: Map<number, string>) {
  const target = s.target_id
    ? html`<a href="/targets/${s.target_id}">${names.get(s.target_id) ?? s.target_id}</a>`
    : `every ${s.target_type} target`
  const reason = s.paused_reason
    ? html` <span class="muted small" data-testid="paused-reason">by Ward: ${s.paused_reason}; resume it and its scans start as you</span>`
    : ''
  const lastScans = h.scans.length
    ? h.scans.map((x) => html`<a href="/scans/${x.id}">#${x.id}</a> ${statusBadge(x.status)} `)
    : html`<span class="muted">none yet</span>`
  return html`<tr id="schedule-${s.id}" data-schedule-id="${s.id}"><td>${s.name || html`<span class="muted">schedule #${s.id}</span>`}</td>
<td>${toolName(s.tool_id)} of ${target}</td>
<td>${timing(s)}</td><td data-testid="next-run">${s.paused ? html`<span class="badge st">paused</span>${reason}` : when(s.next_run_at)}</td>
<td>${lastScans}</td>
<td class="row-actions">
  ${postButton(req, `/schedules/${s.id}/run`, 'Run now', { cls: 'small' })}
  ${postButton(req, `/schedules/${s.id}/${s.paused ? 'resume' : 'pause'}`, s.paused ? 'Resume' : 'Pause', { cls: 'small secondary' })}
  ${postButton(req, `/schedules/${s.id}/delete`, 'Delete', { cls: 'small danger', confirm: 'Delete this schedule? Its scans are kept.' })}</td></tr>`
}
