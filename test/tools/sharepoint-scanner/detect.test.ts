// The SharePoint Scanner's pure decisions, each with a case that is a hit and one that is not.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as V from '../../../src/tools/sharepoint-scanner/detect/version.js'
import * as E from '../../../src/tools/sharepoint-scanner/detect/endpoints.js'

const a = (body: string, status = 200, contentType = 'text/html') => ({ url: 'http://x/', status, location: null, contentType, body })
const soft = a('<html><title>Home</title><body>Welcome</body></html>')
const j = (v: unknown) => a(JSON.stringify(v), 200, 'application/json;odata=nometadata')

test('version: header and _vti_pvt builds, product and update by build; pages and odd values are no build', () => {
  assert.equal(V.buildOf('16.0.0.4351'), '16.0.4351')
  assert.equal(V.buildOf('16.0.10337.12109'), '16.0.10337.12109')
  assert.equal(V.buildOf('IIS'), null)
  assert.equal(V.cnfBuild(a('vti_encoding:SR|utf8-nl\nvti_buildversion:SR|16.0.4351.1000\n', 200, 'text/plain')), '16.0.4351.1000')
  assert.equal(V.cnfBuild(soft), null)
  assert.equal(V.infMajor(a('<!-- FPVersion="15.00.0.000" -->')), '15')
  assert.equal(V.infMajor(soft), null)
  assert.deepEqual(
    V.bestBuild([
      { build: '16.0.4822', source: 'h' },
      { build: '16.0.4351.1000', source: 'f' },
    ]),
    { build: '16.0.4351.1000', source: 'f' },
  )
  assert.equal(V.bestBuild([]), null)
  assert.deepEqual(V.productOf('16.0.4351.1000'), { product: 'SharePoint Server 2016', update: 'RTM' })
  assert.deepEqual(V.productOf('16.0.10399.20005'), { product: 'SharePoint Server 2019', update: 'June 2023 CU' })
  assert.deepEqual(V.productOf('16.0.5400.1000'), { product: 'SharePoint Server 2016', update: 'May 2023 CU or later' })
  assert.equal(V.productOf('9.0.1'), null)
  assert.equal(V.catalogueVersion('16.0.4351'), '16.0.4351.99999')
  assert.ok(V.looksLikeSharePoint({ microsoftsharepointteamservices: '16.0.0.4351' }, [], []))
  assert.ok(!V.looksLikeSharePoint({ server: 'nginx' }, [soft, null], []))
})

test('endpoints: service pages, application pages and OData rows are judged by content', () => {
  assert.ok(E.webServiceOpen(a('<span>The following operations are supported.</span>')))
  assert.ok(!E.webServiceOpen(soft))
  assert.ok(!E.webServiceOpen(a('<span>The following operations are supported.</span>', 401)))
  assert.ok(E.layoutsPageOpen(a('<script>var _spPageContextInfo={}</script><h1>Site Contents</h1>')))
  assert.ok(!E.layoutsPageOpen(a('<script>var _spPageContextInfo={}</script><form action="/_layouts/15/Authenticate.aspx">')))
  assert.ok(!E.layoutsPageOpen(soft))
  assert.deepEqual(E.siteUsers(j({ value: [{ LoginName: 'i:0#.w|c\\a', Title: 'A', Email: '' }] })), [
    { login: 'i:0#.w|c\\a', name: 'A', email: null },
  ])
  assert.deepEqual(E.siteUsers(j({ d: { results: [{ LoginName: 'b', Title: 'B', Email: 'b@x' }] } })), [
    { login: 'b', name: 'B', email: 'b@x' },
  ])
  assert.equal(E.siteUsers(soft), null)
  assert.deepEqual(
    E.siteLists(
      j({
        value: [
          { Title: 'Docs', ItemCount: 2, Hidden: false },
          { Title: 'H', Hidden: true },
        ],
      }),
    ),
    [{ title: 'Docs', items: 2 }],
  )
  assert.equal(E.siteLists(a('{"value":[]}', 401, 'application/json')), null)
})
