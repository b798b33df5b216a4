// The request model of the API fuzz test (test/api/fuzz.test.ts): operations read from the served
// OpenAPI document, fast-check arbitraries for hostile requests, and the defects a request carries
// (what makes it one the API must refuse). Everything here is pure data: resolving an id to a real
// row, sending and checking happen in the test file.
import fc from 'fast-check'

export const MAX_ID = 2147483647

// ---------------------------------------------------------------- operations from the OpenAPI document

export interface Param {
  name: string
  in: 'path' | 'query'
  schema: any
}
export interface Op {
  method: string
  /** `/api/v2/scans/{id}` */
  path: string
  params: Param[]
  body: { schema: any; types: string[] } | null
}

export function opsFrom(doc: any): Op[] {
  const ops: Op[] = []
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .filter((p: any) => p.in === 'path' || p.in === 'query')
        .map((p: any) => ({ name: p.name, in: p.in, schema: p.schema ?? {} }))
      const content = op.requestBody?.content ?? null
      const types = content ? Object.keys(content) : []
      const schema = content ? ((content['application/json'] ?? Object.values<any>(content)[0])?.schema ?? {}) : null
      ops.push({ method: method.toUpperCase(), path, params, body: schema ? { schema, types } : null })
    }
  }
  return ops
}

/** The table a path parameter, a query filter or a body member names, by the API's naming conventions. */
export function poolOf(name: string, path?: string): string {
  if (path) {
    // `/scans/{id}/...`: the segment before the parameter names the collection.
    const segs = path.split('/')
    const i = segs.indexOf(`{${name}}`)
    if (i > 0) return segs[i - 1]!
  }
  const base = name.replace(/_(id|uuid)$/, '')
  const alias: Record<string, string> = {
    against: 'scans',
    task: 'scans',
    scan: 'scans',
    target: 'targets',
    workspace: 'workspaces',
    finding: 'findings',
    resource: 'findings',
    tool: 'tools',
    vpn_profile: 'vpn_profiles',
  }
  return alias[base] ?? 'none'
}

/** A numeric id by its name (`id`, `target_id`), unless its schema says it is free text (`vuln_id`). */
export const isIdName = (name: string, schema?: any) =>
  (name === 'id' || name.endsWith('_id') || name === 'against') &&
  (schema?.type !== 'string' || /\\d|\[\d-\d\]/.test(schema?.pattern ?? ''))
export const isUuidName = (name: string, schema: any) => schema?.format === 'uuid' || name === 'uuid' || name.endsWith('_uuid')

// ---------------------------------------------------------------- ids and their spellings

/** Whose id: the caller's own existing row, the other tenant's, or numbers that name nothing. */
export type Who = 'self' | 'other' | 'missing' | 'zero' | 'max' | 'over' | 'huge'
export const SPELLINGS = [
  'canonical',
  'plus',
  'minus',
  'hex',
  'exp',
  'lead0',
  'dot0',
  'frac',
  'space',
  'trail-space',
  'nul',
  'tab',
  'fullwidth',
  'arabic',
  'alpha',
  'neg-zero',
  'long',
  'raw-unicode',
  'raw-nul',
  'sql',
  'slash',
  'null-word',
  'enc-plus',
] as const
export type Spelling = (typeof SPELLINGS)[number]
export interface IdSpec {
  who: Who
  pick: number
  spelling: Spelling
}

/** A value as decoded by the server (`text`) and how it goes on the wire (`raw`: unencoded bytes). */
export interface Spelled {
  text: string
  wire: string
}

const enc = (s: string) => encodeURIComponent(s)
const mapDigits = (s: string, zero: number) => s.replace(/\d/g, (d) => String.fromCharCode(zero + Number(d)))
/** Bytes of a UTF-8 string as a latin1 string, for writing them unencoded into a request line. */
export const rawBytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1')

