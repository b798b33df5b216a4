// A WordPress-like site on loopback that answers the way WordPress 4.0.1 does where a scanner looks:
// `weak` (127.0.71.10) has old core announced everywhere, Contact Form 7 5.1.1 named by the page and
// File Manager 6.8 found only by its readme (both with known vulnerabilities), Akismet 4.1 (outdated),
// two users behind /?author=N, the REST API and oEmbed, XML-RPC with system.multicall, a public
// wp-cron.php, a debug log, an uploads listing, a wp-config copy, a Duplicator installer left behind and
// open registration; for the templates tagged wordpress, the database repair page open
// (WP_ALLOW_REPAIR), PHP errors shown with the path (rss-functions.php) and Essential Addons for
// Elementor 5.7.1 (CVE-2023-32243) found only by its readme. `hardened` (127.0.71.11) is its twin with every one of those closed, as the
// hardening guide says: nothing above info. Unknown paths get WordPress's 404 page.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { WP_REPAIR, WP_RSS_FATAL } from './template-library-site.js'

export const WP_ADDR = { weak: '127.0.71.10', hardened: '127.0.71.11' } as const

/** What the weak site must be found to have. */
export const WP_TRUTH = {
  version: '4.0.1',
  plugins: { 'contact-form-7': '5.1.1', 'wp-file-manager': '6.8', akismet: '4.1' },
  themes: { twentyfourteen: '1.2' },
  users: ['admin', 'editor-jane'],
  findings: [
    'wordpress.version-disclosed',
    'eol.wordpress',
    'cve.wordpress-crop-image-rce',
    'cve.wordpress-wp-query-sqli',
    'wordpress.plugin.vulnerable',
    'wordpress.plugin.outdated',
    'wordpress.users.enumeration',
    'wordpress.xmlrpc.enabled',
    'wordpress.xmlrpc.multicall',
    'wordpress.wp-cron.public',
    'wordpress.debug-log',
    'wordpress.uploads-listing',
    'wordpress.config-backup',
    'wordpress.install-script',
    'wordpress.registration-open',
  ],
  vulnerableCves: ['CVE-2020-35489', 'CVE-2020-25213'],
  /** What the shipped templates tagged wordpress find (the ids of their findings). */
  templateFindings: ['template.CVE-2023-32243', 'template.wordpress-db-repair-open', 'template.wordpress-full-path-disclosure'],
} as const

type Kind = 'weak' | 'hardened'
type Reply = { status: number; body: string; type?: string; headers?: Record<string, string> }

const html = (title: string, head: string, body: string) =>
  `<!DOCTYPE html><html lang="en-US"><head><meta charset="UTF-8"><title>${title}</title>${head}</head><body class="home blog">${body}</body></html>`

function homePage(kind: Kind): string {
  const ver = (v: string) => (kind === 'weak' ? `?ver=${v}` : '')
  const head = [
    kind === 'weak' ? '<meta name="generator" content="WordPress 4.0.1" />' : '',
    `<link rel='stylesheet' id='twentyfourteen-style-css' href='/wp-content/themes/twentyfourteen/style.css${ver('4.0.1')}' type='text/css' media='all' />`,
    `<link rel='stylesheet' id='contact-form-7-css' href='/wp-content/plugins/contact-form-7/includes/css/styles.css${ver('5.1.1')}' type='text/css' media='all' />`,
    `<script type='text/javascript' src='/wp-includes/js/jquery/jquery.js${ver('1.11.1')}'></script>`,
    `<script type='text/javascript' src='/wp-includes/js/wp-embed.min.js${ver('4.0.1')}'></script>`,
    kind === 'weak' ? `<link rel="alternate" type="application/json+oembed" href="/wp-json/oembed/1.0/embed?url=%2F" />` : '',
  ].join('\n')
  return html(
    'Bed Blog | Just another WordPress site',
    head,
    `<article><h2><a href="/2014/11/hello-world/">Hello world!</a></h2>${kind === 'weak' ? '<a href="/?author=1">admin</a>' : ''}</article>`,
  )
}

