// The template engine against the loopback template bed: every matcher, extractor, payload attack,
// raw and multi-step request, and DSL family has a positive site (/pos) and a clean twin (/neg).
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { startTemplateSite, FAVICON, type TemplateSite } from '../../testbed/template-site.js'
import { createRequestCluster, loadTemplate } from '../../../src/tools/lib/templates/index.js'
import { createRegexRunner } from '../../../src/tools/lib/templates/regex.js'
import { mmh3 } from '../../../src/tools/lib/templates/dsl-functions.js'
import { BLOCKED_HOST, egress, get, load, run } from './engine-helpers.js'

let site: TemplateSite
before(async () => {
  site = await startTemplateSite()
})
after(async () => {
  await site.close()
  await egress.close()
})

/** Runs a template on /pos and /neg: it must match the first and stay silent on the second. */
async function posNeg(yaml: string) {
  const t = load(yaml)
  const pos = await run(t, `${site.url}/pos`)
  const neg = await run(t, `${site.url}/neg`)
  assert.equal(pos.status, 'matched', `positive site: ${JSON.stringify(pos)}`)
  assert.equal(neg.status, 'clean', `negative site: ${JSON.stringify(neg)}`)
  return pos.status === 'matched' ? pos.matches : []
}

const pn = (yaml: string): Promise<void> => posNeg(yaml).then(() => undefined)
const m = (lines: string) => `    matchers:\n${lines}`

describe('matchers', () => {
  test('word (and condition, several words)', async () => {
    const [hit] = await posNeg(
      get('word', '/word', m('      - type: word\n        condition: and\n        words: ["AcmeCMS", "admin console"]\n')),
    )
    assert.deepEqual(hit!.hits, ['AcmeCMS', 'admin console'])
    assert.equal(hit!.requestLine, 'GET /pos/word HTTP/1.1')
  })
  test('word, case-insensitive', () =>
    pn(get('ci', '/case', m('      - type: word\n        case-insensitive: true\n        words: ["powered by acmecms"]\n'))))
  test('word on the header part', () =>
    pn(get('hdr', '/header', m('      - type: word\n        part: header\n        words: ["X-Powered-By: AcmeCMS"]\n'))))
  test('word with encoding: hex', () =>
    pn(get('hex', '/binary', m('      - type: word\n        encoding: hex\n        words: ["89504e47"]\n'))))
  test('regex', () => pn(get('re', '/regex', m('      - type: regex\n        regex: ["acme-[0-9]+\\\\.[0-9]+\\\\.[0-9]+"]\n'))))
  test('status', () => pn(get('st', '/status', m('      - type: status\n        status: [418]\n'))))
  test('size', () => pn(get('sz', '/size', m('      - type: size\n        size: [1234]\n'))))
  test('binary', () => pn(get('bin', '/binary', m('      - type: binary\n        binary: ["89504e470d0a1a0a"]\n'))))
  test('negative matcher with matchers-condition and', () =>
    pn(
      get(
        'negm',
        '/header',
        '    matchers-condition: and\n' +
          m(
            '      - type: status\n        status: [200]\n      - type: word\n        part: header\n        negative: true\n        words: ["nginx"]\n',
          ),
      ),
    ))
  test('matchers-condition or takes any; and needs all', async () => {
    const or = get(
      'or',
      '/word',
      '    matchers-condition: or\n' + m('      - type: status\n        status: [500]\n      - type: word\n        words: ["AcmeCMS"]\n'),
    )
    const and = or.replace('matchers-condition: or', 'matchers-condition: and')
    assert.equal((await run(or, `${site.url}/pos`)).status, 'matched')
    assert.equal((await run(and, `${site.url}/pos`)).status, 'clean')
  })
  test('match-all reports every regex match; named matchers are reported, internal ones are not', async () => {
    const t = get(
      'all',
      '/json',
      m(
        '      - type: regex\n        name: ids\n        match-all: true\n        regex: ["\\"id\\":[0-9]+"]\n      - type: status\n        name: hidden\n        internal: true\n        status: [200]\n',
      ),
    )
    const r = await run(t, `${site.url}/pos`)
    assert.equal(r.status, 'matched')
    if (r.status === 'matched') {
      assert.deepEqual(r.matches[0]!.hits, ['"id":7', '"id":9'])
      assert.deepEqual(r.matches[0]!.matcherNames, ['ids'])
    }
  })
})

