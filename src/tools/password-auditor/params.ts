// tool_params of the Password Auditor. Passwords given here are SecretParam members: stored sealed,
// never echoed (toolkit/params.ts).
import { Type, type Static } from '@sinclair/typebox'
import { SecretParam } from '../../toolkit/params.js'
import { PORT_SPEC_PATTERN } from '../../toolkit/ports.js'

/** The kinds of login the Password Auditor knows. */
export const SERVICE_KINDS = ['ftp', 'ssh', 'telnet', 'mysql', 'postgresql', 'redis', 'mongodb', 'smtp', 'http'] as const
export type ServiceKind = (typeof SERVICE_KINDS)[number]

/** Default ports of the services the auditor logs in to (plus the usual alternate web ports). */
export const DEFAULT_AUDIT_PORTS = '21,22,23,25,80,443,465,587,2525,3000,3306,5432,6379,8000,8080,8081,8443,8888,9090,27017'

export const passwordAuditorParams = Type.Object(
  {
    ports: Type.String({
      default: DEFAULT_AUDIT_PORTS,
      pattern: PORT_SPEC_PATTERN,
      description:
        'TCP ports to look for login services on, as for tool 70 ("top100", "top1000", "all" or a list such ' +
        'as "22,80,8000-8100"). Default: the default ports of the services audited.',
    }),
    services: Type.Array(Type.Union(SERVICE_KINDS.map((k) => Type.Literal(k))), {
      default: [...SERVICE_KINDS],
      uniqueItems: true,
      description: 'Which kinds of login to try (default: all).',
    }),
    usernames: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      default: [],
      maxItems: 100,
      description: 'User names to try with every password (the shipped lists and the passwords below).',
    }),
    passwords: Type.Array(SecretParam({ maxLength: 200 }), {
      default: [],
      maxItems: 200,
      description: 'Passwords to try with every user name (stored sealed).',
    }),
    credentials: Type.Array(
      Type.Object(
        { username: Type.String({ maxLength: 200 }), password: SecretParam({ maxLength: 200 }) },
        { additionalProperties: false },
      ),
      {
        default: [],
        maxItems: 200,
        description: 'User name and password pairs to try first (passwords stored sealed).',
      },
    ),
    default_lists: Type.Boolean({ default: true, description: 'Try the shipped default credentials of each product and protocol.' }),
    max_attempts: Type.Integer({
      default: 4,
      minimum: 1,
      maximum: 100,
      description: 'Most passwords tried per account (user name) on one service: kept below common lockout thresholds (5).',
    }),
    max_attempts_per_service: Type.Integer({ default: 40, minimum: 1, maximum: 2000, description: 'Most login attempts on one service.' }),
    delay_ms: Type.Integer({
      default: 250,
      minimum: 0,
      maximum: 60000,
      description: 'Pause between two attempts on one service (milliseconds).',
    }),
  },
  { additionalProperties: false },
)

export type PasswordAuditorParams = Static<typeof passwordAuditorParams>
