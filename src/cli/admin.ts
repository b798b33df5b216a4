// `ward admin ...`: users, keys and workspaces, against the same WARD_DATABASE_URL as the server.
import type { DbHandle } from '../store/db.js'
import type { Config } from '../config/config.js'
import { createApiKey, createUser, createWorkspace, revokeKeysByPrefix, userExists } from '../store/accounts.js'
import { isUniqueViolation } from '../domain/targets.js'
import { readFileSync } from 'node:fs'
import { KevFeedError, isInKev, loadKevSnapshot, parseKevFeed } from '../domain/kev.js'
import { flagKevFindings, replaceKevCves } from '../store/kev-cves.js'

export class UsageError extends Error {}

const ADMIN_USAGE = `usage:
  ward admin user create --name N [--max-targets K] [--license-expires YYYY-MM-DD]
  ward admin key create --user ID
  ward admin key revoke --key-prefix P
  ward admin workspace create --user ID --name N
  ward admin kev import FILE      (the CISA known_exploited_vulnerabilities.json feed)`

function positiveInt(v: string | undefined, flag: string): number {
  if (!v || !/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${flag} must be a positive whole number`)
  return Number(v)
}

export async function runAdmin(words: string[], flags: Record<string, string>, h: DbHandle, cfg: Config, out: (s: string) => void): Promise<void> {
  const [what, verb] = words
  const cmd = `${what ?? ''} ${verb ?? ''}`.trim()
  switch (cmd) {
    case 'user create': {
      const name = flags.name?.trim()
      if (!name || name === 'true') throw new UsageError('--name is required')
      const maxTargets = flags['max-targets'] ? positiveInt(flags['max-targets'], 'max-targets') : cfg.maxTargetsDefault
      const lic = flags['license-expires']
      if (lic !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(lic) || isNaN(Date.parse(lic + 'T00:00:00Z')))) throw new UsageError('--license-expires must be a date YYYY-MM-DD')
      const u = await createUser(h.db, { name, maxTargets, licenseExpires: lic ?? null })
      out(`user id: ${u.userId}\nworkspace id: ${u.workspaceId}\napi key: ${u.apiKey}`)
      return
    }
    case 'key create': {
      const userId = positiveInt(flags.user, 'user')
      const key = await createApiKey(h.db, userId)
      if (!key) throw new UsageError(`user ${userId} does not exist`)
      out(`api key: ${key}`)
      return
    }
    case 'key revoke': {
      const p = flags['key-prefix']
      if (!p || p === 'true' || p.length < 8) throw new UsageError('--key-prefix needs at least the first 8 characters of the key')
      const n = await revokeKeysByPrefix(h.db, p.slice(0, 12))
      if (n === 0) throw new UsageError(`no active key starts with ${p}`)
      out(`revoked ${n} key(s)`)
      return
    }
    case 'workspace create': {
      const userId = positiveInt(flags.user, 'user')
      const name = flags.name?.trim()
      if (!name || name === 'true') throw new UsageError('--name is required')
      if (!(await userExists(h.db, userId))) throw new UsageError(`user ${userId} does not exist`)
      try {
        out(`workspace id: ${await createWorkspace(h.db, userId, name)}`)
      } catch (e) {
        if (isUniqueViolation(e)) throw new UsageError(`user ${userId} already has a workspace named "${name}"`)
        throw e
      }
      return
    }
    case 'kev import': {
      const file = words[2]
      if (!file) throw new UsageError('usage: ward admin kev import FILE')
      let cves: string[]
      try {
        cves = parseKevFeed(JSON.parse(readFileSync(file, 'utf8')))
      } catch (e) {
        if (e instanceof KevFeedError || e instanceof SyntaxError || (e as NodeJS.ErrnoException).code) throw new UsageError(`${file}: ${(e as Error).message}`)
        throw e
      }
      const { total, added } = await replaceKevCves(h.db, cves)
      const kev = loadKevSnapshot()
      for (const c of cves) kev.add(c)
      const flagged = await flagKevFindings(h.db, (cves) => isInKev(cves, kev))
      out(`imported ${total} CVE ids from the KEV feed (${added} new)\nflagged ${flagged} existing finding(s) as in the CISA catalogue\nrunning workers pick the new list up when they restart`)
      return
    }
    default:
      throw new UsageError(ADMIN_USAGE)
  }
}