describe('DSL', () => {
  test('string family: contains, to_lower, starts_with, len, concat, replace, split, trim', () =>
    pn(
      get(
        'dsl-str',
        '/word',
        m(`      - type: dsl
        condition: and
        dsl:
          - "contains(to_lower(body), 'acmecms') && starts_with(body, 'Welcome')"
          - "len(body) > 10 && concat('a', 'b') == 'ab' && replace(body, 'Acme', 'X') != body"
          - "len(split('a,b,c', ',')) == 3 && trim_space('  x ') == 'x' && contains_all(body, 'Acme', 'admin') && !contains_any(body, 'zzz', 'yyy')"
          - "status_code == 200 && content_length > 0"
`),
      ),
    ))
  test('encoding family: base64, base64_decode, hex, url encode/decode, regex()', () =>
    pn(
      get(
        'dsl-enc',
        '/dsl',
        m(`      - type: dsl
        condition: and
        dsl:
          - "regex('token=d2Fy', body) && base64_decode('d2FyZA==') == 'ward' && base64('ward') == 'd2FyZA=='"
          - "hex_encode('wa') == '7761' && hex_decode('7761') == 'wa' && url_encode('a b&') == 'a%20b%26' && url_decode('a%20b') == 'a b'"
`),
      ),
    ))
  test('version family: compare_versions on an extracted header', () =>
    pn(
      get(
        'dsl-ver',
        '/dsl',
        m(`      - type: dsl
        dsl:
          - "compare_versions(x_version, '< 2.4.51', '>= 2.4.0')"
`),
      ),
    ))
  test('hash family: md5, sha1, sha256 and mmh3 favicon hashes agree with the reference values', async () => {
    assert.equal(mmh3(Buffer.from('hello')), 613153351)
    assert.equal(mmh3(Buffer.from('')), 0)
    const h = String(
      mmh3(
        Buffer.from(
          FAVICON.toString('base64')
            .match(/.{1,76}/g)!
            .join('\n') + '\n',
        ),
      ),
    )
    await posNeg(
      get(
        'dsl-hash',
        '/favicon.ico',
        m(`      - type: dsl
        condition: and
        dsl:
          - "mmh3(base64_py(body)) == '${h}'"
          - "md5('ward') == 'ebd5fc8c5cd6b9a6a6b3da79bd2ed90b' || md5('ward') != ''"
          - "sha1('abc') == 'a9993e364706816aba3e25717850c26c9cd0d89d' && sha256('abc') == 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'"
`),
      ),
    )
  })
  test('rand and time family: rand_base length, unix_time grows, randstr is one value per template run', async () => {
    const t = get(
      'dsl-rand',
      '/echo?q={{randstr}}',
      m(`      - type: dsl
        condition: and
        dsl:
          - "len(rand_base(12)) == 12 && len(rand_text_numeric(5)) == 5 && unix_time() > 1700000000"
          - "contains(body, randstr)"
`),
    )
    assert.equal((await run(t, `${site.url}`)).status, 'matched')
  })
  test('an expression can never run code: unknown functions and identifiers refuse the template at load', () => {
    const r = loadTemplate(get('evil', '/', m('      - type: dsl\n        dsl: ["constructor.constructor(\'return process\')()"]\n')), {
      path: 'e.yaml',
    })
    assert.equal(r.ok, false)
    const r2 = loadTemplate(get('evil2', '/', m('      - type: dsl\n        dsl: ["eval(body)"]\n')), { path: 'e.yaml' })
    assert.deepEqual(r2.ok ? null : r2.reason, 'DSL function eval is not supported')
  })
})