export function spell(n: string, s: Spelling): Spelled {
  const t = (text: string): Spelled => ({ text, wire: enc(text) })
  switch (s) {
    case 'canonical':
      return t(n)
    case 'plus':
      return { text: `+${n}`, wire: `+${n}` }
    case 'enc-plus':
      return { text: `+${n}`, wire: `%2B${n}` }
    case 'minus':
      return t(`-${n}`)
    case 'hex':
      return t(`0x${/^\d+$/.test(n) ? BigInt(n).toString(16) : n}`)
    case 'exp':
      return t(`${n}e0`)
    case 'lead0':
      return t(`0${n}`)
    case 'dot0':
      return t(`${n}.0`)
    case 'frac':
      return t(`${n}.5`)
    case 'space':
      return t(` ${n}`)
    case 'trail-space':
      return t(`${n} `)
    case 'nul':
      return t(`${n}\u0000`)
    case 'tab':
      return t(`${n}\t`)
    case 'fullwidth':
      return t(mapDigits(n, 0xff10))
    case 'arabic':
      return t(mapDigits(n, 0x0660))
    case 'alpha':
      return t(`${n}abc`)
    case 'neg-zero':
      return t('-0')
    case 'long':
      return t(`${n}${'0'.repeat(300)}`)
    case 'raw-unicode':
      return { text: `ü${n}`, wire: rawBytes(`ü${n}`) }
    case 'raw-nul':
      return { text: `${n}\u0000`, wire: `${n}\u0000` }
    case 'sql':
      return t(`${n} OR 1=1`)
    case 'slash':
      return t(`${n}/..`)
    case 'null-word':
      return t('null')
  }
}

/** An id spelled canonically and within 1..MAX_ID (0 is well formed too: it names nothing). */
export const wellFormedId = (id: IdSpec) => id.spelling === 'canonical' && id.who !== 'over' && id.who !== 'huge'

export const idArb = (o: { canonicalWeight?: number } = {}): fc.Arbitrary<IdSpec> =>
  fc.record({
    who: fc.oneof(
      { weight: 10, arbitrary: fc.constant<Who>('self') },
      { weight: 3, arbitrary: fc.constant<Who>('other') },
      { weight: 2, arbitrary: fc.constantFrom<Who>('missing', 'zero', 'max', 'over', 'huge') },
    ),
    pick: fc.nat(50),
    spelling: fc.oneof(
      { weight: o.canonicalWeight ?? 4, arbitrary: fc.constant<Spelling>('canonical') },
      { weight: 4, arbitrary: fc.constantFrom<Spelling>(...SPELLINGS) },
    ),
  })

// ---------------------------------------------------------------- scalar values and their verdicts

export interface Scalar {
  /** Resolved later when an id. */
  id?: IdSpec
  text?: string
  /** Send `text` unencoded. */
  raw?: boolean
}

const HOSTILE_TEXT = [
  '',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '+1',
  '01',
  ' 1',
  '1 ',
  'ü',
  '١',
  '１',
  '\u0000',
  'a\u0000b',
  'true',
  'false',
  'null',
  '[]',
  '{}',
  "' OR 1=1 --",
  '"',
  '<script>',
  '../../etc/passwd',
  '9'.repeat(30),
  '-9'.repeat(12),
  'NaN',
  'Infinity',
  '💥',
  '\u202e',
]
const RAW_HOSTILE = ['%', '%zz', '%ED%A0%80', '%C0%AF', '%FF']

export function enumOf(schema: any): string[] | null {
  if (Array.isArray(schema?.enum)) return schema.enum.map(String)
  if (Array.isArray(schema?.anyOf) && schema.anyOf.every((a: any) => Array.isArray(a.enum) || a.const !== undefined))
    return schema.anyOf.flatMap((a: any) => (a.enum ?? [a.const]).map(String))
  return null
}

const INT_RE = /^(0|-?[1-9]\d*)$/

/** Whether a decoded query or form value is well formed for its parameter: true, false, or null (no opinion). */
export function wellFormedText(name: string, schema: any, text: string): boolean | null {
  const en = enumOf(schema)
  if (en) return en.includes(text)
  const type = schema?.type
  if (type === 'integer' || type === 'number' || isIdName(name, schema)) {
    if (isIdName(name, schema)) {
      if (text === '0') return null
      return /^[1-9]\d*$/.test(text) && Number(text) <= MAX_ID
    }
    if (!INT_RE.test(text)) return false
    const v = Number(text)
    if (schema.minimum !== undefined && v < schema.minimum) return false
    if (schema.maximum !== undefined && v > schema.maximum) return false
    return true
  }
  if (type === 'boolean') return text === 'true' || text === 'false' ? true : text === '1' || text === '0' ? null : false
  if (type === 'string') {
    if (schema.maxLength !== undefined && [...text].length > schema.maxLength) return false
    if (schema.minLength !== undefined && [...text].length < schema.minLength) return false
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(text)) return false
    if (schema.format === 'uuid') return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text) ? null : false
    return null
  }
  return null
}

