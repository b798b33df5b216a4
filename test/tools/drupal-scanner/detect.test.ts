// The Drupal Scanner's pure decisions, each with a case that is a hit and one that is not.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pageFacts } from '../../../src/tools/lib/cms/page.js'
import * as D from '../../../src/tools/drupal-scanner/detect/drupal.js'

const a = (body: string, status = 200) => ({ url: 'http://x/', status, location: null, contentType: '', body })
const soft = a('<html><title>Home</title><body>Welcome</body></html>')

test('version: changelog first line and core asset ?v=; a page or a random token is no version', () => {
  assert.equal(D.changelogVersion(a('\nDrupal 7.57, 2018-02-21\n---')), '7.57')
  assert.equal(D.changelogVersion(soft), null)
  const facts = pageFacts(
    '<meta name="Generator" content="Drupal 8 (https://www.drupal.org)"><script src="/core/misc/drupal.js?v=8.5.0"></script><script src="/core/misc/x.js?p5x7k1"></script>',
    'http://x/',
  )
  assert.deepEqual(D.coreAssetVersions(facts), ['8.5.0'])
  assert.equal(D.generatorMajor(facts, undefined), '8')
  assert.equal(
    D.generatorMajor(pageFacts('<meta name="generator" content="WordPress 6.4">', 'http://x/'), 'Drupal 7 (http://drupal.org)'),
    '7',
  )
  assert.equal(D.generatorMajor(pageFacts('', 'http://x/'), undefined), null)
})

test('modules and themes from page paths (core left out); .info versions', () => {
  const facts = pageFacts(
    '<link href="/sites/all/modules/views/css/views.css"><link href="/modules/contrib/admin_toolbar/a.css"><link href="/core/modules/system/css/x.css"><link href="/themes/contrib/bootstrap/s.css">',
    'http://x/',
  )
  assert.deepEqual(D.componentsInPage(facts), { modules: ['admin_toolbar', 'views'], themes: ['bootstrap'] })
  assert.deepEqual(D.infoVersion(a('name = Views\ncore = 7.x\nversion = "7.x-3.18"\n')), { version: '7.x-3.18' })
  assert.deepEqual(D.infoVersion(a("name: 'X'\ntype: module\nversion: '8.x-1.23'\n")), { version: '8.x-1.23' })
  assert.equal(D.infoVersion(soft), null)
})

test('user pages, update.php and install.php are judged by content', () => {
  assert.deepEqual(D.userFromPage(1, a('<title>admin | Site</title><div class="profile"></div>')), { id: 1, name: 'admin' })
  assert.equal(D.userFromPage(1, a('<title>Access denied | Site</title><div class="profile"></div>', 200)), null)
  assert.equal(D.userFromPage(1, soft), null)
  assert.ok(D.updateOpen(a('<h1>Drupal database update</h1><form></form>')))
  assert.ok(!D.updateOpen(a('<title>Access denied</title><h1>Drupal database update</h1>')))
  assert.ok(D.installOpen(a('<h1>Choose language</h1>')))
  assert.ok(!D.installOpen(a('<h1>Drupal already installed</h1> Choose language')))
  assert.ok(D.looksLikeDrupal([a('<script>jQuery.extend(Drupal.settings, {})</script>')], null))
  assert.ok(!D.looksLikeDrupal([soft, null], null))
})
