// Workspace members and roles: the bodies and answers of /workspaces/{id}/members.
import { Type } from '@sinclair/typebox'
import { PathId } from './common.js'

export const Role = Type.Union([Type.Literal('owner'), Type.Literal('member'), Type.Literal('viewer')], {
  description:
    'owner: everything, including members; member: targets, scans, schedules, triage, VPN profiles, reports; viewer: reads and downloads only',
})

export const Member = Type.Object({
  user_id: Type.Integer(),
  user_name: Type.String(),
  role: Role,
  added_at: Type.String({ description: 'ISO 8601 UTC' }),
})

export const MemberParams = Type.Object({ id: PathId, user_id: PathId })
export const AddMemberBody = Type.Object(
  { user_name: Type.String({ minLength: 1, maxLength: 200 }), role: Role },
  { additionalProperties: false },
)
export const ChangeMemberBody = Type.Object({ role: Role }, { additionalProperties: false })
