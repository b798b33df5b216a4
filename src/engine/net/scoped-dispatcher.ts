// An undici dispatcher for Ward's own outgoing requests (report callbacks) whose every connection
// passes the scope guard: the host is resolved and checked once and the socket connects to the
// checked address. HTTPS certificates ARE verified (unlike a scan's). Redirects are not followed.
import tls from 'node:tls'
import { Agent, type buildConnector, type Dispatcher } from 'undici'
import { parseAddress, type Scope } from '../../toolkit/scope.js'
import { connectDirect } from './direct.js'
import { HTTP_TIMEOUT_MS } from '../../toolkit/timeouts.js'

export function createScopedDispatcher(scope: Scope, timeoutMs = HTTP_TIMEOUT_MS): Dispatcher {
  return new Agent({
    connect: (opts: buildConnector.Options, cb: buildConnector.Callback) => {
      const host: string = opts.hostname
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80)
      connectDirect({ host, port, timeoutMs }, scope).then(
        (socket) => {
          if (opts.protocol !== 'https:') return cb(null, socket)
          const t = tls.connect({
            socket,
            servername: opts.servername || (parseAddress(host) ? undefined : host),
            ALPNProtocols: ['http/1.1'],
          })
          const onError = (e: Error) => {
            socket.destroy()
            cb(e, null)
          }
          t.once('error', onError)
          t.once('secureConnect', () => {
            t.removeListener('error', onError)
            cb(null, t)
          })
        },
        (e: Error) => cb(e, null),
      )
    },
  })
}