const notFound = (): Reply => ({
  status: 404,
  body: html('Page not found | Bed Blog', '', '<h1>Oops! That page can&rsquo;t be found.</h1>'),
})
const text = (body: string, status = 200): Reply => ({ status, body, type: 'text/plain' })
const json = (v: unknown, status = 200): Reply => ({ status, body: JSON.stringify(v), type: 'application/json' })

const README_TXT = (name: string, tag: string) =>
  `=== ${name} ===\nContributors: someone\nRequires at least: 4.0\nTested up to: 4.0\nStable tag: ${tag}\nLicense: GPLv2\n\n== Description ==\n${name}.\n\n== Changelog ==\n= ${tag} =\n* Fixes.\n`
const LOGIN = (kind: Kind) =>
  html(
    'Bed Blog &rsaquo; Log In',
    `<link rel='stylesheet' id='buttons-css' href='/wp-includes/css/buttons.min.css${kind === 'weak' ? '?ver=4.0.1' : ''}' type='text/css' media='all' />`,
    '<form name="loginform" id="loginform" action="/wp-login.php" method="post"><input type="text" name="log" id="user_login"><input type="password" name="pwd"></form>' +
      (kind === 'weak' ? '<a href="/wp-login.php?action=register">Register</a>' : ''),
  )
const METHODS = [
  'system.multicall',
  'system.listMethods',
  'system.getCapabilities',
  'demo.addTwoNumbers',
  'demo.sayHello',
  'pingback.extensions.getPingbacks',
  'pingback.ping',
  'wp.getUsersBlogs',
  'wp.getPosts',
]

function weakRoute(path: string, query: URLSearchParams, method: string): Reply {
  if (path === '/' && query.has('author')) {
    const slug = ({ '1': 'admin', '2': 'editor-jane' } as Record<string, string>)[query.get('author')!]
    return slug ? { status: 301, body: '', headers: { location: `/author/${slug}/` } } : notFound()
  }
  switch (path) {
    case '/':
      return { status: 200, body: homePage('weak') }
    case '/readme.html':
      return {
        status: 200,
        body: html(
          'WordPress &#8250; ReadMe',
          '',
          '<h1 id="logo"><a href="https://wordpress.org/"><img alt="WordPress" src="wp-admin/images/wordpress-logo.png" /></a>\n\t<br /> Version 4.0.1\n</h1><p>Semantic Personal Publishing Platform</p>',
        ),
      }
    case '/feed/':
      return {
        status: 200,
        type: 'application/rss+xml',
        body: '<?xml version="1.0"?><rss version="2.0"><channel><title>Bed Blog</title><generator>https://wordpress.org/?v=4.0.1</generator></channel></rss>',
      }
    case '/wp-login.php':
      return query.get('action') === 'register'
        ? {
            status: 200,
            body: html(
              'Registration Form',
              '',
              '<form name="registerform" action="/wp-login.php?action=register" method="post"><input type="text" name="user_login"><input type="email" name="user_email"></form>',
            ),
          }
        : { status: 200, body: LOGIN('weak') }
    case '/wp-content/plugins/contact-form-7/readme.txt':
      return text(README_TXT('Contact Form 7', '5.1.1'))
    case '/wp-content/plugins/wp-file-manager/readme.txt':
      return text(README_TXT('WP File Manager', '6.8'))
    case '/wp-content/plugins/akismet/readme.txt':
      return text(README_TXT('Akismet', '4.1'))
    case '/wp-content/plugins/essential-addons-for-elementor-lite/readme.txt':
      return text(README_TXT('Essential Addons for Elementor', '5.7.1'))
    case '/wp-admin/maint/repair.php':
      return { status: 200, body: WP_REPAIR(true) }
    case '/wp-includes/rss-functions.php':
      return { status: 200, body: WP_RSS_FATAL }
    case '/wp-content/themes/twentyfourteen/style.css':
      return {
        status: 200,
        type: 'text/css',
        body: '/*\nTheme Name: Twenty Fourteen\nAuthor: the WordPress team\nVersion: 1.2\n*/\nbody { color: #2b2b2b; }',
      }
    case '/wp-json/wp/v2/users':
      return json([
        { id: 1, name: 'Site Admin', slug: 'admin' },
        { id: 2, name: 'Jane Editor', slug: 'editor-jane' },
      ])
    case '/wp-json/oembed/1.0/embed':
      return json({ version: '1.0', provider_name: 'Bed Blog', author_name: 'Site Admin', author_url: '/author/admin/', type: 'rich' })
    case '/xmlrpc.php':
      return method === 'POST'
        ? {
            status: 200,
            type: 'text/xml',
            body: `<?xml version="1.0" encoding="UTF-8"?><methodResponse><params><param><value><array><data>${METHODS.map((m) => `<value><string>${m}</string></value>`).join('')}</data></array></value></param></params></methodResponse>`,
          }
        : text('XML-RPC server accepts POST requests only.', 405)
    case '/wp-cron.php':
      return { status: 200, body: '' }
    case '/wp-content/debug.log':
      return text(
        '[25-Nov-2026 10:00:00 UTC] PHP Notice:  Undefined index: action in /var/www/html/wp-content/plugins/contact-form-7/includes/controller.php on line 42\n',
      )
    case '/wp-content/uploads/':
      return {
        status: 200,
        body: '<html><head><title>Index of /wp-content/uploads</title></head><body><h1>Index of /wp-content/uploads</h1><a href="2014/">2014/</a></body></html>',
      }
    case '/wp-config.php.bak':
      return text("<?php\ndefine('DB_NAME', 'wordpress');\ndefine('DB_USER', 'wp');\ndefine('DB_PASSWORD', 'bed-db-password');\n")
    case '/wp-admin/install.php':
      return {
        status: 200,
        body: html(
          'WordPress &rsaquo; Installation',
          '',
          '<h1>Already Installed</h1><p>You appear to have already installed WordPress.</p>',
        ),
      }
    case '/installer.php':
      return {
        status: 200,
        body: html('Duplicator', '', '<div id="header">Duplicator installer</div><form>Step 1 of 4: Deployment</form>'),
      }
    default:
      return notFound()
  }
}

