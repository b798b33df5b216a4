// oidc-provider ships no type declarations (and @types/oidc-provider lags its major version): the
// little the test provider uses, typed loosely.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string }>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      o?: Record<string, unknown>,
    ): Promise<void>
  }
}
