// The signed-in user's workspaces and the active one (what the header shows and lists default to).
import type { Db } from '../store/db.js'
import { listWorkspaces } from '../store/accounts.js'
import type { WebUser } from '../store/web-sessions.js'

export async function workspacesOf(db: Db, u: WebUser) {
  const all = await listWorkspaces(db, u.userId)
  const active = all.find((w) => w.id === u.activeWorkspaceId) ?? all[0]
  return { all, active, activeName: active?.name ?? '' }
}
