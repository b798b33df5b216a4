// The page template escapes every interpolation unless it is Ward's own markup, and the new-scan
// form is generated from (and read back by) each tool's tool_params schema.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { html, raw, qs } from '../../src/web/html.js'
import { paramsFields, paramsFromForm, type JsonSchema } from '../../src/web/params-form.js'
import { createToolCatalogue } from '../../src/tools/registry.js'
import { resolveToolParams } from '../../src/toolkit/params.js'

test('html`` escapes text, attributes and arrays; only html`` fragments and raw() pass through', () => {
  const hostile = `<script>alert("x")</script>' onerror='1' \``
  const out = html`<p title="${hostile}">${hostile}</p>${[hostile, html`<b>${hostile}</b>`]}${null}${undefined}${false}${0}`.value
  assert.ok(!out.includes('<script>'))
  assert.equal((out.match(/<b>/g) ?? []).length, 1)
  assert.ok(out.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onerror=&#39;1&#39; &#96;'))
  assert.ok(out.endsWith('0'))
  assert.equal(html`${raw('<i>ok</i>')}`.value, '<i>ok</i>')
  assert.equal(qs({ a: 1, b: '', c: undefined, d: 'x y&z' }), '?a=1&d=x+y%26z')
})

test('every tool gets form fields from its schema, and the fields come back as valid tool_params', () => {
  const tools = createToolCatalogue({ diagnostic: true })
  for (const t of tools.all()) {
    const schema = JSON.parse(JSON.stringify(t.params)) as JsonSchema
    const fields = paramsFields(t.id, schema).value
    for (const name of Object.keys(schema.properties ?? {}))
      assert.ok(fields.includes(`name="p.${t.id}.${name}`), `tool ${t.id}: field ${name}`)
    // The form as shown (defaults filled in) is accepted as it is.
    const form: Record<string, string | string[]> = {}
    for (const m of fields.matchAll(/<(input|select|textarea)[^>]*name="([^"]+)"[^>]*>/g)) {
      const tag = m[0]
      const name = m[2]!
      const value = /type="checkbox"/.test(tag)
        ? / checked/.test(tag)
          ? 'true'
          : undefined
        : m[1] === 'select'
          ? /<option value="([^"]*)" selected/.exec(fields.slice(m.index!))?.[1]
          : m[1] === 'textarea'
            ? /<textarea[^>]*>([^<]*)</.exec(fields.slice(m.index!))?.[1]
            : /value="([^"]*)"/.exec(tag)?.[1]
      if (value === undefined) continue
      form[name] = form[name] === undefined ? value : [form[name] as string, value].flat()
    }
    const params = paramsFromForm(t.id, schema, form)
    const r = resolveToolParams(t.params, params, t.validateParams)
    assert.ok(r.ok, `tool ${t.id}: ${JSON.stringify(params)} → ${!r.ok && r.message}`)
  }
})

test('form values are typed by the schema: numbers, unticked boxes, lists, nested objects; a bad value stays text for validation to name', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      n: { type: 'integer' },
      on: { type: 'boolean' },
      words: { anyOf: [{ const: 'small' }, { type: 'array', items: { type: 'string' } }] },
      codes: { type: 'array', items: { type: 'integer' } },
      checks: { type: 'object', properties: { tls: { type: 'boolean' } } },
      empty: { type: 'string' },
    },
  }
  const p = paramsFromForm(7, schema, {
    'p.7.n': '12',
    'p.7.on': 'false',
    'p.7.words': 'a\nb, c',
    'p.7.codes': '200,301',
    'p.7.checks.tls': ['false', 'true'],
    'p.7.empty': '',
    'p.8.n': '1',
    'p.7.__proto__': 'x',
  })
  assert.deepEqual(p, { n: 12, on: false, words: ['a', 'b', 'c'], codes: [200, 301], checks: { tls: true } })
  assert.deepEqual(paramsFromForm(7, schema, { 'p.7.n': 'twelve', 'p.7.words': 'small' }), { n: 'twelve', words: 'small' })
})

test('a list of objects (the Password Auditor credentials) is a JSON field and comes back as the list', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      credentials: { type: 'array', items: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } } } },
    },
  }
  assert.match(paramsFields(400, schema).value, /<textarea id="p-400-credentials" name="p.400.credentials"[^>]*autocomplete="off"/)
  assert.deepEqual(paramsFromForm(400, schema, { 'p.400.credentials': '[{"username":"ops","password":"pw"}]' }), {
    credentials: [{ username: 'ops', password: 'pw' }],
  })
})

test("authentication is a choice of kind with that kind's fields (no raw JSON), credentials as password fields", () => {
  const schema = JSON.parse(JSON.stringify(createToolCatalogue({ diagnostic: false }).get(90)!.params)) as JsonSchema
  const fields = paramsFields(90, schema).value
  assert.match(
    fields,
    /<select id="p-90-authentication-type" name="p.90.authentication.type"><option value="">none<\/option><option value="form">form<\/option><option value="basic">basic/,
  )
  assert.match(fields, /<div data-show-if="p-90-authentication-type=basic" hidden>/)
  assert.match(
    fields,
    /<input type="password" id="p-90-authentication-password-basic" name="p.90.authentication.password" autocomplete="new-password"/,
  )
  assert.doesNotMatch(fields, /textarea id="p-90-authentication"/)
  // Each help line once: the list rule is said above the parameters, not under every list.
  assert.doesNotMatch(fields, /one item per line/)
  assert.deepEqual(
    paramsFromForm(90, schema, {
      'p.90.authentication.type': 'basic',
      'p.90.authentication.username': 'ops',
      'p.90.authentication.password': 'pw',
    }),
    { authentication: { type: 'basic', username: 'ops', password: 'pw' } },
  )
  assert.deepEqual(
    paramsFromForm(90, schema, { 'p.90.authentication.type': '', 'p.90.authentication.username': 'ops' }),
    {},
    'no kind chosen: no authentication',
  )
})