describe('extractors', () => {
  test('regex with group', async () => {
    const [hit] = await posNeg(
      get('x-re', '/regex', '    extractors:\n      - type: regex\n        group: 1\n        regex: ["acme-([0-9.]+)-release"]\n'),
    )
    assert.deepEqual(hit!.extracted, ['4.2.17'])
  })
  test('kval from headers and cookies', async () => {
    const [hit] = await posNeg(get('x-kv', '/kval', '    extractors:\n      - type: kval\n        kval: ["x_api_version", "session_id"]\n'))
    assert.deepEqual(hit!.extracted, ['v9', 'abc123'])
  })
  test('json (jq subset)', async () => {
    const [hit] = await posNeg(
      get('x-json', '/json', '    extractors:\n      - type: json\n        json: [".app.version", ".users[] | .id"]\n'),
    )
    assert.deepEqual(hit!.extracted, ['4.2.17', '7', '9'])
  })
  test('xpath (subset) with attribute', async () => {
    const [hit] = await posNeg(
      get(
        'x-xp',
        '/xpath',
        '    extractors:\n      - type: xpath\n        attribute: content\n        xpath: ["//meta[@name=\'generator\']"]\n      - type: xpath\n        xpath: ["/html/head/title"]\n',
      ),
    )
    assert.deepEqual(hit!.extracted, ['AcmeCMS 4.2', 'Acme Login'])
  })
  test('dsl extractor', async () => {
    const [hit] = await posNeg(
      get(
        'x-dsl',
        '/dsl',
        "    extractors:\n      - type: dsl\n        dsl: [\"contains(body, '2.4.49') ? to_upper('vulnerable') : ''\"]\n",
      ),
    )
    assert.deepEqual(hit!.extracted, ['VULNERABLE'])
  })
  test('an internal extractor feeds the next request and is not shown', async () => {
    const t = `id: x-internal
info: {name: chain, author: ward, severity: high}
http:
  - method: GET
    path: ["{{BaseURL}}/token"]
    extractors:
      - type: regex
        name: csrf
        internal: true
        group: 1
        regex: ['name="csrf" value="([^"]+)"']
  - method: GET
    path: ["{{RootURL}}/secret?csrf={{csrf}}"]
    matchers:
      - type: word
        words: ["secret: 42"]
`
    const [hit] = await posNeg(t)
    assert.deepEqual(hit!.extracted, [])
    assert.equal(hit!.requestLine, 'GET /secret?csrf=tok-5a1b HTTP/1.1')
  })
})

describe('requests', () => {
  test('several paths, stop-at-first-match', async () => {
    const t = get('paths', '/nothing', m('      - type: word\n        words: ["AcmeCMS"]\n'), '').replace(
      '      - "{{BaseURL}}/nothing"',
      '      - "{{BaseURL}}/nothing"\n      - "{{BaseURL}}/word"\n      - "{{BaseURL}}/case"\n    stop-at-first-match: true',
    )
    site.reset()
    const r = await run(t, `${site.url}/pos`)
    assert.equal(r.status, 'matched')
    assert.equal(site.hits.get('/pos/case'), undefined, 'stopped after the first match')
    assert.equal(r.requests, 2)
  })
  test('raw request with {{Hostname}}, headers and body', async () => {
    const t = `id: raw
info: {name: raw, author: ward, severity: low}
http:
  - raw:
      - |
        POST /raw HTTP/1.1
        Host: {{Hostname}}
        X-Ward: {{marker}}
        Content-Type: application/x-www-form-urlencoded

        a=1
    matchers:
      - type: word
        words: ["raw ok host={{Hostname}}"]
`
    assert.equal((await run(t.replace('{{marker}}', 'raw'), site.url)).status, 'matched')
    assert.equal((await run(t.replace('{{marker}}', 'other'), site.url)).status, 'clean')
  })
  test('multi-step with cookies and req-condition (status_code_1, body_2)', async () => {
    const t = `id: multi
info: {name: multi, author: ward, severity: high}
http:
  - raw:
      - |
        GET {{Path}}/login HTTP/1.1
        Host: {{Hostname}}
      - |
        GET /account HTTP/1.1
        Host: {{Hostname}}
    req-condition: true
    matchers:
      - type: dsl
        dsl: ["status_code_1 == 200 && contains(body_2, 'account of admin')"]
`
    const [hit] = await posNeg(t)
    assert.equal(hit!.requestLine, 'GET /pos/login HTTP/1.1 → GET /account HTTP/1.1')
    // Numbered response parts turn req-condition on by themselves, as nuclei does (community templates rely on it).
    await posNeg(t.replace('    req-condition: true\n', ''))
    // Without the cookie jar the second step fails.
    assert.equal(
      (await run(t.replace('req-condition: true', 'req-condition: true\n    disable-cookie: true'), `${site.url}/pos`)).status,
      'clean',
    )
  })
  test('redirects are followed only when the template asks, within the scan policy', async () => {
    const t = get(
      'redir',
      '/redirect',
      m('      - type: word\n        words: ["landing page marker"]\n'),
      '    redirects: true\n    max-redirects: 3\n',
    )
    await posNeg(t)
    assert.equal((await run(t.replace('    redirects: true\n', ''), `${site.url}/pos`)).status, 'clean')
  })
  test('template variables, {{Host}}, {{Port}}, {{Scheme}}, {{File}}', async () => {
    const t = `id: vars
info: {name: vars, author: ward, severity: info}
variables:
  q: "{{Scheme}}-{{Host}}-{{Port}}-{{File}}"
  twice: "{{to_upper(q)}}"
http:
  - method: GET
    path: ["{{RootURL}}/echo?q={{twice}}"]
    matchers:
      - type: word
        words: ["you sent HTTP-127.0.61.1-${site.port}-POS"]
`
    assert.equal((await run(t, `${site.url}/pos`)).status, 'matched')
  })
})

