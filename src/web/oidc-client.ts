// The OpenID Connect relying party, on openid-client (certified): discovery at start, the authorization
// code flow with PKCE, state and nonce, and every check of the provider's answer and ID token (issuer,
// audience, signature, expiry, nonce) done by the library. Loaded only when single sign-on is set up.
import { ConfigError } from '../config/config.js'
import type { OidcSettings } from '../config/oidc.js'
import type { Claims } from '../domain/sso-claims.js'

/** What the browser keeps (in a cookie) between leaving for the provider and coming back. */
export interface PendingSignIn {
  state: string
  nonce: string
  verifier: string
}

export interface OidcClient {
  /** The provider's authorization URL for a new sign-in, and what to keep until the answer. */
  begin(): Promise<{ url: string; pending: PendingSignIn }>
  /** The verified answer: the provider account and its claims (ID token, and userinfo for what it lacks). */
  finish(query: string, pending: PendingSignIn): Promise<{ issuer: string; subject: string; claims: Claims }>
}

/** Seconds a request to the provider may take (discovery, token, userinfo, keys). */
const TIMEOUT_S = 10

/** Discovers the provider; a provider that does not answer, or cannot do what Ward needs, stops start-up. */
export async function discoverOidc(s: OidcSettings): Promise<OidcClient> {
  const client = await import('openid-client')
  const where = `${s.issuer.href.replace(/\/$/, '')}/.well-known/openid-configuration`
  let config: Awaited<ReturnType<typeof client.discovery>>
  try {
    config = await client.discovery(s.issuer, s.clientId, undefined, undefined, {
      timeout: TIMEOUT_S,
      // Plain http is accepted by the configuration for a provider on loopback only.
      ...(s.issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
    })
  } catch (e) {
    const err = e as Error & { cause?: Error }
    throw new ConfigError(
      `WARD_OIDC_ISSUER: discovery at ${where} failed: ${err.message}${err.cause?.message ? ` (${err.cause.message})` : ''}`,
    )
  }
  const meta = config.serverMetadata()
  const problem = !meta.authorization_endpoint
    ? 'it names no authorization_endpoint'
    : !meta.token_endpoint
      ? 'it names no token_endpoint'
      : meta.response_types_supported && !meta.response_types_supported.includes('code')
        ? 'it does not offer the authorization code flow (response type "code")'
        : meta.code_challenge_methods_supported && !meta.code_challenge_methods_supported.includes('S256')
          ? 'it does not offer PKCE with S256'
          : null
  if (problem) throw new ConfigError(`WARD_OIDC_ISSUER: the provider at ${where} cannot be used: ${problem}`)
  // client_secret_basic is every provider's default (RFC 6749); client_secret_post where only it is offered.
  const methods = meta.token_endpoint_auth_methods_supported
  const auth =
    methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
      ? client.ClientSecretPost(s.clientSecret)
      : client.ClientSecretBasic(s.clientSecret)
  config = new client.Configuration(meta, s.clientId, s.clientSecret, auth)
  config.timeout = TIMEOUT_S
  if (s.issuer.protocol === 'http:') client.allowInsecureRequests(config)
  return relyingParty(client, config, s)
}

function relyingParty(client: typeof import('openid-client'), config: import('openid-client').Configuration, s: OidcSettings): OidcClient {
  return {
    async begin() {
      const pending = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() }
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: s.callbackUrl,
        scope: s.scopes,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      })
      return { url: url.href, pending }
    },
    async finish(query, pending) {
      const tokens = await client.authorizationCodeGrant(config, new URL(`${s.callbackUrl}${query}`), {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      })
      const idClaims = tokens.claims()!
      let claims: Claims = { ...idClaims }
      // Many providers put only `sub` in the ID token of the code flow: the rest comes from userinfo.
      const lacks = !(s.groupsClaim.split('.')[0]! in idClaims) || !(s.nameClaim in idClaims)
      if (lacks && config.serverMetadata().userinfo_endpoint) {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
        claims = { ...info, ...idClaims }
      }
      return { issuer: idClaims.iss, subject: idClaims.sub, claims }
    },
  }
}
