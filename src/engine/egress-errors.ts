/** The scan's egress (its VPN profile / proxy) cannot be used → the scan ends `VPN connection error`. */
export class EgressUnavailableError extends Error {
  override name = 'EgressUnavailableError'
}