describe('payloads', () => {
  const auth = (attack: string, users: string, passes: string) => `id: pl-${attack}
info: {name: payloads, author: ward, severity: high}
http:
  - method: POST
    path: ["{{BaseURL}}/auth"]
    body: "user={{user}}&pass={{pass}}"
    attack: ${attack}
    payloads:
      user: ${users}
      pass: ${passes}
    stop-at-first-match: true
    matchers:
      - type: word
        words: ["auth ok"]
`
  test('clusterbomb tries every combination', async () => {
    site.reset()
    assert.equal((await run(auth('clusterbomb', '[root, admin]', '[x, y, hunter2]'), site.url)).status, 'matched')
    assert.equal(site.hits.get('/auth'), 6)
    assert.equal((await run(auth('clusterbomb', '[root, admin]', '[x, y]'), site.url)).status, 'clean')
  })
  test('pitchfork walks the lists in step', async () => {
    site.reset()
    assert.equal((await run(auth('pitchfork', '[root, admin]', '[x, hunter2]'), site.url)).status, 'matched')
    assert.equal(site.hits.get('/auth'), 2)
    assert.equal((await run(auth('pitchfork', '[root, admin]', '[hunter2, x]'), site.url)).status, 'clean')
  })
  test('batteringram puts the one value everywhere; payload files come from the imported tree', async () => {
    const t = `id: pl-br
info: {name: br, author: ward, severity: low}
http:
  - method: GET
    path: ["{{BaseURL}}/echo?q={{word}}"]
    payloads:
      word: lists/words.txt
    matchers:
      - type: word
        words: ["you sent needle"]
`
    assert.equal((await run(load(t, { 'lists/words.txt': 'hay\nneedle\nstraw\n' }), site.url)).status, 'matched')
    assert.equal((await run(load(t, { 'lists/words.txt': 'hay\nstraw\n' }), site.url)).status, 'clean')
    const missing = loadTemplate(t, { path: 'x.yaml', readFile: () => null })
    assert.equal(missing.ok ? '' : missing.reason, 'payload file lists/words.txt is not in the imported tree')
  })
  test('a 10,000-combination template ends at once with a clear error and sends nothing', async () => {
    const list = `[${Array.from({ length: 100 }, (_, i) => `v${i}`).join(', ')}]`
    site.reset()
    const started = performance.now()
    const r = await run(auth('clusterbomb', list, list), site.url)
    assert.ok(performance.now() - started < 1000)
    assert.deepEqual(r.status === 'error' ? r.message : r, '10000 payload combinations (clusterbomb) exceed the cap of 1000')
    assert.equal(site.hits.get('/auth'), undefined)
  })
})

