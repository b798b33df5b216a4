// VPN profiles. Secrets are write-only: `password` (and the credentials of an http_connect url)
// go in, `has_password` comes out.
import { Type } from '@sinclair/typebox'
import { Data, Nullable, PathId } from './common.js'

export const VpnProfileType = Type.Union([Type.Literal('socks5'), Type.Literal('http_connect')])
const Uuid = Type.String({ format: 'uuid' })

export const VpnProfile = Type.Object({
  uuid: Uuid,
  name: Type.String(),
  type: VpnProfileType,
  host: Type.String({ description: 'proxy host' }),
  port: Type.Integer(),
  url: Nullable(Type.String({ description: 'http_connect: the proxy URL without credentials' })),
  username: Nullable(Type.String()),
  has_password: Type.Boolean(),
  workspace_ids: Type.Array(Type.Integer(), { description: 'workspaces whose default profile this is' }),
  created_at: Type.String(),
})

export const CreateVpnProfileBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: VpnProfileType,
    host: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'socks5: proxy host name or IP address' })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'socks5: proxy port' })),
    username: Type.Optional(Type.String({ maxLength: 255, description: 'socks5: optional username' })),
    password: Type.Optional(Type.String({ maxLength: 255, description: 'socks5: optional password (write-only)' })),
    url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'http_connect: http://[user:pass@]host:port (credentials write-only)' }),
    ),
  },
  { additionalProperties: false },
)

export const VpnProfileCreated = Data(Type.Object({ created_id: Uuid }))
export const UuidParams = Type.Object({ uuid: Uuid })
export const WorkspaceIdParams = Type.Object({ id: PathId })
export const SetWorkspaceVpnProfileBody = Type.Object({ vpn_profile_uuid: Nullable(Uuid) }, { additionalProperties: false })
