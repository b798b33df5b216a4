// The web interface for people, on the API's port: a named Fastify plugin whose routes sit in their
// own scope with their own headers (helmet CSP), cookie sessions and CSRF checks. Pages call the same
// domain and store functions as the API, with the session's user as the caller.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { gzipSync } from 'node:zlib'
import cookie from '@fastify/cookie'
import helmet from '@fastify/helmet'
import { WardError } from '../domain/errors.js'
import { sessionUser } from '../store/web-sessions.js'
import type { WebContext } from './context.js'
import { acceptedEncodings, assetEncoding, assets } from './assets.js'
import { html, qs } from './html.js'
import { pathOf } from './resume-form.js'
import { page } from './layout.js'
import { checkCsrf, sendPage } from './respond.js'
import { sameOriginPath } from './next-path.js'
import { authPages, SESSION_COOKIE } from './pages/auth.js'
import { profilePages } from './pages/profile.js'
import { workspacePages } from './pages/workspaces.js'
import { memberPages } from './pages/members.js'
import { auditPages } from './pages/audit.js'
import { userPages } from './pages/users.js'
import { templatePages } from './pages/templates.js'
import { integrationPages } from './pages/integrations.js'
import { targetPages } from './pages/targets.js'
import { targetPage } from './pages/target-page.js'
import { scanPages } from './pages/scans.js'
import { scanChangesPage } from './pages/scan-changes.js'
import { schedulePages } from './pages/schedules.js'
import { findingPages } from './pages/findings.js'
import { dashboardPages } from './pages/dashboard.js'
import { ssoPages } from './pages/sso.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A web route that needs no session (sign-in, set-password, assets). */
    webPublic?: boolean
  }
}

/** Powerful browser features Ward's pages never use, switched off for them and anything they might embed. */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()'

async function webScope(app: FastifyInstance, ctx: WebContext) {
  await app.register(cookie)
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    // Same-origin pages only: nothing of ours is meant to be embedded or opened by other sites.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    hsts: false,
  })

  let signInAgain: ReturnType<typeof authPages>['signInAgain'] = () => {
    throw new Error('the sign-in pages are not registered yet')
  }
  app.decorateRequest('webUser', null)
  app.addHook('onRequest', async (req, reply) => {
    reply.header('cache-control', 'no-store').header('permissions-policy', PERMISSIONS_POLICY)
    const sid = req.cookies[SESSION_COOKIE]
    if (sid && sid.length <= 100) req.webUser = await sessionUser(ctx.db, sid)
  })
  // Pages are compressed as well (a findings page is mostly repeated markup): gzip, fast level.
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < 1024 || reply.hasHeader('content-encoding')) return payload
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload
    if (!acceptedEncodings(req.headers['accept-encoding']).has('gzip')) return payload
    reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').removeHeader('content-length')
    return gzipSync(payload, { level: 4 })
  })
  app.addHook('preHandler', async (req, reply) => {
    if (req.routeOptions.config.webPublic) return
    if (!req.webUser) {
      // A session cookie that no longer opens a session: it ended (expired, or signed out elsewhere).
      const ended = req.cookies[SESSION_COOKIE] ? 1 : undefined
      // A live fragment polls for its page: the way back is the page (htmx says which), not the fragment.
      if (req.headers['hx-request'])
        return reply
          .status(401)
          .header('hx-redirect', `/sign-in${qs({ next: sameOriginPath(pathOf(String(req.headers['hx-current-url'] ?? ''))), ended })}`)
          .send('')
      if (req.method === 'GET' || req.method === 'HEAD')
        return reply.redirect(`/sign-in${qs({ next: sameOriginPath(req.url), ended })}`, 303)
      return signInAgain(req, reply)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') checkCsrf(req, req.webUser.csrf)
  })

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status =
      err instanceof WardError ? err.status : err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
    if (status >= 500) req.log.error({ err }, 'web page failed')
    const message = status >= 500 ? 'Something went wrong on our side; the error is in the server log.' : err.message
    if (req.headers['hx-request'])
      return reply.status(status).type('text/html; charset=utf-8').send(html`<div class="msg error" role="alert">${message}</div>`.value)
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(
        page(
          req,
          status === 404 ? 'Not found' : 'Error',
          html`<h1>${status === 404 ? 'Not found' : 'That did not work'}</h1><p>${message}</p><p><a href="/">Back to the dashboard</a></p>`,
        ).value,
      )
  })

  const files = assets()
  app.get('/assets/:name', { config: { webPublic: true } }, async (req, reply) => {
    const a = files.get((req.params as { name: string }).name)
    if (!a) throw new WardError(404, 'No such file')
    const enc = assetEncoding(req.headers['accept-encoding'])
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding').type(a.type)
    return enc ? reply.header('content-encoding', enc).send(a[enc]) : reply.send(a.body)
  })
  signInAgain = authPages(app, ctx).signInAgain
  if (ctx.oidc) ssoPages(app, ctx, ctx.oidc)
  dashboardPages(app, ctx)
  profilePages(app, ctx)
  workspacePages(app, ctx)
  memberPages(app, ctx)
  for (const pages of [auditPages, userPages, templatePages]) pages(app, ctx)
  integrationPages(app, ctx)
  targetPages(app, ctx)
  targetPage(app, ctx)
  scanPages(app, ctx)
  scanChangesPage(app, ctx)
  schedulePages(app, ctx)
  findingPages(app, ctx)
}

/** The CSP of pages answered outside the web scope (the 404 page): the same rules helmet sets. */
const PLAIN_CSP = [
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'",
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
].join('; ')

/** The 404 page for browsers, with the navigation when the request carries a live session. */
function notFoundPage(ctx: WebContext) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const sid = /(?:^|;\s*)ward_session=([^;]{1,100})/.exec(String(req.headers.cookie ?? ''))?.[1]
    req.webUser = sid ? await sessionUser(ctx.db, decodeURIComponent(sid)).catch(() => null) : null
    reply
      .header('content-security-policy', PLAIN_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('permissions-policy', PERMISSIONS_POLICY)
      .header('cache-control', 'no-store')
    const path = req.url.split('?')[0]!.slice(0, 200)
    const body = html`<h1>Not found</h1><p>There is no page at <code>${path}</code>.</p><p><a href="/">Back to the dashboard</a></p>`
    return sendPage(reply, page(req, 'Not found', body), 404)
  }
}

async function webPlugin(app: FastifyInstance, ctx: WebContext) {
  app.notFoundPage = notFoundPage(ctx)
  // Own scope: helmet, cookies and the session hooks apply to the web routes only, never to /api/v2.
  await app.register(webScope, ctx)
}

export default fp(webPlugin, { name: 'ward-web', fastify: '5.x', dependencies: ['ward-error-body', 'ward-input'] })
