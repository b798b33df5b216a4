// tool_params.authentication of the web tools (website scanner 170, URL fuzzer 90): how to log in.
// Every credential is a SecretParam: stored sealed, never echoed (toolkit/params.ts).
import { Type, type Static } from '@sinclair/typebox'
import { SecretParam } from '../../../../toolkit/params.js'

// The schema pieces the kinds repeat.
const httpUrl = (description: string) => Type.String({ pattern: '^https?://', maxLength: 2000, description })
const marker = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 500, description }))
const fieldName = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }))

/** Members every kind shares: how to tell that the session is valid. */
const check = {
  check_url: Type.Optional(
    httpUrl('A page that only answers as expected when logged in (default: the scanned URL, or the page the login lands on)'),
  ),
  success_marker: marker('Text (or /regex/flags) present when logged in'),
  failure_marker: marker('Text (or /regex/flags) present when the login failed or the session ended'),
}

const formLogin = Type.Object(
  {
    type: Type.Literal('form'),
    login_url: httpUrl('The page with the login form (its hidden fields, e.g. a CSRF token, are sent back)'),
    username_field: fieldName("Name of the user-name field (default 'username')"),
    password_field: fieldName("Name of the password field (default 'password')"),
    username: Type.String({ maxLength: 500 }),
    password: SecretParam({ maxLength: 500 }),
    extra_fields: Type.Optional(
      Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 2000 }), { description: 'More form fields to send' }),
    ),
    ...check,
  },
  { additionalProperties: false },
)
const httpAuth = (kind: 'basic' | 'digest') =>
  Type.Object(
    { type: Type.Literal(kind), username: Type.String({ maxLength: 500 }), password: SecretParam({ maxLength: 500 }), ...check },
    { additionalProperties: false },
  )
const cookieAuth = Type.Object(
  {
    type: Type.Literal('cookie'),
    cookie: SecretParam({ minLength: 1, maxLength: 8000, description: 'A Cookie header value: name=value; name2=value2' }),
    ...check,
  },
  { additionalProperties: false },
)
const headerAuth = Type.Object(
  {
    type: Type.Literal('headers'),
    headers: Type.Array(
      Type.Object(
        { name: Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 200 }), value: SecretParam({ maxLength: 8000 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20, description: 'Headers sent with every request, e.g. Authorization: Bearer …' },
    ),
    ...check,
  },
  { additionalProperties: false },
)

export const authenticationParam = Type.Optional(
  Type.Union([formLogin, httpAuth('basic'), httpAuth('digest'), cookieAuth, headerAuth], {
    description:
      'Log in before scanning: form login, HTTP Basic or Digest, a cookie, or extra headers. Credentials are stored encrypted and never shown.',
  }),
)
export type Authentication =
  | Static<typeof formLogin>
  | Static<ReturnType<typeof httpAuth>>
  | Static<typeof cookieAuth>
  | Static<typeof headerAuth>
export type FormLogin = Static<typeof formLogin>
