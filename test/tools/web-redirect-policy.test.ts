// One redirect policy for every web tool: the same table of (redirect_level, from, to) decides
// whether the Website Scanner and the URL Fuzzer follow a target's redirect. What a tool does with a
// refused redirect is its own (the website scanner scans the original URL, the fuzzer refuses to
// guess a base); whether it is refused is not. A fake egress answers: no traffic leaves the test.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Egress, HttpResponse } from '../../src/toolkit/egress.js'
import type { RedirectLevel } from '../../src/toolkit/tool.js'
import { RedirectRefusedError } from '../../src/toolkit/errors.js'
import { redirectAllowed } from '../../src/tools/lib/http/redirect-policy.js'
import { resolveStartUrl } from '../../src/tools/lib/http/start-url.js'
import { resolveBase } from '../../src/tools/url-fuzzer/probes/base-url.js'

const TABLE: { level: RedirectLevel; from: string; to: string; follow: boolean }[] = [
  { level: 'same_host', from: 'http://www.example.com/', to: 'https://www.example.com/', follow: true },
  { level: 'same_host', from: 'http://www.example.com/', to: 'https://www.example.com:8443/', follow: true },
  { level: 'same_host', from: 'http://www.example.com/', to: 'http://shop.example.com/', follow: false },
  { level: 'same_domain', from: 'http://a.example.com/', to: 'http://b.example.com/', follow: true },
  { level: 'same_domain', from: 'http://www.example.com/', to: 'http://example.com/', follow: true },
  { level: 'same_domain', from: 'http://example.com/', to: 'http://www.example.com/', follow: true },
  { level: 'same_domain', from: 'http://www.example.com/', to: 'http://a.b.example.com/', follow: true },
  { level: 'same_domain', from: 'http://www.example.com/', to: 'http://example.org/', follow: false },
  { level: 'same_domain', from: 'http://www.example.com/', to: 'http://evilexample.com/', follow: false },
  { level: 'same_domain', from: 'http://www.example.co.uk/', to: 'http://pay.example.co.uk/', follow: true },
  { level: 'same_domain', from: 'http://www.example.co.uk/', to: 'http://other.co.uk/', follow: false },
  { level: 'same_domain', from: 'http://127.0.2.1/', to: 'https://127.0.2.1/', follow: true },
  { level: 'same_domain', from: 'http://127.0.2.1/', to: 'http://127.0.2.2/', follow: false },
  { level: 'allow_all', from: 'http://www.example.com/', to: 'http://example.org/', follow: true },
]

/** `from` answers 302 to `to`; every other URL answers 200. */
function redirectingEgress(from: string, to: string): Egress {
  const response = (url: string, status: number, headers: Record<string, string>): HttpResponse => ({
    url,
    status,
    headers,
    setCookies: [],
    body: Buffer.from('<html>ok</html>'),
    truncated: false,
    elapsedMs: 1,
    text: () => '<html>ok</html>',
  })
  return {
    kind: 'direct',
    carriesUdp: false,
    async http(url: string) {
      return url === from ? response(url, 302, { location: to }) : response(url, 200, { 'content-type': 'text/html' })
    },
  } as unknown as Egress
}

for (const row of TABLE) {
  const name = `${row.level}: ${row.from} -> ${row.to} is ${row.follow ? 'followed' : 'refused'}`

  test(`policy ${name}`, () => {
    assert.equal(redirectAllowed(row.level, new URL(row.from), new URL(row.to)), row.follow)
  })

  test(`website scanner ${name}`, async () => {
    const r = await resolveStartUrl({
      net: redirectingEgress(row.from, row.to),
      target: { name: row.from, type: 'url' },
      redirectLevel: row.level,
      scanOriginalUrl: false,
      signal: new AbortController().signal,
      log: () => {},
    })
    assert.equal(r.url, row.follow ? row.to : row.from)
  })

  test(`URL fuzzer ${name}`, async () => {
    const run = resolveBase(
      redirectingEgress(row.from, row.to),
      { id: 1, name: row.from, type: 'url' },
      { redirectLevel: row.level, scanOriginalUrl: false },
      new AbortController().signal,
    )
    if (row.follow) assert.equal((await run).base.href, row.to)
    else await assert.rejects(run, RedirectRefusedError)
  })
}