/** A valid text for a scalar schema (not ids). */
function validText(name: string, schema: any): fc.Arbitrary<string> {
  const en = enumOf(schema)
  if (en) return fc.constantFrom(...en)
  if (schema?.type === 'integer' || schema?.type === 'number') {
    const min = Math.max(schema.minimum ?? -5, -1000000)
    const max = Math.min(schema.maximum ?? min + 1000, min + 1000000)
    return fc.oneof(fc.constantFrom(String(min), String(max)), fc.integer({ min, max }).map(String))
  }
  if (schema?.type === 'boolean') return fc.constantFrom('true', 'false')
  if (/time/.test(name))
    return fc.constantFrom('2026-11-21T10:15:00Z', '2020-01-01', '2999-12-31T23:59:59Z', 'yesterday', '2026-13-45T99:00:00Z')
  return fc.string({ maxLength: Math.min(schema?.maxLength ?? 20, 20) })
}

export function scalarArb(p: { name: string; schema: any }): fc.Arbitrary<Scalar> {
  const hostile = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_TEXT).map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_HOSTILE).map((text) => ({ text, raw: true })) },
    { weight: 1, arbitrary: fc.constantFrom(300, 5000, 20000).map((n) => ({ text: 'x'.repeat(n) })) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((text) => ({ text })) },
  )
  if (isIdName(p.name, p.schema) || isUuidName(p.name, p.schema))
    return fc.oneof({ weight: 3, arbitrary: idArb().map((id) => ({ id })) }, { weight: 1, arbitrary: hostile })
  return fc.oneof({ weight: 4, arbitrary: validText(p.name, p.schema).map((text) => ({ text })) }, { weight: 2, arbitrary: hostile })
}

// ---------------------------------------------------------------- query strings

export type QForm = 'plain' | 'repeat' | 'bracket' | 'bracket-key' | 'bracket-index' | 'no-eq' | 'encoded-brackets'
export interface QItem {
  name: string
  v: Scalar
  form: QForm
  /** The second value of a repeated parameter. */
  v2?: Scalar
}

export function queryArb(op: Op): fc.Arbitrary<QItem[]> {
  const qs = op.params.filter((p) => p.in === 'query')
  const unknown = fc.record({
    name: fc.constantFrom('zz_unknown', 'filter', 'limit ', 'LIMIT', 'a'.repeat(300), '__proto__', 'constructor'),
    v: fc.constant<Scalar>({ text: '1' }),
    form: fc.constantFrom<QForm>('plain', 'bracket', 'repeat'),
  })
  const item = qs.length
    ? fc.oneof(
        {
          weight: 8,
          arbitrary: fc.constantFrom(...qs).chain((p) =>
            fc.record({
              name: fc.constant(p.name),
              v: scalarArb(p),
              form: fc.oneof(
                { weight: 8, arbitrary: fc.constant<QForm>('plain') },
                {
                  weight: 3,
                  arbitrary: fc.constantFrom<QForm>('repeat', 'bracket', 'bracket-key', 'bracket-index', 'no-eq', 'encoded-brackets'),
                },
              ),
              v2: scalarArb(p),
            }),
          ),
        },
        { weight: 1, arbitrary: unknown },
      )
    : unknown
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<QItem[]>([]) },
    { weight: 2, arbitrary: fc.array<QItem>(item, { minLength: 1, maxLength: 3 }) },
  )
}

// ---------------------------------------------------------------- bodies

/** A member standing for an id resolved at send time; `json` bodies give canonical ids as numbers. */
export interface IdRef {
  $fuzzId: IdSpec
  pool: string
}
export const isIdRef = (v: unknown): v is IdRef => !!v && typeof v === 'object' && '$fuzzId' in (v as object)

export type BodySpec =
  | { t: 'none' }
  | { t: 'json'; ct: string; value: unknown; defect: string | null }
  | { t: 'text'; ct: string | null; text: string; defect: string | null; label: string }
  | { t: 'form'; ct: string; fields: Array<[string, unknown]>; defect: string | null }
  | { t: 'huge'; ct: string; mb: number }

const TOOL_PARAMS = [
  {},
  { steps: 1, step_ms: 1 },
  { steps: -1 },
  { ports: '1-100' },
  { ports: '0-70000' },
  { scan_type: 'deep' },
  { scan_type: 'bogus' },
  { bogus: 1 },
  { wordlist: 'x'.repeat(3000) },
  null,
]
const NAMES = [
  'fuzz.example',
  'www.fuzz.example',
  '127.0.0.1',
  '::1',
  'https://fuzz.example/a?b=c',
  'localhost',
  'bad name',
  '',
  ' ',
  'a'.repeat(300) + '.example',
  'ü.example',
  'x\u0000.example',
  '::1%lo',
  'fe80::1%25eth0',
  'http://[fe80::1%25lo]/',
]

