// Website Scanner: client-side libraries named by script URLs and by the banners of the site's own
// script files, matched against the one version catalogue (CVE families and end-of-life branches).
// Beds on 127.0.36.1 (old libraries) and 127.0.36.2 (current ones, must give no component finding).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { runTool } from '../../helpers/tool-harness.js'
import { websiteScanner } from '../../../src/tools/website-scanner/run.js'
import { sourceComponents, urlComponents } from '../../../src/tools/website-scanner/detect/components.js'

const OLD = '127.0.36.1'
const CURRENT = '127.0.36.2'

type Files = Record<string, string>
const site = (scripts: string[], files: Files) => {
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '')
    const path = (req.url ?? '/').split('?')[0]!
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return res.end(
        `<!doctype html><html><head><title>Shop</title>${scripts.map((s) => (s.endsWith('.css') ? `<link rel="stylesheet" href="${s}">` : `<script src="${s}"></script>`)).join('')}</head><body><h1>Shop</h1></body></html>`,
      )
    }
    if (files[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'application/javascript' })
      return res.end(files[path])
    }
    res.writeHead(404, { 'content-type': 'text/html' })
    res.end('<h1>Not Found</h1>')
  })
  return { server, seen }
}

const LODASH = (v: string) =>
  `/**\n * @license\n * Lodash <https://lodash.com/>\n * Copyright OpenJS Foundation and other contributors <https://openjsf.org/>\n * Released under MIT license <https://lodash.com/license>\n * Based on Underscore.js 1.8.3 <http://underscorejs.org/LICENSE>\n * Copyright Jeremy Ashkenas, DocumentCloud and Investigative Reporters & Editors\n */\n;(function() {\n\n  /** Used as a safe reference for \`undefined\` in pre-ES5 environments. */\n  var undefined;\n\n  /** Used as the semantic version number. */\n  var VERSION = '${v}';\n`
const MOMENT = (v: string) =>
  `//! moment.js\n//! version : ${v}\n//! authors : Tim Wood, Iskren Chernev, Moment.js contributors\n//! license : MIT\n;(function (global, factory) {`

const old = site(
  [
    '/js/jquery.min.js',
    'https://cdnjs.cloudflare.com/ajax/libs/angular.js/1.5.8/angular.min.js',
    '/static/bootstrap-3.3.7.min.js',
    '/js/lodash.js',
    '/js/moment.js',
    '/js/app.js',
    '/js/jquery-ui.min.js',
  ],
  {
    '/js/jquery.min.js': '/*! jQuery v1.8.3 jquery.com | jquery.org/license */\n(function(e,t){var n,r,i=typeof t',
    '/static/bootstrap-3.3.7.min.js': '/*!\n * Bootstrap v3.3.7 (http://getbootstrap.com)\n */',
    '/js/lodash.js': LODASH('4.17.4'),
    '/js/moment.js': MOMENT('2.19.1'),
    '/js/app.js': 'document.title = "Shop";\n',
    '/js/jquery-ui.min.js': '/*! jQuery UI - v1.12.1 - 2016-09-14\n* http://jqueryui.com\n* Includes: widget.js, position.js */',
  },
)
const current = site(
  [
    '/js/jquery.min.js',
    '/css/bootstrap.min.css',
    '/js/lodash.js',
    '/js/moment.js',
    'https://unpkg.com/vue@3.4.21/dist/vue.global.prod.js',
    '/js/jquery-ui.min.js',
  ],
  {
    '/js/jquery.min.js': '/*! jQuery v3.7.1 | (c) OpenJS Foundation and other contributors | jquery.org/license */',
    '/css/bootstrap.min.css': '/*!\n * Bootstrap  v5.3.3 (https://getbootstrap.com/)\n */',
    '/js/lodash.js': LODASH('4.17.21'),
    '/js/moment.js': MOMENT('2.30.1'),
    '/js/jquery-ui.min.js': '/*! jQuery UI - v1.13.2 - 2022-07-14\n* http://jqueryui.com */',
  },
)

