// The signed-in user's workspaces and the active one (what the header shows and lists default to),
// with the user's role in each: pages hide the controls a role may not use (the server refuses them anyway).
import type { Db } from '../store/db.js'
import { listWorkspaces } from '../store/accounts.js'
import type { WebUser } from '../store/web-sessions.js'
import { canWrite } from '../domain/access.js'

export type Workspaces = Awaited<ReturnType<typeof workspacesOf>>

export async function workspacesOf(db: Db, u: WebUser) {
  const all = await listWorkspaces(db, u.userId)
  const active = all.find((w) => w.id === u.activeWorkspaceId) ?? all[0]
  return {
    all,
    active,
    activeName: active?.name ?? '',
    /** Whether the user may change what is in this workspace (the active one when no id is given). */
    writes: (workspaceId = active?.id) => canWrite(all.find((w) => w.id === workspaceId)?.role),
  }
}
