// The DSL helper functions community templates call (nuclei's dsl package), written here over
// node:crypto and Buffer. Each takes evaluated arguments; a wrong argument count is a DslError.
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto'
import { gunzipSync, gzipSync, inflateRawSync, deflateRawSync } from 'node:zlib'
import { DslError, type EvalEnv, type Value } from './dsl-parse.js'
import { compareVersions } from '../versions/version.js'
import { murmur3 } from '../hash/mmh3.js'

export const toStr = (v: Value): string => (v === null ? '' : Array.isArray(v) ? v.map(toStr).join(' ') : String(v))

type Fn = (args: Value[], env: EvalEnv) => Value

const arity = (name: string, args: Value[], min: number, max = min) => {
  if (args.length < min || args.length > max)
    throw new DslError(`${name} takes ${min === max ? min : `${min} to ${max === Infinity ? 'any' : max}`} arguments, got ${args.length}`)
}
const s1 =
  (name: string, f: (s: string) => Value): Fn =>
  (a) => (arity(name, a, 1), f(toStr(a[0]!)))
const hash = (alg: string) => s1(alg, (s) => createHash(alg).update(Buffer.from(s, 'latin1')).digest('hex'))
const int = (v: Value | undefined, d: number) => (v === undefined ? d : Number(v))

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
export const randFrom = (chars: string, n: number) =>
  Array.from({ length: Math.max(0, Math.min(n, 4096)) }, () => chars[randomInt(chars.length)]).join('')

/** rand_text_*(length, [bad chars]): `length` characters of `chars` less the bad ones. */
const randText =
  (name: string, chars: string): Fn =>
  (a) => (arity(name, a, 1, 2), randFrom([...chars].filter((c) => !toStr(a[1] ?? '').includes(c)).join(''), int(a[0], 8)))

/** MurmurHash3 x86 32-bit, seed 0, as a signed integer (favicon hashes: mmh3(base64_py(body))). */
export const mmh3 = (data: Buffer): number => murmur3(data)

const trimSet = (s: string, cut: string, left: boolean, right: boolean) => {
  let a = 0
  let b = s.length
  while (left && a < b && cut.includes(s[a]!)) a++
  while (right && b > a && cut.includes(s[b - 1]!)) b--
  return s.slice(a, b)
}

/** Version constraints as templates write them: '< 2.4.50', '>=1.0, <2.0', '= 1.2'. */
function satisfies(version: string, constraint: string): boolean {
  return constraint.split(',').every((c) => {
    const m = /^\s*(<=|>=|!=|==|=|<|>|~>?|\^)?\s*v?(\S+)\s*$/.exec(c)
    if (!m) throw new DslError(`bad version constraint ${JSON.stringify(c)}`)
    const r = compareVersions(version.replace(/^v/i, ''), m[2]!)
    switch (m[1]) {
      case '<':
        return r < 0
      case '<=':
        return r <= 0
      case '>':
        return r > 0
      case '>=':
        return r >= 0
      case '!=':
        return r !== 0
      default:
        return r === 0
    }
  })
}