before(async () => {
  await new Promise<void>((r) => old.server.listen(80, OLD, () => r()))
  await new Promise<void>((r) => current.server.listen(80, CURRENT, () => r()))
})
after(async () => {
  for (const s of [old.server, current.server]) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

const versionFindings = (r: Awaited<ReturnType<typeof runTool>>) =>
  [...new Set(r.findings.filter((f) => /^(cve|eol)\./.test(f.check.id)).map((f) => f.check.id))].sort()

test('old libraries: named with versions from URLs and banners, each matched to its CVE families and end of life', async () => {
  const r = await runTool(websiteScanner, { target: `http://${OLD}/`, params: { scan_type: 'light' } })
  assert.equal(r.error, undefined, r.error?.stack)
  const comps = (r.output.components as { product: string; version: string }[]).map((c) => `${c.product} ${c.version}`).sort()
  assert.deepEqual(comps, ['AngularJS 1.5.8', 'Bootstrap 3.3.7', 'Lodash 4.17.4', 'Moment.js 2.19.1', 'jQuery 1.8.3', 'jQuery UI 1.12.1'])
  assert.deepEqual(versionFindings(r), [
    'cve.bootstrap-data-attribute-xss',
    'cve.jquery-ajax-cross-domain-xss',
    'cve.jquery-extend-prototype-pollution',
    'cve.jquery-htmlprefilter-xss',
    'cve.jquery-ui-option-xss',
    'cve.lodash-prototype-pollution',
    'cve.lodash-template-command-injection',
    'cve.moment-rfc2822-redos',
    'eol.angularjs',
    'eol.bootstrap',
  ])
  const jq = r.findings.find((f) => f.check.id === 'cve.jquery-htmlprefilter-xss')!
  assert.match(JSON.stringify(jq.evidence), /banner of http:\/\/127\.0\.36\.1\/js\/jquery\.min\.js/)
  // Off-site scripts are judged by their URL only: nothing but the bed's own files was requested.
  assert.ok(old.seen.includes('/js/app.js'), 'a same-origin script without a versioned URL is read')
  assert.ok(!old.seen.includes('/static/bootstrap-3.3.7.min.js'), 'a script whose URL names its version is not fetched')
})

test('current libraries: no component finding (no false positive)', async () => {
  const r = await runTool(websiteScanner, { target: `http://${CURRENT}/`, params: { scan_type: 'light' } })
  assert.equal(r.error, undefined, r.error?.stack)
  const comps = (r.output.components as { product: string; version: string }[]).map((c) => `${c.product} ${c.version}`).sort()
  assert.deepEqual(comps, ['Lodash 4.17.21', 'Moment.js 2.30.1', 'Vue.js 3.4.21', 'jQuery 3.7.1', 'jQuery UI 1.13.2'])
  assert.deepEqual(versionFindings(r), [])
})

test('URL and banner patterns of the common CDNs and builds', () => {
  const urls = (src: string) => urlComponents(`<script src="${src}"></script>`).map((c) => `${c.product} ${c.version}`)
  assert.deepEqual(urls('https://code.jquery.com/jquery-1.12.4.min.js'), ['jQuery 1.12.4'])
  assert.deepEqual(urls('https://ajax.googleapis.com/ajax/libs/jquery/3.4.1/jquery.min.js'), ['jQuery 3.4.1'])
  assert.deepEqual(urls('/wp-includes/js/jquery/jquery.min.js?ver=3.7.1'), ['jQuery 3.7.1'])
  assert.deepEqual(urls('https://code.jquery.com/ui/1.12.1/jquery-ui.min.js'), ['jQuery UI 1.12.1'])
  assert.deepEqual(urls('https://cdnjs.cloudflare.com/ajax/libs/jqueryui/1.12.1/jquery-ui.min.js'), ['jQuery UI 1.12.1'])
  assert.deepEqual(urls('https://ajax.googleapis.com/ajax/libs/angularjs/1.7.9/angular.min.js'), ['AngularJS 1.7.9'])
  assert.deepEqual(urls('https://cdn.jsdelivr.net/npm/bootstrap@4.3.1/dist/js/bootstrap.bundle.min.js'), ['Bootstrap 4.3.1'])
  assert.deepEqual(urls('https://unpkg.com/react@16.14.0/umd/react.production.min.js'), ['React 16.14.0'])
  assert.deepEqual(urls('https://cdn.jsdelivr.net/npm/lodash@4.17.15/lodash.min.js'), ['Lodash 4.17.15'])
  assert.deepEqual(urls('https://cdnjs.cloudflare.com/ajax/libs/moment.js/2.29.1/moment.min.js'), ['Moment.js 2.29.1'])
  assert.deepEqual(urls('https://cdnjs.cloudflare.com/ajax/libs/handlebars.js/4.0.5/handlebars.min.js'), ['Handlebars 4.0.5'])
  assert.deepEqual(urls('/js/app.bundle.3f2a1c.js'), [])
  assert.deepEqual(urls('/js/jquery.min.js'), [])
  const banner = (s: string) => sourceComponents('/x.js', s).map((c) => `${c.product} ${c.version}`)
  assert.deepEqual(banner('/**\n * @license AngularJS v1.5.8\n * (c) 2010-2016 Google, Inc. http://angularjs.org\n */'), [
    'AngularJS 1.5.8',
  ])
  assert.deepEqual(banner('/*!\n * Vue.js v2.6.14\n * (c) 2014-2021 Evan You\n */'), ['Vue.js 2.6.14'])
  assert.deepEqual(banner('/** @license React v16.14.0\n * react.production.min.js'), ['React 16.14.0'])
  assert.deepEqual(banner('/*!\n * jQuery JavaScript Library v2.2.4\n * http://jquery.com/'), ['jQuery 2.2.4'])
  assert.deepEqual(banner('/*! @license DOMPurify 2.0.8 | (c) Cure53 and other contributors */'), ['DOMPurify 2.0.8'])
  assert.deepEqual(banner('/*!\n\n handlebars v4.0.5\n\nCopyright (C) 2011-2015 by Yehuda Katz'), ['Handlebars 4.0.5'])
  assert.deepEqual(banner('console.log("no banner")'), [])
})
