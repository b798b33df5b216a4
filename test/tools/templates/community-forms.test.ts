// Forms the community templates use that the first engine tests did not: measured against a sample of
// the community repository (docs/templates.md), each of these made templates fail or error.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { loadTemplate } from '../../../src/tools/lib/templates/index.js'
import { BLOCKED_HOST, run, useTemplateSite } from './engine-helpers.js'

const bed = useTemplateSite()

const head = (id: string) => `id: ${id}\ninfo: {name: ${id}, author: ward, severity: high}\n`

test('a step uses the value an earlier step of the same block extracted; without it the sequence ends clean', async () => {
  const t = `${head('one-block-chain')}http:
  - raw:
      - |
        GET {{Path}}/token HTTP/1.1
        Host: {{Hostname}}
      - |
        GET /secret?csrf={{csrf}} HTTP/1.1
        Host: {{Hostname}}
    extractors:
      - type: regex
        name: csrf
        internal: true
        group: 1
        regex: ['name="csrf" value="([^"]+)"']
    matchers:
      - type: word
        words: ["secret: 42"]
`
  const pos = await run(t, `${bed.site.url}/pos`)
  assert.equal(pos.status, 'matched', JSON.stringify(pos))
  assert.equal((await run(t, `${bed.site.url}/neg`)).status, 'clean')
  // No token on this page: the second step cannot be built, and that is "not vulnerable", not an error.
  const none = await run(t.replace('{{Path}}/token', '{{Path}}/word'), `${bed.site.url}/pos`)
  assert.deepEqual(none, { status: 'clean', requests: 1 })
})

test('nested markers resolve from the inside out, as a literal or inside a quoted string', async () => {
  const hash = (word: string) => `${head('nested')}variables:
  word: ${word}
http:
  - method: GET
    path: ["{{RootURL}}/hash"]
    matchers:
      - type: word
        words: ["{{md5({{word}})}}"]
`
  assert.equal((await run(hash('ward'), bed.site.url)).status, 'matched')
  assert.equal((await run(hash('other'), bed.site.url)).status, 'clean')
  const quoted = `${head('nested-quoted')}variables:
  word: ward
http:
  - method: GET
    path: ["{{RootURL}}/echo?q={{to_upper('{{word}}-x')}}"]
    matchers:
      - type: word
        words: ["you sent WARD-X"]
`
  assert.equal((await run(quoted, bed.site.url)).status, 'matched')
})

test('raw request annotations: @timeout is dropped, @Host may only name the target', async () => {
  const raw = (annotation: string) => `${head('annotated')}http:
  - raw:
      - |
        ${annotation}
        POST /raw HTTP/1.1
        Host: {{Hostname}}
        X-Ward: raw

        a=1
    matchers:
      - type: word
        words: ["raw ok"]
`
  assert.equal((await run(raw('@timeout: 10s'), bed.site.url)).status, 'matched')
  assert.equal((await run(raw('@Host: {{Hostname}}'), bed.site.url)).status, 'matched')
  const off = await run(raw(`@Host: ${BLOCKED_HOST}`), bed.site.url)
  assert.equal(off.status, 'error')
  assert.match(off.status === 'error' ? off.message : '', /refused: templates only reach the target/)
})

test('a DSL matcher over a value the response did not give is false, not an error', async () => {
  const t = (path: string) => `${head('missing-value')}http:
  - method: GET
    path: ["{{BaseURL}}${path}"]
    extractors:
      - type: regex
        name: version
        internal: true
        group: 1
        regex: ['version=([0-9.]+)']
    matchers:
      - type: dsl
        dsl: ["compare_versions(version, '< 2.4.50')"]
`
  assert.equal((await run(t('/dsl'), `${bed.site.url}/pos`)).status, 'matched')
  assert.equal((await run(t('/dsl'), `${bed.site.url}/neg`)).status, 'clean')
  assert.equal((await run(t('/word'), `${bed.site.url}/pos`)).status, 'clean')
})

