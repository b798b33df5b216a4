// The WordPress Scanner's pure decisions, each with a case that is a hit and one that is not.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pageFacts, assetVersion, mostVoted } from '../../../src/tools/lib/cms/page.js'
import { componentVulns, isOutdated } from '../../../src/tools/lib/cms/components.js'
import {
  coreAssetVersions,
  electVersion,
  feedVersion,
  generatorVersion,
  readmeVersion,
} from '../../../src/tools/wordpress-scanner/detect/core-version.js'
import {
  componentsInPage,
  mergeComponents,
  readmeTxtVersion,
  styleCssVersion,
} from '../../../src/tools/wordpress-scanner/detect/components.js'
import { authorFromRedirect, mergeUsers, userFromOembed, usersFromRest } from '../../../src/tools/wordpress-scanner/detect/users.js'
import * as X from '../../../src/tools/wordpress-scanner/detect/exposures.js'
import { knownPlugin } from '../../../src/tools/wordpress-scanner/data/components.js'

const a = (body: string, status = 200, url = 'http://x/') => ({ url, status, location: null, contentType: '', body })
const page = pageFacts(
  `<meta name="generator" content="WordPress 5.8.1"><link href="/wp-includes/css/dist/block-library/style.min.css?ver=5.8.1"><script src="/wp-includes/js/jquery/jquery.min.js?ver=3.6.0"></script><script src="/wp-content/plugins/contact-form-7/includes/js/index.js?ver=5.4.2"></script><link href="/wp-content/themes/astra/style.min.css?ver=3.7.5">`,
  'http://x/',
)

test('core version: generator, readme.html, feed and core assets are read; other software is not', () => {
  assert.equal(generatorVersion(page), '5.8.1')
  assert.equal(generatorVersion(pageFacts('<meta name="generator" content="Drupal 9">', 'http://x/')), null)
  assert.equal(readmeVersion('<h1 id="logo">WordPress<br /> Version 4.0.1</h1>'), '4.0.1')
  assert.equal(readmeVersion('<p>Version 2 of our product</p>'), null)
  assert.equal(feedVersion('<generator>https://wordpress.org/?v=6.4.2</generator>'), '6.4.2')
  assert.equal(feedVersion('<generator>Hugo</generator>'), null)
  assert.deepEqual(coreAssetVersions(page), ['5.8.1'], "jQuery's own ?ver= is not the core version")
  assert.deepEqual(
    electVersion([
      { version: '5.8.1', source: 'a' },
      { version: '5.8', source: 'b' },
      { version: '5.8.1', source: 'c' },
    ]),
    { version: '5.8.1', sources: ['a', 'c'] },
  )
  assert.equal(mostVoted([]), null)
  assert.equal(assetVersion('http://x/a.js?ver=abc'), null)
})

test('plugins and themes: slugs and versions from assets, readme.txt and style.css', () => {
  assert.deepEqual(componentsInPage(page), {
    plugins: [{ slug: 'contact-form-7', version: '5.4.2', source: 'page assets' }],
    themes: [{ slug: 'astra', version: '3.7.5', source: 'page assets' }],
  })
  assert.deepEqual(readmeTxtVersion('=== Akismet ===\nStable tag: 4.1\n'), { version: '4.1', source: 'readme.txt Stable tag' })
  assert.deepEqual(readmeTxtVersion('=== X ===\nStable tag: trunk\n== Changelog ==\n= 2.3.1 =\n* fix'), {
    version: '2.3.1',
    source: 'readme.txt changelog',
  })
  assert.equal(readmeTxtVersion('<html>not found</html>'), null)
  assert.equal(styleCssVersion('/*\nTheme Name: Twenty Fourteen\nVersion: 1.2\n*/'), '1.2')
  assert.equal(styleCssVersion('body { color: red }'), null)
  assert.deepEqual(
    mergeComponents([
      { slug: 'a', version: null, source: 'page' },
      { slug: 'a', version: '1', source: 'readme' },
    ]),
    [{ slug: 'a', version: '1', source: 'readme' }],
  )
})

test('plugin vulnerabilities by range; outdated against the latest known', async () => {
  assert.deepEqual(
    (await componentVulns(knownPlugin('contact-form-7'), '5.1.1')).map((v) => v.cve),
    ['CVE-2020-35489'],
  )
  assert.deepEqual(await componentVulns(knownPlugin('contact-form-7'), '5.3.2'), [])
  assert.deepEqual(await componentVulns(knownPlugin('wp-file-manager'), '5.9'), [], 'before the vulnerable connector existed')
  assert.ok(isOutdated(knownPlugin('akismet'), '4.1'))
  assert.ok(!isOutdated(knownPlugin('akismet'), '5.5'))
  assert.ok(!isOutdated(knownPlugin('hello-dolly'), '1.0'), 'no latest known: never outdated')
})

test('users from author redirects, the REST API and oEmbed; nothing from refusals', () => {
  assert.deepEqual(authorFromRedirect(1, 301, 'http://x/author/admin/'), { id: 1, login: 'admin', name: null, source: '/?author=1' })
  assert.equal(authorFromRedirect(1, 404, null), null)
  assert.deepEqual(usersFromRest(200, '[{"id":2,"name":"Jane","slug":"jane"}]'), [
    { id: 2, login: 'jane', name: 'Jane', source: '/wp-json/wp/v2/users' },
  ])
  assert.deepEqual(usersFromRest(401, '{"code":"rest_user_cannot_view"}'), [])
  assert.deepEqual(userFromOembed(200, '{"author_name":"Admin","author_url":"http://x/author/admin/"}')?.login, 'admin')
  assert.equal(userFromOembed(200, 'not json'), null)
  assert.deepEqual(
    mergeUsers([
      { id: null, login: 'a', name: 'A', source: 'oEmbed' },
      { id: 1, login: 'a', name: null, source: 'rest' },
    ]),
    [{ id: 1, login: 'a', name: 'A', source: 'oEmbed' }],
  )
})

test('exposures are judged by content: a site answering 200 with a page to everything reports nothing', () => {
  const soft = a('<html><title>Home</title><body>Welcome</body></html>')
  assert.deepEqual(X.xmlrpcMethods(a('<methodResponse><string>system.multicall</string></methodResponse>')), ['system.multicall'])
  assert.equal(X.xmlrpcMethods(soft), null)
  assert.ok(X.cronPublic(a('')))
  assert.ok(!X.cronPublic(soft))
  assert.ok(X.debugLogServed(a('[25-Nov-2026 10:00:00 UTC] PHP Notice: x')))
  assert.ok(!X.debugLogServed(soft))
  assert.ok(X.uploadsListed(a('<title>Index of /wp-content/uploads</title>')))
  assert.ok(!X.uploadsListed(soft))
  assert.ok(X.configCopy(a("define('DB_PASSWORD', 'x');")))
  assert.ok(!X.configCopy(soft))
  assert.equal(X.installerOpen(a('<input name="weblog_title">')), 'the WordPress installation form')
  assert.equal(X.installerOpen(a('<h1>Already Installed</h1>')), null)
  assert.ok(X.registrationOpen(a('<input name="user_login"><input name="user_email">')))
  assert.ok(!X.registrationOpen(a('<input name="user_login"><input name="pwd">')))
  assert.ok(X.looksLikeWordpress([a('<link href="/wp-content/themes/x/style.css">')]))
  assert.ok(!X.looksLikeWordpress([soft, null]))
})
