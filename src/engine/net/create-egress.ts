// Builds the egress for a scan from its VPN profile's connection settings (null → direct), guarded
// by the scopes when given (the engine always gives them; tests of the transports alone may not).
import { createDirectEgress } from './direct.js'
import type { Egress } from '../../toolkit/egress.js'
import { createHttpConnectEgress } from './http-connect.js'
import { createSocks5Egress, type ProxyScopes } from './socks5.js'
import type { EgressProfile } from '../../toolkit/egress-profile.js'

export type { EgressProfile }

export function createEgress(profile: EgressProfile | null, scopes?: ProxyScopes): Egress {
  if (profile === null) return createDirectEgress(scopes?.target)
  switch (profile.type) {
    case 'socks5':
      return createSocks5Egress(
        { host: profile.host, port: profile.port, username: profile.username ?? undefined, password: profile.password ?? undefined },
        scopes,
      )
    case 'http_connect':
      return createHttpConnectEgress({ url: profile.url, ca: profile.ca ?? undefined }, scopes)
    default:
      throw new Error(`unknown VPN profile type ${JSON.stringify((profile as { type: unknown }).type)}`)
  }
}
