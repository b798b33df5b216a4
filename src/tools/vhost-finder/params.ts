// tool_params of Find Virtual Hosts: defaults and limits live in the schema (validated before a scan is queued).
import { Type, type Static } from '@sinclair/typebox'

export const MAX_EXTRA_WORDS = 10_000

// A DNS label or a dotted name: letters, digits, '-', '_' and '.', no leading dot.
const Name = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$',
  description: 'a prefix (dev) or a whole name (dev.example.com)',
})

export const vhostFinderParams = Type.Object(
  {
    wordlist: Type.Array(Name, {
      default: [],
      maxItems: MAX_EXTRA_WORDS,
      uniqueItems: true,
      description:
        'Words to try besides the shipped prefixes: a word without a dot is put before each base domain, a dotted name is tried as it is',
    }),
    domains: Type.Array(Name, {
      default: [],
      maxItems: 20,
      uniqueItems: true,
      description: "Base domains for the prefixes besides those of the target, its certificate and its reverse DNS ('example.com')",
    }),
    ports: Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), {
      default: [80, 443],
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
      description: 'Ports to try when the target is a hostname or an address (a URL target gives its own); HTTPS or HTTP is found per port',
    }),
    known_names: Type.Boolean({
      default: true,
      description: 'Also try the names Ward knows in this workspace (targets and Subdomain Finder results)',
    }),
    concurrency: Type.Integer({ default: 10, minimum: 1, maximum: 100, description: 'Requests in flight at most' }),
    rate_limit: Type.Integer({ default: 50, minimum: 1, maximum: 10_000, description: 'Requests per second to the target at most' }),
  },
  { additionalProperties: false, default: {} },
)

export type VhostFinderParams = Static<typeof vhostFinderParams>
