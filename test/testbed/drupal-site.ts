// Drupal-like sites on loopback that answer the way Drupal does where a scanner looks:
// `d7` (127.0.71.20): Drupal 7.57 (before the Drupalgeddon 2 and 3 fixes, past end of life) with its
// CHANGELOG.txt, Views on the page, CTools found only by its .info file, user pages open to anonymous
// visitors and update.php open ($update_free_access). `d8` (127.0.71.21): Drupal 8.5.0 with
// core/CHANGELOG.txt and ?v= on core assets, Admin Toolbar, closed user pages and update.php.
// `hardened` (127.0.71.22): a Drupal 10 that tells only its major version: nothing above info.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export const DRUPAL_ADDR = { d7: '127.0.71.20', d8: '127.0.71.21', hardened: '127.0.71.22' } as const
export type DrupalKind = keyof typeof DRUPAL_ADDR

export const DRUPAL_TRUTH = {
  d7: {
    version: '7.57',
    major: '7',
    modules: { views: '7.x-3.18', ctools: '7.x-1.12' },
    themes: ['bartik_child'],
    users: ['admin', 'webeditor'],
    findings: [
      'drupal.version-disclosed',
      'cve.drupal-drupalgeddon2',
      'cve.drupal-drupalgeddon3',
      'eol.drupal',
      'drupal.users.enumeration',
      'drupal.update-php-exposed',
    ],
  },
  d8: {
    version: '8.5.0',
    major: '8',
    modules: { admin_toolbar: '8.x-1.23' },
    themes: ['bootstrap'],
    users: [],
    findings: [
      'drupal.version-disclosed',
      'cve.drupal-drupalgeddon2',
      'cve.drupal-drupalgeddon3',
      'cve.drupal-rest-field-rce',
      'eol.drupal',
    ],
  },
} as const

type Reply = { status: number; body: string; type?: string }
const page = (title: string, head: string, body: string): Reply => ({
  status: 200,
  body: `<!DOCTYPE html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`,
})
const text = (body: string): Reply => ({ status: 200, body, type: 'text/plain' })
const notFound = (): Reply => ({ ...page('Page not found | Bed', '', '<h1>Page not found</h1>'), status: 404 })
const denied = (): Reply => ({
  ...page('Access denied | Bed', '', '<h1>Access denied</h1><p>You are not authorized to access this page.</p>'),
  status: 403,
})
const installed = () =>
  page(
    'Drupal already installed | Drupal',
    '',
    '<h1>Drupal already installed</h1><ul><li>To start over, you must empty your existing database.</li></ul>',
  )

function d7(path: string): Reply {
  const users: Record<string, string> = { '/user/1': 'admin', '/user/2': 'webeditor' }
  if (users[path])
    return page(`${users[path]} | D7 Bed`, '', `<div class="profile"><h1>${users[path]}</h1><a href="${path}">Member for 8 years</a></div>`)
  switch (path) {
    case '/':
      return page(
        'D7 Bed',
        '<meta name="Generator" content="Drupal 7 (http://drupal.org)" />\n<link type="text/css" rel="stylesheet" href="/sites/all/modules/views/css/views.css?p2m5cs" media="all" />\n<link type="text/css" rel="stylesheet" href="/sites/all/themes/bartik_child/css/style.css?p2m5cs" media="all" />\n<script type="text/javascript" src="/misc/drupal.js?p2m5cs"></script>\n<script>jQuery.extend(Drupal.settings, {"basePath":"\\/"});</script>',
        '<div id="page">Welcome</div>',
      )
    case '/CHANGELOG.txt':
      return text(
        '\nDrupal 7.57, 2018-02-21\n-----------------------\n- Fixed security issues (multiple vulnerabilities). See SA-CORE-2018-001.\n\nDrupal 7.56, 2017-06-21\n',
      )
    case '/sites/all/modules/views/views.info':
      return text(
        'name = Views\ndescription = Create customized lists and queries from your database.\npackage = Views\ncore = 7.x\n\n; Information added by Drupal.org packaging script\nversion = "7.x-3.18"\nproject = "views"\n',
      )
    case '/sites/all/modules/ctools/ctools.info':
      return text('name = Chaos tools\ncore = 7.x\npackage = Chaos tool suite\n\nversion = "7.x-1.12"\nproject = "ctools"\n')
    case '/update.php':
      return page(
        'Drupal database update | D7 Bed',
        '',
        '<h1>Drupal database update</h1><form action="/update.php?op=selection" method="post"><input type="submit" value="Continue"></form>',
      )
    case '/install.php':
      return installed()
    default:
      return notFound()
  }
}

function d8(path: string): Reply {
  if (path.startsWith('/user/')) return denied()
  switch (path) {
    case '/':
      return page(
        'D8 Bed',
        '<meta name="Generator" content="Drupal 8 (https://www.drupal.org)" />\n<link rel="stylesheet" href="/modules/contrib/admin_toolbar/css/admin.toolbar.css?p5x7k1" media="all" />\n<link rel="stylesheet" href="/themes/contrib/bootstrap/css/style.css?p5x7k1" media="all" />\n<script src="/core/assets/vendor/jquery/jquery.min.js?v=3.2.1"></script>\n<script src="/core/misc/drupal.js?v=8.5.0"></script>\n<script type="application/json" data-drupal-selector="drupal-settings-json">{"path":{"baseUrl":"\\/"}}</script>',
        '<div class="dialog-off-canvas-main-canvas">Welcome</div>',
      )
    case '/core/CHANGELOG.txt':
      return text('Drupal 8.5.0, 2018-03-07\n------------------------\n- Migrate UI and Migrate Drupal are beta.\n')
    case '/modules/contrib/admin_toolbar/admin_toolbar.info.yml':
      return text(
        "name: 'Admin Toolbar'\ntype: module\ndescription: 'Provides a drop-down menu interface to the core Drupal Toolbar.'\ncore: 8.x\npackage: 'Administration'\n\n# Information added by Drupal.org packaging script on 2018-02-05\nversion: '8.x-1.23'\nproject: 'admin_toolbar'\n",
      )
    case '/update.php':
      return denied()
    case '/core/install.php':
      return installed()
    default:
      return notFound()
  }
}

function hardened(path: string): Reply {
  if (path.startsWith('/user/') || path === '/update.php' || path.endsWith('.txt') || path.endsWith('.yml') || path.endsWith('.info'))
    return denied()
  if (path === '/')
    return page(
      'Hard Bed',
      '<meta name="Generator" content="Drupal 10 (https://www.drupal.org)" />\n<script src="/core/misc/drupal.js?t4x1qz"></script>\n<script type="application/json" data-drupal-selector="drupal-settings-json">{}</script>',
      '<main>Welcome</main>',
    )
  if (path === '/core/install.php') return installed()
  return notFound()
}

export interface DrupalBed {
  url: string
  close(): Promise<void>
}

export async function startDrupalBed(kind: DrupalKind): Promise<DrupalBed> {
  const route = { d7, d8, hardened }[kind]
  const server = http.createServer((req, res) => {
    const r = route(new URL(req.url ?? '/', 'http://bed').pathname)
    res.writeHead(r.status, {
      'content-type': r.type ?? 'text/html; charset=utf-8',
      ...(kind === 'hardened' ? {} : { 'x-generator': `Drupal ${kind === 'd7' ? 7 : 8} (https://www.drupal.org)` }),
    })
    res.end(r.body)
  })
  await new Promise<void>((r) => server.listen(0, DRUPAL_ADDR[kind], r))
  return {
    url: `http://${DRUPAL_ADDR[kind]}:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
