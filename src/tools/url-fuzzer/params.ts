// tool_params of the URL Fuzzer: defaults and limits live in the schema (validated before a scan is queued).
import { authenticationParam } from '../lib/http/auth/params.js'
import { Type, type Static } from '@sinclair/typebox'

export const MAX_WORDS = 100_000
export const MAX_WORD_LENGTH = 256

/** Statuses that count as "found" unless tool_params.status_codes says otherwise (404 is the absence). */
export const DEFAULT_STATUS_CODES = [200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 301, 302, 307, 308, 401, 403, 405]

/** Methods that do not change state on a sane server; PUT/DELETE/PATCH over a wordlist could. */
const Method = Type.Union([Type.Literal('GET'), Type.Literal('HEAD'), Type.Literal('POST'), Type.Literal('OPTIONS')])

// Words: printable, no whitespace, no '?' or '#' (they would leave the path), bounded length.
const Word = Type.String({ minLength: 1, maxLength: MAX_WORD_LENGTH, pattern: '^[^\\s?#\\x00-\\x1f\\x7f]+$' })

export const urlFuzzerParams = Type.Object(
  {
    wordlist: Type.Union([Type.Literal('small'), Type.Literal('medium'), Type.Array(Word, { minItems: 1, maxItems: MAX_WORDS })], {
      default: 'small',
      description: "'small' (~500 words), 'medium' (~5000 words) or an array of words (paths relative to the base URL)",
    }),
    extensions: Type.Array(Type.String({ minLength: 1, maxLength: 32, pattern: '^[^\\s/?#\\x00-\\x1f\\x7f]+$' }), {
      default: [],
      maxItems: 50,
      uniqueItems: true,
      description: "Also try every word with each suffix ('.php', '.bak', '~'); a suffix starting with a letter or digit gets a '.'",
    }),
    methods: Type.Array(Method, { default: ['GET'], minItems: 1, maxItems: 4, uniqueItems: true }),
    status_codes: Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), {
      default: DEFAULT_STATUS_CODES,
      minItems: 1,
      maxItems: 500,
      uniqueItems: true,
      description: 'Statuses that count as found',
    }),
    concurrency: Type.Integer({ default: 20, minimum: 1, maximum: 200, description: 'Requests in flight at most' }),
    follow_redirects: Type.Boolean({
      default: false,
      description: 'Follow redirects on the same host (at most 5) and judge the final answer',
    }),
    rate_limit: Type.Integer({ default: 200, minimum: 1, maximum: 100_000, description: 'Requests per second per host at most' }),
    authentication: authenticationParam,
  },
  { additionalProperties: false, default: {} },
)

export type UrlFuzzerParams = Static<typeof urlFuzzerParams>