/** Valid values (by the schema) for a body member; ids are IdRefs of the caller's own rows. */
export function valueArb(name: string, schema: any, depth = 0): fc.Arbitrary<unknown> {
  const base = ((): fc.Arbitrary<unknown> => {
    const en = enumOf(schema)
    if (en) return fc.constantFrom(...en)
    if (isUuidName(name, schema) || isIdName(name, schema) || name === 'tool_id')
      return idArb({ canonicalWeight: 12 }).map((id) => ({ $fuzzId: id, pool: poolOf(name) }) satisfies IdRef)
    switch (schema?.type) {
      case 'integer':
      case 'number': {
        const min = Math.max(schema.minimum ?? -1000, -1000000)
        const max = Math.min(schema.maximum ?? min + 100000, min + 1000000)
        return fc.integer({ min, max })
      }
      case 'boolean':
        return fc.boolean()
      case 'string': {
        if (schema.minLength && schema.maxLength !== undefined && schema.minLength > schema.maxLength) return fc.constant('')
        const s = fc.string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 30, 30)),
        })
        if (/name/.test(name))
          return fc.oneof(
            fc.constantFrom(...NAMES).map((n) => n.slice(0, schema.maxLength ?? 9999)),
            s,
          )
        if (/url/.test(name))
          return fc.constantFrom('http://127.0.0.1:9/cb', 'https://127.0.0.1:9/x', 'ftp://127.0.0.1/', 'http://u:p@127.0.0.1/', 'not a url')
        if (name === 'host') return fc.constantFrom('127.0.0.1', 'localhost', 'proxy.example')
        return s
      }
      case 'array':
        return depth > 3 ? fc.constant([]) : fc.array(valueArb(name, schema.items ?? {}, depth + 1), { maxLength: 3 })
      case 'object': {
        const props = Object.entries<any>(schema.properties ?? {})
        if (!props.length && schema.additionalProperties !== false)
          return name === 'tool_params'
            ? fc.constantFrom(...TOOL_PARAMS)
            : fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 3 })
        if (depth > 3) return fc.constant({})
        const req = new Set<string>(schema.required ?? [])
        const rec: Record<string, fc.Arbitrary<unknown>> = {}
        for (const [k, s] of props) rec[k] = valueArb(k, s, depth + 1)
        return fc.record(rec, { requiredKeys: props.map(([k]) => k).filter((k) => req.has(k)) })
      }
      default:
        return fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null))
    }
  })()
  return schema?.nullable ? fc.oneof({ weight: 5, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) }) : base
}

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}
function allowedTypes(schema: any): Set<string> | null {
  const s = new Set<string>()
  const add = (x: any) => {
    if (enumOf(x)) s.add('string')
    else if (x?.type === 'number') s.add('number').add('integer')
    else if (x?.type) s.add(x.type)
    else return false
    if (x?.nullable) s.add('null')
    return true
  }
  if (!add(schema)) {
    if (!Array.isArray(schema?.anyOf) || !schema.anyOf.every(add)) return null
  }
  return s
}

const WRONG = [1.5, -1, 0, 'x', '', true, null, [], {}, [1, 2], 'ü\u0000', 1e308, 2 ** 53 + 2, '1']

/** Nested arrays `depth` deep: JSON text built by hand (a recursive value would be slow to print). */
export const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

/** A JSON object text with a `__proto__` member (JSON.stringify cannot write one). */
export const protoJson = (value: Record<string, unknown>) =>
  `{"__proto__":{"polluted":"yes"}${Object.keys(value).length ? ',' + JSON.stringify(value).slice(1) : '}'}`

