// A real OpenID Connect provider on loopback (the `oidc-provider` package, certified), for the single
// sign-on tests: one confidential client, PKCE required, accounts whose groups a test sets, and its
// own minimal sign-in page (the package's development pages load web fonts from the internet).
// Also a "foreign issuer" front: a discovery document naming another issuer while pointing at this
// provider's endpoints, so that what comes back names an issuer Ward was not configured with.
import http from 'node:http'
import type net from 'node:net'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import Provider from 'oidc-provider'

export const CLIENT_ID = 'ward-test'
export const CLIENT_SECRET = 'ward-test-secret-0123456789'

export interface Account {
  preferred_username: string
  groups: string[]
}

export interface TestProvider {
  issuer: string
  /** Login → claims; a test changes groups between sign-ins. */
  accounts: Map<string, Account>
  close(): Promise<void>
}

const listen = (server: http.Server, host: string, port = 0) =>
  new Promise<number>((resolve) => server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port)))

const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/** What loadExistingGrant uses of oidc-provider's request context. */
interface GrantContext {
  oidc: {
    provider: { Grant: new (o: { clientId: string; accountId: string }) => { addOIDCScope(s: string): void; save(): Promise<string> } }
    client?: { clientId: string }
    session?: { accountId: string }
  }
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The provider on `host` (a free port), with Ward's callback URLs as the client's redirect URIs. */
export async function startOidcProvider(host: string, redirectUris: string[]): Promise<TestProvider> {
  const accounts = new Map<string, Account>()
  const server = http.createServer()
  const port = await listen(server, host)
  const issuer = `http://${host}:${port}`
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' } as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], profile: ['preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'groups'],
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const a = accounts.get(id)
      return a ? { accountId: id, claims: async () => ({ sub: id, ...a }) } : undefined
    },
    // Consent is implied for the test client: every scope asked for is granted.
    async loadExistingGrant(ctx: GrantContext) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId })
      grant.addOIDCScope('openid profile groups')
      await grant.save()
      return grant
    },
  })
  const callback = provider.callback()
  server.on('request', async (req, res) => {
    const m = /^\/interaction\/([\w-]+)(\/abort)?$/.exec(req.url ?? '')
    if (!m) return callback(req, res)
    try {
      if (m[2]) return await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled' })
      if (req.method === 'POST') {
        let body = ''
        for await (const c of req) body += c
        const login = new URLSearchParams(body).get('login') ?? ''
        if (!accounts.has(login)) return loginPage(res, m[1]!, 'Unknown user')
        return await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false })
      }
      await provider.interactionDetails(req, res)
      return loginPage(res, m[1]!)
    } catch (e) {
      res.writeHead(400).end(String(e))
    }
  })
  return { issuer, accounts, close: () => close(server) }
}

function loginPage(res: http.ServerResponse, uid: string, error?: string) {
  res.writeHead(error ? 401 : 200, { 'content-type': 'text/html; charset=utf-8' })
  res.end(`<!doctype html><title>Test identity provider</title><h1>Test identity provider</h1>${error ? `<p id="error">${esc(error)}</p>` : ''}
<form method="post" action="/interaction/${uid}"><label>Login <input id="login" name="login"></label>
<input type="password" id="password" name="password"><button type="submit" id="idp-submit">Sign in</button></form>
<p><a id="idp-cancel" href="/interaction/${uid}/abort">Cancel</a></p>`)
}

/** A discovery document at `host` for an issuer of its own, whose endpoints are the provider's. */
export async function startForeignIssuer(host: string, provider: TestProvider): Promise<{ issuer: string; close(): Promise<void> }> {
  const meta = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
  const server = http.createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...meta, issuer }))
  })
  const issuer = `http://${host}:${await listen(server, host)}`
  return { issuer, close: () => close(server) }
}

/** An http server answering every request with `status` and `body` (a provider that is not one). */
export async function startNotAProvider(host: string, status: number, body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body))
  const url = `http://${host}:${await listen(server, host)}`
  return { url, close: () => close(server) }
}

/** A free port on `host` (for a Ward whose public URL must be known before it listens). */
export async function freePort(host: string): Promise<number> {
  const server = http.createServer()
  const port = await listen(server, host)
  await close(server)
  return port
}