export const DSL_FUNCTIONS: Record<string, Fn> = {
  len: (a) => (arity('len', a, 1), Array.isArray(a[0]) ? a[0].length : toStr(a[0]!).length),
  to_lower: s1('to_lower', (s) => s.toLowerCase()),
  to_upper: s1('to_upper', (s) => s.toUpperCase()),
  trim: (a) => (arity('trim', a, 1, 2), a.length === 2 ? trimSet(toStr(a[0]!), toStr(a[1]!), true, true) : toStr(a[0]!).trim()),
  trim_left: (a) => (arity('trim_left', a, 2), trimSet(toStr(a[0]!), toStr(a[1]!), true, false)),
  trim_right: (a) => (arity('trim_right', a, 2), trimSet(toStr(a[0]!), toStr(a[1]!), false, true)),
  trim_space: s1('trim_space', (s) => s.trim()),
  trim_prefix: (a) => (
    arity('trim_prefix', a, 2), toStr(a[0]!).startsWith(toStr(a[1]!)) ? toStr(a[0]!).slice(toStr(a[1]!).length) : toStr(a[0]!)
  ),
  trim_suffix: (a) => (
    arity('trim_suffix', a, 2),
    toStr(a[0]!).endsWith(toStr(a[1]!)) && toStr(a[1]!) ? toStr(a[0]!).slice(0, -toStr(a[1]!).length) : toStr(a[0]!)
  ),
  reverse: s1('reverse', (s) => [...s].reverse().join('')),
  repeat: (a) => (arity('repeat', a, 2), toStr(a[0]!).repeat(Math.max(0, Math.min(Number(a[1]), 10_000)))),
  replace: (a) => (arity('replace', a, 3), toStr(a[0]!).split(toStr(a[1]!)).join(toStr(a[2]!))),
  replace_regex: (a, env) => (arity('replace_regex', a, 3), env.regex.replaceAll(toStr(a[1]!), toStr(a[0]!), toStr(a[2]!))),
  contains: (a) => (arity('contains', a, 2), toStr(a[0]!).includes(toStr(a[1]!))),
  contains_all: (a) => (arity('contains_all', a, 2, Infinity), a.slice(1).every((x) => toStr(a[0]!).includes(toStr(x)))),
  contains_any: (a) => (arity('contains_any', a, 2, Infinity), a.slice(1).some((x) => toStr(a[0]!).includes(toStr(x)))),
  starts_with: (a) => (arity('starts_with', a, 2, Infinity), a.slice(1).some((x) => toStr(a[0]!).startsWith(toStr(x)))),
  ends_with: (a) => (arity('ends_with', a, 2, Infinity), a.slice(1).some((x) => toStr(a[0]!).endsWith(toStr(x)))),
  line_starts_with: (a) => (
    arity('line_starts_with', a, 2, Infinity),
    toStr(a[0]!)
      .split('\n')
      .some((l) => a.slice(1).some((x) => l.startsWith(toStr(x))))
  ),
  line_ends_with: (a) => (
    arity('line_ends_with', a, 2, Infinity),
    toStr(a[0]!)
      .split('\n')
      .some((l) => a.slice(1).some((x) => l.replace(/\r$/, '').endsWith(toStr(x))))
  ),
  regex: (a, env) => (arity('regex', a, 2), env.regex.test(toStr(a[0]!), toStr(a[1]!))),
  regex_all: (a, env) => (arity('regex_all', a, 2, Infinity), a.slice(1).every((x) => env.regex.test(toStr(a[0]!), toStr(x)))),
  regex_any: (a, env) => (arity('regex_any', a, 2, Infinity), a.slice(1).some((x) => env.regex.test(toStr(a[0]!), toStr(x)))),
  equals_any: (a) => (arity('equals_any', a, 2, Infinity), a.slice(1).some((x) => toStr(x) === toStr(a[0]!))),
  concat: (a) => a.map(toStr).join(''),
  join: (a) => {
    arity('join', a, 2, Infinity)
    const items = a.length === 2 && Array.isArray(a[1]) ? a[1] : a.slice(1)
    return items.map(toStr).join(toStr(a[0]!))
  },
  split: (a) => (
    arity('split', a, 2, 3), toStr(a[0]!).split(toStr(a[1]!), a[2] === undefined || Number(a[2]) < 0 ? undefined : Number(a[2]))
  ),
  substr: (a) => (arity('substr', a, 2, 3), toStr(a[0]!).slice(Number(a[1]), a[2] === undefined ? undefined : Number(a[2]))),
  index: (a) => (arity('index', a, 2), Array.isArray(a[0]) ? (a[0][Number(a[1])] ?? null) : (toStr(a[0]!)[Number(a[1])] ?? '')),
  base64: s1('base64', (s) => Buffer.from(s, 'latin1').toString('base64')),
  base64_py: s1(
    'base64_py',
    (s) =>
      (
        Buffer.from(s, 'latin1')
          .toString('base64')
          .match(/.{1,76}/g) ?? []
      ).join('\n') + '\n',
  ),
  base64_decode: s1('base64_decode', (s) => Buffer.from(s, 'base64').toString('latin1')),
  url_encode: s1('url_encode', (s) => encodeURIComponent(s)),
  url_decode: s1('url_decode', (s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '))
    } catch {
      throw new DslError('url_decode: malformed input')
    }
  }),
  hex_encode: s1('hex_encode', (s) => Buffer.from(s, 'latin1').toString('hex')),
  hex_decode: s1('hex_decode', (s) => Buffer.from(s, 'hex').toString('latin1')),
  html_escape: s1('html_escape', (s) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
  ),
  html_unescape: s1('html_unescape', (s) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#34;|&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  ),
  gzip: s1('gzip', (s) => gzipSync(Buffer.from(s, 'latin1')).toString('latin1')),
  gzip_decode: s1('gzip_decode', (s) => gunzipSync(Buffer.from(s, 'latin1'), { maxOutputLength: 4 << 20 }).toString('latin1')),
  zlib: s1('zlib', (s) => deflateRawSync(Buffer.from(s, 'latin1')).toString('latin1')),
  zlib_decode: s1('zlib_decode', (s) => inflateRawSync(Buffer.from(s, 'latin1'), { maxOutputLength: 4 << 20 }).toString('latin1')),
  md5: hash('md5'),
  sha1: hash('sha1'),
  sha256: hash('sha256'),
  sha512: hash('sha512'),
  hmac: (a) => (arity('hmac', a, 3), createHmac(toStr(a[0]!), toStr(a[2]!)).update(toStr(a[1]!)).digest('hex')),
  mmh3: s1('mmh3', (s) => String(mmh3(Buffer.from(s, 'latin1')))),
  rand_char: (a) => (arity('rand_char', a, 0, 1), randFrom(a[0] ? toStr(a[0]) : ALNUM, 1)),
  rand_base: (a) => (arity('rand_base', a, 1, 2), randFrom(a[1] ? toStr(a[1]) : ALNUM, int(a[0], 8))),
  rand_text_alpha: randText('rand_text_alpha', ALNUM.slice(0, 52)),
  rand_text_alphanumeric: randText('rand_text_alphanumeric', ALNUM),
  rand_text_numeric: randText('rand_text_numeric', '0123456789'),
  rand_int: (a) => (arity('rand_int', a, 0, 2), randomInt(int(a[0], 0), Math.max(int(a[0], 0) + 1, int(a[1], 2 ** 31 - 1)))),
  rand_ip: () => `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
  unix_time: (a) => (arity('unix_time', a, 0, 1), Math.floor(Date.now() / 1000) + int(a[0], 0)),
  date_time: (a) => (arity('date_time', a, 1, 2), formatDate(toStr(a[0]!), a[1] == null ? new Date() : new Date(int(a[1], 0) * 1000))),
  to_number: (a) => (arity('to_number', a, 1), Number(toStr(a[0]!))),
  to_string: (a) => (arity('to_string', a, 1), toStr(a[0]!)),
  dec_to_hex: (a) => (arity('dec_to_hex', a, 1), Number(a[0]).toString(16)),
  hex_to_dec: (a) => (arity('hex_to_dec', a, 1), parseInt(toStr(a[0]!).replace(/^0x/i, ''), 16)),
  compare_versions: (a) => (arity('compare_versions', a, 2, Infinity), a.slice(1).every((c) => satisfies(toStr(a[0]!), toStr(c)))),
  random_bytes: (a) => randomBytes(Math.min(int(a[0], 8), 4096)).toString('latin1'),
}

// Older or shorter spellings the community templates still use.
for (const [alias, name] of [
  ['tolower', 'to_lower'],
  ['toupper', 'to_upper'],
  ['randbase', 'rand_base'],
  ['trimprefix', 'trim_prefix'],
  ['trimsuffix', 'trim_suffix'],
] as const)
  DSL_FUNCTIONS[alias] = DSL_FUNCTIONS[name]!

/** date_time's layouts (UTC): nuclei's %Y-%M-%D %H:%m:%s, or Go's reference date 2006-01-02 15:04:05. */
function formatDate(layout: string, d: Date): string {
  const p2 = (n: number) => String(n).padStart(2, '0')
  const parts: Record<string, string> = {
    Y: String(d.getUTCFullYear()),
    M: p2(d.getUTCMonth() + 1),
    D: p2(d.getUTCDate()),
    H: p2(d.getUTCHours()),
    m: p2(d.getUTCMinutes()),
    s: p2(d.getUTCSeconds()),
  }
  if (layout.includes('%')) return layout.replace(/%([YMDHms])/g, (_, k: string) => parts[k]!)
  const go: Record<string, string> = { '2006': parts.Y!, '01': parts.M!, '02': parts.D!, '15': parts.H!, '04': parts.m!, '05': parts.s! }
  return layout.replace(/2006|01|02|15|04|05/g, (k) => go[k]!)
}
