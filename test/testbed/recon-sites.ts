// Website Recon test bed: sites built like real products, each on port 80 of its own loopback address,
// with the technologies a fingerprinter should name (TRUTH), and a hardened twin that names nothing.
import http from 'node:http'

export interface ReconSite {
  name: string
  headers: Record<string, string | string[]>
  html: string
  favicon?: Buffer
  /** Technologies (name and version or null) Ward must find. */
  truth: Array<[string, string | null]>
}

export const FAVICON = Buffer.from('AAABAAEAEBAAAAEAIABoBAAAFgAAACgAAAAQAAAAIAAAAAEAIAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAD///8A', 'base64')

export const SITES: ReconSite[] = [
  {
    name: 'wordpress',
    headers: {
      server: 'nginx/1.14.0 (Ubuntu)',
      'x-powered-by': 'PHP/7.2.24',
      link: '<http://x/wp-json/>; rel="https://api.w.org/"',
      'set-cookie': ['wp-settings-time-1=1; path=/'],
    },
    html: `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Blog &#8211; Just another WordPress site</title>
<meta name="generator" content="WordPress 5.1.1" />
<link rel='stylesheet' href='http://x/wp-includes/css/dist/block-library/style.min.css?ver=5.1.1' type='text/css' media='all' />
<link rel='stylesheet' href='http://x/wp-content/themes/twentynineteen/style.css?ver=1.3' type='text/css' />
<script type='text/javascript' src='http://x/wp-includes/js/jquery/jquery.js?ver=1.12.4'></script>
<script type='text/javascript' src='http://x/wp-includes/js/jquery/jquery-migrate.min.js?ver=1.4.1'></script>
<script type='text/javascript' src='http://x/wp-content/plugins/contact-form-7/includes/js/scripts.js?ver=5.1.1'></script>
<script>window._wpemojiSettings = {"source":{"concatemoji":"http:\\/\\/x\\/wp-includes\\/js\\/wp-emoji-release.min.js?ver=5.1.1"}};</script>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-ABC123');</script>
</head><body class="home blog"><h1>Hello world!</h1></body></html>`,
    truth: [
      ['WordPress', '5.1.1'],
      ['nginx', '1.14.0'],
      ['PHP', '7.2.24'],
      ['Ubuntu', null],
      ['MySQL', null],
      ['Contact Form 7', '5.1.1'],
      ['Google Analytics', null],
      ['jQuery Migrate', '1.4.1'],
    ],
  },
  {
    name: 'nginx-php',
    headers: {
      server: 'nginx/1.18.0',
      'x-powered-by': 'PHP/8.1.2',
      'set-cookie': ['PHPSESSID=abc123; path=/', 'laravel_session=eyJpdiI6; path=/; httponly'],
    },
    html: `<!doctype html><html><head><title>Shop</title><meta name="csrf-token" content="x">
<link href="/css/bootstrap-4.3.1.min.css" rel="stylesheet"><link rel="icon" href="/favicon.ico">
<script src="/js/jquery-3.3.1.min.js"></script><script src="/js/bootstrap-4.3.1.min.js"></script></head><body>Shop</body></html>`,
    favicon: FAVICON,
    truth: [
      ['nginx', '1.18.0'],
      ['PHP', '8.1.2'],
      ['Laravel', null],
      ['jQuery', '3.3.1'],
      ['Bootstrap', '4.3.1'],
    ],
  },
  {
    name: 'express',
    headers: { 'x-powered-by': 'Express', 'set-cookie': ['connect.sid=s%3Aabc; Path=/; HttpOnly'] },
    html: `<!DOCTYPE html><html><head><title>App</title><script src="https://unpkg.com/react@16.8.0/umd/react.production.min.js"></script>
<script src="https://unpkg.com/react-dom@16.8.0/umd/react-dom.production.min.js"></script><script src="https://cdn.jsdelivr.net/npm/lodash@4.17.11/lodash.min.js"></script></head><body><div id="root"></div></body></html>`,
    truth: [
      ['Express', null],
      ['Node.js', null],
      ['React', '16.8.0'],
      ['Lodash', '4.17.11'],
      ['unpkg', null],
      ['jsDelivr', null],
    ],
  },
  {
    name: 'jquery-bootstrap',
    headers: { server: 'Apache/2.4.49 (Unix)' },
    html: `<html><head><title>Company</title><meta name="viewport" content="width=device-width">
<link rel="stylesheet" href="https://stackpath.bootstrapcdn.com/bootstrap/3.3.7/css/bootstrap.min.css">
<link rel="stylesheet" href="https://cdnjs.cloudflare.com/ajax/libs/font-awesome/4.7.0/css/font-awesome.min.css">
<script src="https://code.jquery.com/jquery-1.11.3.min.js"></script><script src="https://ajax.googleapis.com/ajax/libs/jqueryui/1.10.4/jquery-ui.min.js"></script>
<script src="https://stackpath.bootstrapcdn.com/bootstrap/3.3.7/js/bootstrap.min.js"></script><script src="/js/modernizr-2.6.2.min.js"></script></head><body></body></html>`,
    truth: [
      ['Apache HTTP Server', '2.4.49'],
      ['jQuery', '1.11.3'],
      ['jQuery UI', '1.10.4'],
      ['Bootstrap', '3.3.7'],
      ['Font Awesome', '4.7.0'],
      ['Modernizr', '2.6.2'],
      ['cdnjs', null],
      ['jQuery CDN', null],
      ['BootstrapCDN', null],
    ],
  },
  {
    name: 'cloudflare',
    headers: {
      server: 'cloudflare',
      'cf-ray': '7d1e2f3a4b5c6d7e-FRA',
      'cf-cache-status': 'DYNAMIC',
      'set-cookie': ['__cf_bm=abc; path=/; HttpOnly; Secure'],
      'strict-transport-security': 'max-age=31536000',
      'alt-svc': 'h3=":443"; ma=86400',
    },
    html: `<html><head><title>Site</title><script src="https://static.cloudflareinsights.com/beacon.min.js" defer></script><script src="https://www.google.com/recaptcha/api.js"></script></head><body>ok</body></html>`,
    truth: [
      ['Cloudflare', null],
      ['Cloudflare Bot Management', null],
      ['Cloudflare Web Analytics', null],
      ['reCAPTCHA', null],
      ['HSTS', null],
      ['HTTP/3', null],
    ],
  },
]

export const HARDENED: ReconSite = {
  name: 'hardened',
  headers: {},
  html: '<!doctype html><html><head><title>Welcome</title></head><body><p>Welcome.</p></body></html>',
  truth: [],
}

export interface ReconBed {
  url: string
  close(): Promise<void>
}

export async function startReconSite(host: string, site: ReconSite, port = 80): Promise<ReconBed> {
  const server = http.createServer((req, res) => {
    if (req.url === '/favicon.ico') {
      if (!site.favicon) return void res.writeHead(404).end()
      return void res.writeHead(200, { 'content-type': 'image/x-icon' }).end(site.favicon)
    }
    if (req.url !== '/') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>')
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8', ...site.headers })
    res.end(site.html)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return {
    url: `http://${host}${port === 80 ? '' : `:${port}`}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
