// The frame of every page: head (assets, CSRF token for htmx), the navigation, the active workspace.
import type { FastifyRequest } from 'fastify'
import { html, type SafeHtml } from './html.js'
import { assetUrl } from './assets.js'
import type { Workspaces } from './workspace.js'

/** The navigation: section, path, label; a page names its section to mark its link current. */
const NAV = [
  ['dashboard', '/', 'Dashboard'],
  ['targets', '/targets', 'Targets'],
  ['scans', '/scans', 'Scans'],
  ['schedules', '/schedules', 'Schedules'],
  ['findings', '/findings', 'Findings'],
  ['workspaces', '/workspaces', 'Workspaces'],
  ['vpn', '/vpn-profiles', 'VPN profiles'],
  ['integrations', '/integrations', 'Integrations'],
  ['templates', '/templates', 'Templates'],
  ['audit', '/audit', 'Audit'],
  ['users', '/users', 'Users'],
  ['profile', '/profile', 'Profile & API keys'],
] as const satisfies ReadonlyArray<readonly [string, string, string]>

export type Section = (typeof NAV)[number][0] | null

export interface PageOptions {
  section?: Section
  /** The user's workspaces: the active one's name and the user's role in it are shown in the header. */
  workspace?: Pick<Workspaces, 'activeName' | 'active'>
  ok?: string | null
  error?: string | null
  /** Load uPlot (the dashboard). */
  chart?: boolean
}

export function page(req: FastifyRequest, title: string, body: SafeHtml, o: PageOptions = {}): SafeHtml {
  const u = req.webUser
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Ward</title>
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}'>
${u ? html`<meta name="csrf-token" content="${u.csrf}">` : ''}
<link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('ward.css')}">
${o.chart ? html`<link rel="stylesheet" href="${assetUrl('uPlot.min.css')}"><script src="${assetUrl('uPlot.iife.min.js')}" defer></script>` : ''}
<script src="${assetUrl('htmx.min.js')}" defer></script>
<script src="${assetUrl('ward.js')}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/">Ward</a>
  ${
    u
      ? html`<nav aria-label="Main">${NAV.filter(([s]) => s !== 'users' || u.isAdmin).map(
          ([s, href, label]) => html`<a href="${href}"${o.section === s ? html` aria-current="page"` : ''}>${label}</a>`,
        )}</nav>
  <div class="right">
    ${
      o.workspace !== undefined
        ? html`<span class="ws">Workspace: <strong data-testid="active-workspace">${o.workspace.activeName}</strong>${
            o.workspace.active
              ? html` <span class="badge" data-testid="active-role" title="Your role in this workspace">${o.workspace.active.role}</span>`
              : ''
          }</span>`
        : ''
    }
    <span class="ws">${u.name}</span>
    <form class="inline" method="post" action="/sign-out"><input type="hidden" name="_csrf" value="${u.csrf}">${[
      html`<button class="link small" type="submit">Sign out</button></form>`,
    ]}
  </div>`
      : ''
  }
</header>
<main id="main" tabindex="-1">
${o.ok ? html`<div class="msg ok" role="status">${o.ok}</div>` : ''}
${o.error ? html`<div class="msg error" role="alert">${o.error}</div>` : ''}
${body}
</main>
</body>
</html>`
}

/** The hidden CSRF field every form of a signed-in page carries. */
export const csrfField = (req: FastifyRequest) => html`<input type="hidden" name="_csrf" value="${req.webUser?.csrf ?? ''}">`

/** A form of one button that posts to `action` with the CSRF field; `confirm` makes the page ask first. */
export const postButton = (req: FastifyRequest, action: string, label: string | SafeHtml, o: { cls: string; confirm?: string }) =>
  html`<form class="inline" method="post" action="${action}"${o.confirm ? html` data-confirm="${o.confirm}"` : ''}>${[
    csrfField(req),
    html`<button class="${o.cls}" type="submit">${label}</button></form>`,
  ]}`