function hardenedRoute(path: string, query: URLSearchParams): Reply {
  if (path === '/' && query.has('author')) return notFound()
  switch (path) {
    case '/':
      return { status: 200, body: homePage('hardened') }
    case '/wp-login.php':
      return query.get('action') === 'register'
        ? { status: 302, body: '', headers: { location: '/wp-login.php?registration=disabled' } }
        : { status: 200, body: LOGIN('hardened') }
    case '/wp-admin/maint/repair.php':
      return { status: 200, body: WP_REPAIR(false) }
    case '/wp-includes/rss-functions.php':
      return { status: 500, body: '' }
    case '/wp-json/wp/v2/users':
      return json({ code: 'rest_user_cannot_view', message: 'Sorry, you are not allowed to list users.', data: { status: 401 } }, 401)
    case '/xmlrpc.php':
    case '/wp-cron.php':
    case '/wp-content/uploads/':
    case '/readme.html':
      return { status: 403, body: html('403 Forbidden', '', '<h1>Forbidden</h1>') }
    default:
      if (path.startsWith('/wp-content/plugins/') && path.endsWith('.txt'))
        return { status: 403, body: html('403 Forbidden', '', '<h1>Forbidden</h1>') }
      return notFound()
  }
}

export interface WordpressBed {
  url: string
  requests: Array<{ method: string; path: string }>
  close(): Promise<void>
}

export async function startWordpressBed(kind: Kind): Promise<WordpressBed> {
  const requests: WordpressBed['requests'] = []
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://bed')
    requests.push({ method: req.method ?? 'GET', path: u.pathname + u.search })
    req.resume()
    req.on('end', () => {
      const r = kind === 'weak' ? weakRoute(u.pathname, u.searchParams, req.method ?? 'GET') : hardenedRoute(u.pathname, u.searchParams)
      res.writeHead(r.status, {
        'content-type': r.type ?? 'text/html; charset=UTF-8',
        server: 'Apache',
        ...(kind === 'weak' ? { link: '</wp-json/>; rel="https://api.w.org/"' } : {}),
        ...r.headers,
      })
      res.end(r.body)
    })
  })
  await new Promise<void>((r) => server.listen(0, WP_ADDR[kind], r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${WP_ADDR[kind]}:${port}/`,
    requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
