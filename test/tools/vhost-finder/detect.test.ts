// Find Virtual Hosts' pure decisions, one line each: passes (is a finding) and fails (is not).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isVirtualHost, pageTitle, sameSite, shapeOf, withoutName } from '../../../src/tools/vhost-finder/detect/answer.js'
import { internalMarker } from '../../../src/tools/vhost-finder/detect/internal.js'
import { certificateNames } from '../../../src/tools/vhost-finder/detect/cert-names.js'
import { baseDomains, buildCandidates, hostName } from '../../../src/tools/vhost-finder/detect/candidates.js'

const ok = (body: string, status = 200, location: string | null = null) => ({ status, location, body, size: Buffer.byteLength(body) })
const page = (title: string, text: string) => `<html><head><title>${title}</title></head><body>${text}</body></html>`

test('an echo of the name is no difference: the same catch-all page for two names is one site', () => {
  assert.ok(
    sameSite(
      shapeOf(ok(page('Welcome', 'Welcome to a.example')), 'a.example'),
      shapeOf(ok(page('Welcome', 'Welcome to administrator.example')), 'administrator.example'),
    ),
  )
})
test('a changing token within the size band is the same site; another title is not', () => {
  assert.ok(sameSite(shapeOf(ok(page('W', 'token 1234567')), 'x'), shapeOf(ok(page('W', 'token 7654321')), 'y')))
  assert.ok(!sameSite(shapeOf(ok(page('W', 'token')), 'x'), shapeOf(ok(page('Dev', 'token')), 'y')))
})
test('status and redirect tell sites apart; a redirect to the same name elsewhere does not', () => {
  assert.ok(
    !sameSite(shapeOf(ok('', 302, 'https://a.example/login'), 'a.example'), shapeOf(ok('', 302, 'https://b.example/'), 'b.example')),
  )
  assert.ok(sameSite(shapeOf(ok('', 301, 'https://a.example/'), 'a.example'), shapeOf(ok('', 301, 'https://b.example/'), 'b.example')))
  assert.ok(!sameSite(shapeOf(ok(page('A', 'x'), 401), 'a'), shapeOf(ok(page('A', 'x'), 200), 'b')))
})
test('a virtual host differs from every baseline; like one of them it is not', () => {
  const def = shapeOf(ok(page('Welcome', 'default')), '127.0.0.1')
  const wild = shapeOf(ok(page('Shop', 'wildcard')), 'zz.example')
  assert.ok(isVirtualHost(shapeOf(ok(page('Dev', 'debug')), 'dev.example'), [def, wild]))
  assert.ok(!isVirtualHost(shapeOf(ok(page('Shop', 'wildcard')), 'mail.example'), [def, wild]))
  assert.ok(!isVirtualHost(shapeOf(ok(page('Dev', 'debug')), 'dev.example'), []))
})
test('withoutName replaces every spelling of the name; pageTitle reads the first title only', () => {
  assert.equal(withoutName('Hi A.Example and a.example', 'a.example'), 'Hi {host} and {host}')
  assert.equal(pageTitle('<title>\n  Dev &amp; test </title><title>two</title>'), 'Dev & test')
  assert.equal(pageTitle('<p>no title</p>'), '')
})
test('internal-looking names are marked; public ones are not', () => {
  assert.equal(internalMarker('dev.shop.example.com'), 'dev')
  assert.equal(internalMarker('api-staging.example.com'), 'staging')
  assert.equal(internalMarker('dev2.example.co.uk'), 'dev')
  assert.equal(internalMarker('intranet'), 'intranet')
  assert.equal(internalMarker('www.example.com'), null)
  assert.equal(internalMarker('developer-portal.example.com'), null)
})
test('certificate names come from the CN and the DNS entries of subjectAltName', () => {
  assert.deepEqual(certificateNames('C=DE\nCN=A.example', 'DNS:a.example, DNS:*.b.example, IP Address:127.0.0.1'), [
    'a.example',
    '*.b.example',
  ])
  assert.deepEqual(certificateNames(undefined, undefined), [])
})
test('base domains come from wildcards, parents and registrable domains; candidates are unique with their sources', () => {
  assert.deepEqual(baseDomains(['*.shop.example.com', 'www.example.co.uk'], ['extra.example']), [
    'extra.example',
    'shop.example.com',
    'example.com',
    'example.co.uk',
  ])
  const c = buildCandidates({
    targetName: 'example.com',
    certificate: ['www.example.com', '*.example.com'],
    reverseDns: [],
    workspace: ['www.example.com', '10.0.0.1'],
    words: ['www', 'dev', 'x.other'],
    extraWords: ['x.other'],
    domains: ['example.com'],
  })
  assert.deepEqual(c, [
    { name: 'www.example.com', sources: ['certificate', 'workspace', 'wordlist'] },
    { name: 'dev.example.com', sources: ['wordlist'] },
    { name: 'x.other', sources: ['tool_params'] },
  ])
  assert.deepEqual(
    buildCandidates({ targetName: null, certificate: [], reverseDns: [], workspace: [], words: ['dev'], extraWords: [], domains: [] }),
    [{ name: 'dev', sources: ['wordlist'] }],
  )
  assert.equal(hostName('Bad Name'), null)
})