test('a variable the template leaves to the user skips the template with its reason', async () => {
  const t = `${head('needs-var')}http:
  - raw:
      - |
        POST /auth HTTP/1.1
        Host: {{Hostname}}

        user={{username}}&pass={{password}}
    matchers:
      - type: word
        words: ["welcome"]
`
  const r = await run(t, bed.site.url)
  assert.equal(r.status, 'skipped')
  assert.match(r.status === 'skipped' ? r.reason : '', /needs the variable username, which the template leaves to the user/)
})

test('older spellings tolower/toupper, and ip for an address target', async () => {
  const t = `${head('spellings')}http:
  - method: GET
    path: ["{{BaseURL}}/case"]
    matchers:
      - type: dsl
        dsl: ["contains(tolower(body), 'powered by acmecms') && toupper('a') == 'A' && ip == Host"]
`
  assert.equal((await run(t, `${bed.site.url}/pos`)).status, 'matched')
  assert.equal((await run(t, `${bed.site.url}/neg`)).status, 'clean')
})

describe('flow: http(N) joined by && and ||', () => {
  const flow = (expr: string, firstInternal: boolean) => `${head('flow')}flow: ${expr}
http:
  - method: GET
    path: ["{{BaseURL}}/word"]
    matchers:
      - type: word
        internal: ${firstInternal}
        words: ["AcmeCMS"]
  - method: GET
    path: ["{{RootURL}}/landing"]
    matchers:
      - type: word
        words: ["landing page marker"]
`
  test('&&: the second block runs only where the first matched; an internal precondition is not reported', async () => {
    bed.site.reset()
    const pos = await run(flow('http(1) && http(2)', true), `${bed.site.url}/pos`)
    assert.equal(pos.status, 'matched')
    assert.deepEqual(pos.status === 'matched' ? pos.matches.map((x) => x.requestLine) : [], ['GET /landing HTTP/1.1'])
    bed.site.reset()
    assert.equal((await run(flow('http(1) && http(2)', true), `${bed.site.url}/neg`)).status, 'clean')
    assert.equal(bed.site.hits.get('/landing'), undefined, 'the second block was not sent')
  })
  test('||: the second block runs only where the first did not match', async () => {
    bed.site.reset()
    const pos = await run(flow('(http(1)) || http(2);', false), `${bed.site.url}/pos`)
    assert.deepEqual(pos.status === 'matched' ? pos.matches.map((x) => x.requestLine) : pos, ['GET /pos/word HTTP/1.1'])
    assert.equal(bed.site.hits.get('/landing'), undefined)
    const neg = await run(flow('http(1) || http(2)', false), `${bed.site.url}/neg`)
    assert.deepEqual(neg.status === 'matched' ? neg.matches.map((x) => x.requestLine) : neg, ['GET /landing HTTP/1.1'])
  })
  test('a flow beyond that (JavaScript) is refused at load with its reason', () => {
    const r = loadTemplate(flow('for (let x of iterate(template.a)) { http(1) }', true), { path: 'f.yaml' })
    assert.equal(r.ok, false)
    assert.match(r.ok ? '' : r.reason, /flow: only http\(N\) joined by && and \|\| is supported/)
    const bad = loadTemplate(flow('http(1) && http(3)', true), { path: 'f.yaml' })
    assert.match(bad.ok ? '' : bad.reason, /http\(3\) names no request block \(the template has 2\)/)
  })
})

test('date_time and the short spellings randbase, trimprefix, trimsuffix', async () => {
  const year = String(new Date().getUTCFullYear())
  const t = `${head('dates')}http:
  - method: GET
    path: ["{{BaseURL}}/word"]
    matchers:
      - type: dsl
        dsl:
          - "date_time('%Y') == '${year}' && date_time('2006-01-02', 0) == '1970-01-01' && date_time('%H:%m:%s', 3723) == '01:02:03'"
          - "len(randbase(5)) == 5 && trimprefix('abc', 'a') == 'bc' && trimsuffix('abc', 'c') == 'ab' && contains(body, 'AcmeCMS')"
        condition: and
`
  assert.equal((await run(t, `${bed.site.url}/pos`)).status, 'matched')
  assert.equal((await run(t, `${bed.site.url}/neg`)).status, 'clean')
})