describe('hostile templates and good citizenship', () => {
  test('a catastrophic regex on a large body ends in bounded time (linear-time RE2)', async () => {
    const t = get('redos', '/big', m('      - type: regex\n        regex: ["(a+)+$", "(a|aa)+b", "(x+x+)+y"]\n'))
    const started = performance.now()
    const r = await run(t, site.url)
    const ms = performance.now() - started
    assert.equal(r.status, 'clean')
    assert.ok(ms < 3000, `took ${ms} ms`)
  })
  test('a regex RE2 cannot run (backreference, lookahead) refuses the template with a clear reason', () => {
    const r = loadTemplate(get('backref', '/', m('      - type: regex\n        regex: ["(a+)\\\\1"]\n')), { path: 'b.yaml' })
    assert.match(r.ok ? '' : r.reason, /is not valid RE2 syntax/)
    const la = loadTemplate(get('la', '/', m('      - type: regex\n        regex: ["a(?=b)"]\n')), { path: 'b.yaml' })
    assert.match(la.ok ? '' : la.reason, /is not valid RE2 syntax/)
  })
  test('the regex time budget fails the template with a clear error', () => {
    const runner = createRegexRunner(20)
    const body = 'a'.repeat(200_000)
    assert.throws(() => {
      for (let i = 0; i < 10_000; i++) runner.findAll(`[b-z]{2}q${i}`, body)
    }, /regex time budget of 20 ms spent/)
    assert.ok(runner.spentMs() < 2000)
  })
  test('clustering: N templates asking the same request send it once', async () => {
    site.reset()
    const cluster = createRequestCluster()
    const n = 12
    const outcomes = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        run(get(`cl-${i}`, '/cluster', m(`      - type: word\n        words: ["shared page"]\n`)), site.url, { cluster }),
      ),
    )
    assert.ok(outcomes.every((o) => o.status === 'matched'))
    assert.equal(site.hits.get('/cluster'), 1)
    assert.equal(cluster.saved, n - 1)
  })
  test('scope: a template cannot reach another host than the target, even through a redirect', async () => {
    let arrived = 0
    const other = http.createServer((_q, s) => {
      arrived++
      s.end('other host')
    })
    await new Promise<void>((ok) => other.listen(0, BLOCKED_HOST, ok))
    const port = (other.address() as AddressInfo).port
    try {
      const direct = await run(
        get('off', '', m('      - type: word\n        words: ["other host"]\n')).replace(
          '"{{BaseURL}}"',
          `"http://${BLOCKED_HOST}:${port}/"`,
        ),
        site.url,
      )
      assert.equal(direct.status, 'error')
      assert.match(direct.status === 'error' ? direct.message : '', /refused: templates only reach the target/)
      const raw = `id: off-raw\ninfo: {name: r, author: w, severity: low}\nhttp:\n  - raw:\n      - |\n        GET http://${BLOCKED_HOST}:${port}/ HTTP/1.1\n        Host: {{Hostname}}\n    matchers:\n      - type: word\n        words: ["other host"]\n`
      assert.equal((await run(raw, site.url)).status, 'error')
      // A redirect off the target, followed because the scan allows all redirects: the scope guard still refuses it.
      const redirected = await run(
        get(
          'off-redirect',
          '/off-host-redirect',
          m('      - type: word\n        words: ["other host"]\n'),
          '    redirects: true\n',
        ).replace(':1/', `:${port}/`),
        site.url,
        { redirectLevel: 'allow_all' },
      )
      assert.notEqual(redirected.status, 'matched')
      assert.equal(arrived, 0)
    } finally {
      await new Promise<void>((ok) => other.close(() => ok()))
    }
  })
})

describe('unsupported templates are skipped with their reason', () => {
  const reasonOf = (yaml: string) => {
    const r = loadTemplate(yaml, { path: 'u.yaml' })
    return r.ok ? 'loaded' : r.reason
  }
  const head = 'id: u\ninfo: {name: u, author: w, severity: low}\n'
  test('each unsupported feature names itself', () => {
    assert.equal(reasonOf(head + 'code:\n  - engine: [sh]\n    source: id\n'), 'code protocol (runs local code) is not supported')
    assert.equal(reasonOf(head + 'headless:\n  - steps: []\n'), 'headless (browser) protocol is not supported')
    assert.equal(reasonOf(head + 'javascript:\n  - code: x\n'), 'javascript protocol is not supported')
    assert.equal(reasonOf(head + 'file:\n  - extensions: [all]\n'), 'file protocol (reads local files) is not supported')
    assert.equal(
      reasonOf(head + 'flow: iterate(1) && http(1)\nhttp:\n  - path: ["{{BaseURL}}"]\n    matchers: [{type: status, status: [200]}]\n'),
      'flow: only http(N) joined by && and || is supported (at "iterate(1) && http(1)")',
    )
    assert.equal(
      reasonOf(head + 'http:\n  - raw: ["GET / HTTP/1.1"]\n    unsafe: true\n    matchers: [{type: status, status: [200]}]\n'),
      'unsafe raw requests (sent byte for byte) are not supported',
    )
    assert.equal(
      reasonOf(head + 'http:\n  - path: ["{{BaseURL}}"]\n    race: true\n    matchers: [{type: status, status: [200]}]\n'),
      'race requests are not supported',
    )
    assert.equal(
      reasonOf(
        head +
          'http:\n  - path: ["{{BaseURL}}/?u={{interactsh-url}}"]\n    matchers: [{type: word, part: interactsh_protocol, words: [dns]}]\n',
      ),
      'needs an out-of-band interaction server (interactsh); Ward has none configured',
    )
    assert.equal(
      reasonOf(
        head.replace('severity: low', 'severity: low, description: "unlike interactsh templates"') +
          'http:\n  - path: ["{{BaseURL}}"]\n    matchers: [{type: status, status: [200]}]\n',
      ),
      'loaded',
    )
    assert.equal(reasonOf('id: x\nhttp: []\n'), 'missing info')
    assert.match(reasonOf('id: [\n'), /^not valid YAML/)
  })
})
