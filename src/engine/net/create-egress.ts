// Builds the egress for a scan from its VPN profile's connection settings (null → direct).
import { createDirectEgress } from './direct.js'
import type { Egress } from '../../toolkit/egress.js'
import { createHttpConnectEgress } from './http-connect.js'
import { createSocks5Egress } from './socks5.js'
import type { EgressProfile } from '../../toolkit/egress-profile.js'

export type { EgressProfile }

export function createEgress(profile: EgressProfile | null): Egress {
  if (profile === null) return createDirectEgress()
  switch (profile.type) {
    case 'socks5':
      return createSocks5Egress({ host: profile.host, port: profile.port, username: profile.username ?? undefined, password: profile.password ?? undefined })
    case 'http_connect':
      return createHttpConnectEgress({ url: profile.url, ca: profile.ca ?? undefined })
    default:
      throw new Error(`unknown VPN profile type ${JSON.stringify((profile as { type: unknown }).type)}`)
  }
}