export function bodyArb(op: Op): fc.Arbitrary<BodySpec> {
  if (!op.body) {
    // Routes without a body: what field clients send anyway. Never an error.
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant<BodySpec>({ t: 'none' }) },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom('application/json', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8')
          .map((ct): BodySpec => ({ t: 'text', ct, text: '', defect: null, label: 'empty body' })),
      },
      { weight: 1, arbitrary: fc.constant<BodySpec>({ t: 'json', ct: 'application/json', value: {}, defect: null }) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('{"name":', 'x=1', '\u0000')
          .map((text): BodySpec => ({ t: 'text', ct: 'application/json', text, defect: null, label: 'junk on a bodiless route' })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x')
          .map((ct): BodySpec => ({ t: 'text', ct, text: 'hello', defect: null, label: 'odd content type on a bodiless route' })),
      },
    )
  }
  const schema = op.body.schema
  const props = Object.entries<any>(schema.properties ?? {})
  const required: string[] = schema.required ?? []
  const valid = valueArb('body', schema) as fc.Arbitrary<Record<string, unknown>>
  const ct = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json;charset=UTF-8') },
  )
  const json = (value: unknown, defect: string | null) => ct.map((c): BodySpec => ({ t: 'json', ct: c, value, defect }))
  const arbs: Array<{ weight: number; arbitrary: fc.Arbitrary<BodySpec> }> = [{ weight: 24, arbitrary: valid.chain((v) => json(v, null)) }]
  if (props.length) {
    // A member of a type the schema does not allow.
    arbs.push({
      weight: 4,
      arbitrary: fc.tuple(valid, fc.constantFrom(...props), fc.constantFrom(...WRONG)).chain(([v, [k, s], bad]) => {
        const allowed = allowedTypes(s)
        const wrong = allowed && !allowed.has(jsonTypeOf(bad))
        return json({ ...v, [k]: bad }, wrong ? `body member "${k}" has the wrong type` : null)
      }),
    })
    // Out of range / too long / not in the enum / not a uuid.
    arbs.push({
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...props)).chain(([v, [k, s]]) => {
        const en = enumOf(s)
        let bad: unknown
        if (en) bad = 'not-' + en[0]
        else if (s.format === 'uuid') bad = 'not-a-uuid'
        else if (s.type === 'integer' && s.maximum !== undefined) bad = s.maximum + 1
        else if (s.type === 'integer' && s.minimum !== undefined) bad = s.minimum - 1
        else if (s.type === 'string' && s.maxLength !== undefined) bad = 'x'.repeat(s.maxLength + 1)
        else if (s.type === 'string' && s.minLength) bad = ''
        else return json(v, null)
        return json({ ...v, [k]: bad }, `body member "${k}" is out of its range`)
      }),
    })
    // Deep nesting where the schema has no object of free form.
    arbs.push({
      weight: 1,
      arbitrary: fc.tuple(valid, fc.constantFrom(...props), fc.constantFrom(20, 500, 5000)).map(([v, [k, s], d]): BodySpec => {
        const free = s.type === 'object' && s.additionalProperties !== false && !Object.keys(s.properties ?? {}).length
        const text = JSON.stringify({ ...v, [k]: null }).replace(`"${k}":null`, `"${k}":${deepJson(d)}`)
        return {
          t: 'text',
          ct: 'application/json',
          text,
          defect: free ? null : `body member "${k}" is nested ${d} deep`,
          label: `"${k}" nested ${d} deep`,
        }
      }),
    })
  }
  if (required.length)
    arbs.push({
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...required)).chain(([v, k]) => {
        const { [k]: _, ...rest } = v
        return json(rest, `required body member "${k}" is missing`)
      }),
    })
  arbs.push(
    // Members the schema does not name.
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom('zz_unknown', 'id', 'user_id', 'constructor', 'isAdmin')).chain(([v, k]) =>
        // Ward drops members its schemas do not name (ajv removeAdditional): no opinion on the status.
        json({ ...v, [k]: k === 'constructor' ? { prototype: { polluted: 'yes' } } : 1 }, null),
      ),
    },
    {
      weight: 1,
      arbitrary: valid.map(
        (v): BodySpec => ({ t: 'text', ct: 'application/json', text: protoJson(v), defect: null, label: '__proto__ member' }),
      ),
    },
    { weight: 2, arbitrary: fc.constantFrom<unknown>([], null, 1, 'x', true, [{}]).chain((v) => json(v, 'the body is not an object')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(deepJson(10000), `{"a":${deepJson(10000)}}`).map(
        (text): BodySpec => ({
          t: 'text',
          ct: 'application/json',
          text,
          defect: text.startsWith('[') ? 'the body is not an object' : null,
          label: 'nested 10000 deep',
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('{"name":', '{', "{'a':1}", 'NaN', '\u0000', '{}x', '{"a":1,}', '\ufeff{"a":', '[1,]', 'nul')
        .map(
          (text): BodySpec => ({ t: 'text', ct: 'application/json', text, defect: 'the body is not valid JSON', label: 'invalid JSON' }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constant<BodySpec>({
        t: 'text',
        ct: 'application/json',
        text: '',
        defect: required.length ? 'the body is empty but has required members' : null,
        label: 'empty body',
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom(
            'text/plain',
            'application/xml',
            'multipart/form-data; boundary=x',
            'application/octet-stream',
            'image/png',
            'text/html',
          ),
        )
        .map(
          ([v, c]): BodySpec => ({
            t: 'text',
            ct: c,
            text: JSON.stringify(v),
            defect: `content type ${c}`,
            label: 'JSON under a foreign content type',
          }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom<string | null>(null, '', 'application/', ';;;', 'application/json, text/plain', 'APPLICATION/JSON'))
        .map(([v, c]): BodySpec => ({ t: 'text', ct: c, text: JSON.stringify(v), defect: null, label: 'odd content type' })),
    },
    { weight: 1, arbitrary: fc.constant<BodySpec>({ t: 'huge', ct: 'application/json', mb: 10 }) },
  )
  if (op.body.types.includes('application/x-www-form-urlencoded'))
    arbs.push({
      weight: 4,
      arbitrary: fc
        .tuple(
          valid,
          fc.array(
            fc.tuple(
              fc.constantFrom(...props.map(([k]) => k), 'zz_unknown'),
              fc.oneof(
                idArb().map((id): IdRef => ({ $fuzzId: id, pool: 'targets' })),
                fc.constantFrom('1', '', '+1', '01', 'x'),
              ),
            ),
            { maxLength: 2 },
          ),
        )
        .map(
          ([v, extra]): BodySpec => ({
            t: 'form',
            ct: 'application/x-www-form-urlencoded',
            fields: [...Object.entries(v).filter(([, x]) => x === null || typeof x !== 'object' || isIdRef(x)), ...extra],
            defect: null,
          }),
        ),
    })
  return fc.oneof(...arbs)
}

// ---------------------------------------------------------------- whole requests

export type AuthSpec = 'A' | 'B' | 'none' | 'wrong-key' | 'revoked' | 'basic' | 'empty-bearer' | 'two-tokens' | 'long-key' | 'raw-unicode'
export type RouteMut = 'as-is' | 'trailing-slash' | 'double-slash' | 'extra-segment' | 'wrong-method' | 'unknown-prefix'
export interface Case {
  op: number
  auth: AuthSpec
  route: RouteMut
  path: Record<string, Scalar>
  query: QItem[]
  body: BodySpec
  accept: string | null
}

export function caseArb(ops: Op[]): fc.Arbitrary<Case> {
  return fc.oneof(
    ...ops.map((op, i) => {
      const path: Record<string, fc.Arbitrary<Scalar>> = {}
      for (const p of op.params.filter((x) => x.in === 'path'))
        path[p.name] =
          isIdName(p.name, p.schema) || isUuidName(p.name, p.schema)
            ? fc.oneof(
                { weight: 6, arbitrary: idArb().map((id): Scalar => ({ id })) },
                { weight: 1, arbitrary: scalarArb({ name: 'x', schema: { type: 'string' } }) },
              )
            : scalarArb(p)
      return fc.record({
        op: fc.constant(i),
        auth: fc.oneof(
          { weight: 14, arbitrary: fc.constant<AuthSpec>('A') },
          { weight: 3, arbitrary: fc.constant<AuthSpec>('B') },
          {
            weight: 3,
            arbitrary: fc.constantFrom<AuthSpec>(
              'none',
              'wrong-key',
              'revoked',
              'basic',
              'empty-bearer',
              'two-tokens',
              'long-key',
              'raw-unicode',
            ),
          },
        ),
        route: fc.oneof(
          { weight: 20, arbitrary: fc.constant<RouteMut>('as-is') },
          {
            weight: 3,
            arbitrary: fc.constantFrom<RouteMut>('trailing-slash', 'double-slash', 'extra-segment', 'wrong-method', 'unknown-prefix'),
          },
        ),
        path: fc.record(path),
        query: queryArb(op),
        body: bodyArb(op),
        accept: fc.oneof(
          { weight: 12, arbitrary: fc.constant(null) },
          {
            weight: 3,
            arbitrary: fc.constantFrom(
              'application/json',
              '*/*',
              'application/pdf',
              'text/html',
              'application/xml',
              'application/json;q=0',
              ';;;',
              'image/*',
              'application/pdf, application/json;q=0.1',
              'x'.repeat(4000),
            ),
          },
        ),
      })
    }),
  )
}
