// On an empty database: a first user, workspace and API key (WARD_INITIAL_API_KEY or a new one).
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import { countUsers, createUser } from '../store/accounts.js'
import { isUniqueViolation } from '../domain/targets.js'
import { createPasswordLink, firstUserWhenNoneCanSignIn } from '../store/web-sessions.js'

/** While no user can sign in to the web interface yet: a one-time set-password link for the first user. */
export async function firstPasswordLink(db: Db): Promise<{ name: string; token: string } | null> {
  const first = await firstUserWhenNoneCanSignIn(db)
  if (!first) return null
  return { name: first.name, token: await createPasswordLink(db, first.id, 24 * 3600000) }
}

export async function ensureFirstUser(db: Db, cfg: Config): Promise<{ apiKey: string; generated: boolean } | null> {
  if ((await countUsers(db)) > 0) return null
  let u: Awaited<ReturnType<typeof createUser>>
  try {
    u = await createUser(db, { name: 'admin', maxTargets: cfg.maxTargetsDefault, apiKey: cfg.initialApiKey ?? undefined })
  } catch (e) {
    // Several processes started together with the same WARD_INITIAL_API_KEY: another one won.
    if (cfg.initialApiKey && isUniqueViolation(e)) return null
    throw e
  }
  return { apiKey: u.apiKey, generated: !cfg.initialApiKey }
}
