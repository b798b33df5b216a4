import { Type } from '@sinclair/typebox'
import { Id, Pagination } from './common.js'

export const TargetType = Type.Union([Type.Literal('hostname'), Type.Literal('ip_address'), Type.Literal('url')])

export const Target = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: TargetType,
  description: Type.String(),
  workspace_id: Type.Integer(),
})

export const TargetsQuery = Type.Object({
  workspace_id: Type.Optional(Id),
  type: Type.Optional(TargetType),
  ...Pagination,
})

export const CreateTargetBody = Type.Object({
  name: Type.String({ maxLength: 2048, description: 'hostname, IP address or http(s) URL; the type is inferred' }),
  description: Type.Optional(Type.String({ maxLength: 4096 })),
  workspace_id: Type.Optional(Id),
})
