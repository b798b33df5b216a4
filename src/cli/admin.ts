// `ward admin ...`: users, keys and workspaces, against the same WARD_DATABASE_URL as the server.
import type { DbHandle } from '../store/db.js'
import type { Config } from '../config/config.js'
import { activeKeysMatching, createApiKey, createUser, createWorkspace, getKey, listKeys, listUsers, revokeKey, setUserLimits, userByName, userExists } from '../store/accounts.js'
import { isUniqueViolation } from '../domain/targets.js'
import { readFileSync } from 'node:fs'
import { KevFeedError, isInKev, loadKevSnapshot, parseKevFeed } from '../domain/kev.js'
import { flagKevFindings, replaceKevCves } from '../store/kev-cves.js'
import { NvdFeedError, cveFromFeedItem, feedItems, type NvdCve } from '../domain/nvd.js'
import { EpssFeedError, readEpssFile } from '../domain/epss.js'
import { countCves, markEpssFindings, replaceEpss, upsertCves } from '../store/cves.js'
import { createPasswordLink, setPasswordHash } from '../store/web-sessions.js'
import { hashPassword, MAX_PASSWORD, passwordProblem } from '../domain/passwords.js'
import { formatImportReport, importTemplates } from './template-import.js'
import { TreeError } from './template-tree.js'
import { listTemplates, removeTemplates } from '../store/templates.js'

/** How long a set-password link works. */
export const PASSWORD_LINK_MS = 24 * 3600000

export class UsageError extends Error {}

const ADMIN_USAGE = `usage:
  ward admin user create --name N [--max-targets K] [--license-expires YYYY-MM-DD] [--password-stdin]
  ward admin user set-password --user ID --password-stdin | --link   (web sign-in password; --link prints a one-time set-password link)
  ward admin user list
  ward admin user set --user ID [--max-targets K] [--license-expires YYYY-MM-DD|none]
  ward admin key create --user ID
  ward admin key list [--user ID]
  ward admin key revoke --key-id ID | --key-prefix P   (P: the whole key or its first 8+ characters)
  ward admin workspace create --user ID --name N
  ward admin kev import FILE      (the CISA known_exploited_vulnerabilities.json feed)
  ward admin cve import FILE...   (NVD CVE API 2.0 JSON feeds, .json or .json.gz)
  ward admin epss import FILE     (FIRST's EPSS CSV, epss_scores-YYYY-MM-DD.csv[.gz])
  ward admin templates import PATH... [--json] [--prune]   (directories, .tar.gz, .zip of nuclei YAML templates)
  ward admin templates list [--tags a,b] [--severity high,critical]
  ward admin templates remove ID...`

/** A real calendar date YYYY-MM-DD (2027-02-30 is refused, not rolled over into March). */
function calendarDate(v: string | undefined, flag: string): string {
  const d = v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : null
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) throw new UsageError(`--${flag} must be a calendar date YYYY-MM-DD (got ${JSON.stringify(v ?? '')})`)
  return v!
}

const flagValue = (flags: Record<string, string>, name: string) => (flags[name] === undefined || flags[name] === 'true' ? undefined : flags[name])

/** Columns padded to their widest cell, for lists an admin reads in a terminal. */
function table(headers: string[], rows: Array<Array<string | number | null>>): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null ? '-' : String(c))))]
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)))
  return cells.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n')
}

function positiveInt(v: string | undefined, flag: string): number {
  if (!v || !/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${flag} must be a positive whole number`)
  return Number(v)
}

/** Reads a password from standard input (one line; the line break is not part of it). */
export async function readPasswordStdin(stdin: AsyncIterable<Buffer | string> = process.stdin): Promise<string> {
  let text = ''
  for await (const chunk of stdin) {
    text += chunk.toString()
    if (text.length > MAX_PASSWORD * 4) break
  }
  const pw = text.replace(/\r?\n$/, '')
  const problem = passwordProblem(pw)
  if (problem) throw new UsageError(`--password-stdin: ${problem}`)
  return pw
}

/** The web address a set-password link starts with. */
export const webBase = (cfg: Pick<Config, 'host' | 'port'>) => `http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host === '0.0.0.0' ? '127.0.0.1' : cfg.host}:${cfg.port}`

export interface AdminIo {
  readPassword?: () => Promise<string>
}

export async function runAdmin(words: string[], flags: Record<string, string>, h: DbHandle, cfg: Config, out: (s: string) => void, io: AdminIo = {}): Promise<void> {
  const readPassword = io.readPassword ?? (() => readPasswordStdin())
  const [what, verb] = words
  const cmd = `${what ?? ''} ${verb ?? ''}`.trim()
  switch (cmd) {
    case 'user create': {
      const name = flags.name?.trim()
      if (!name || name === 'true') throw new UsageError('--name is required')
      const maxTargets = flags['max-targets'] ? positiveInt(flags['max-targets'], 'max-targets') : cfg.maxTargetsDefault
      const lic = flags['license-expires'] === undefined ? undefined : calendarDate(flags['license-expires'], 'license-expires')
      const same = await userByName(h.db, name)
      if (same) throw new UsageError(`a user named "${same.name}" already exists (id ${same.id})`)
      const password = flags['password-stdin'] === 'true' ? await readPassword() : null
      const u = await createUser(h.db, { name, maxTargets, licenseExpires: lic ?? null })
      if (password !== null) await setPasswordHash(h.db, u.userId, await hashPassword(password))
      out(`user id: ${u.userId}\nworkspace id: ${u.workspaceId}\napi key: ${u.apiKey}${password !== null ? '\nweb sign-in: password set' : ''}`)
      return
    }
    case 'user set-password': {
      const userId = positiveInt(flags.user, 'user')
      const link = flags.link === 'true'
      if (link === (flags['password-stdin'] === 'true')) throw new UsageError('ward admin user set-password needs exactly one of --password-stdin and --link')
      if (!(await userExists(h.db, userId))) throw new UsageError(`user ${userId} does not exist`)
      if (link) {
        const token = await createPasswordLink(h.db, userId, PASSWORD_LINK_MS)
        out(`set-password link for user ${userId} (one use, valid 24 hours):\n${webBase(cfg)}/set-password/${token}`)
        return
      }
      await setPasswordHash(h.db, userId, await hashPassword(await readPassword()))
      out(`user ${userId}: password set; the user's web sessions were ended`)
      return
    }
    case 'key create': {
      const userId = positiveInt(flags.user, 'user')
      const key = await createApiKey(h.db, userId)
      if (!key) throw new UsageError(`user ${userId} does not exist`)
      out(`api key: ${key}`)
      return
    }
    case 'user list': {
      const users = await listUsers(h.db)
      out(table(['id', 'name', 'max_targets', 'license_expires', 'active_keys', 'created_at'], users.map((u) => [u.id, u.name, u.max_targets, u.license_expires, u.active_keys, u.created_at.slice(0, 19) + 'Z'])))
      return
    }
    case 'user set': {
      const userId = positiveInt(flags.user, 'user')
      const maxTargets = flags['max-targets'] !== undefined ? positiveInt(flags['max-targets'], 'max-targets') : undefined
      const lic = flags['license-expires'] === undefined ? undefined : flags['license-expires'] === 'none' ? null : calendarDate(flags['license-expires'], 'license-expires')
      if (maxTargets === undefined && lic === undefined) throw new UsageError('ward admin user set needs --max-targets and/or --license-expires')
      if (!(await setUserLimits(h.db, userId, { maxTargets, licenseExpires: lic }))) throw new UsageError(`user ${userId} does not exist`)
      out(`user ${userId}:${maxTargets !== undefined ? ` max targets ${maxTargets}` : ''}${lic !== undefined ? ` licence expires ${lic ?? 'never'}` : ''}`)
      return
    }
    case 'key list': {
      const keys = await listKeys(h.db, flags.user !== undefined ? positiveInt(flags.user, 'user') : undefined)
      out(table(['id', 'user', 'name', 'prefix', 'created_at', 'revoked_at'], keys.map((k) => [k.id, k.user_id, k.user_name, k.key_prefix, k.created_at.slice(0, 19) + 'Z', k.revoked_at ? k.revoked_at.slice(0, 19) + 'Z' : null])))
      return
    }
    case 'key revoke': {
      const id = flagValue(flags, 'key-id')
      const p = flagValue(flags, 'key-prefix')
      if ((id === undefined) === (p === undefined)) throw new UsageError('ward admin key revoke needs exactly one of --key-id ID and --key-prefix P')
      let target: Awaited<ReturnType<typeof getKey>>
      if (id !== undefined) {
        target = await getKey(h.db, positiveInt(id, 'key-id'))
        if (!target) throw new UsageError(`key ${id} does not exist`)
        if (target.revoked_at) throw new UsageError(`key ${id} (${target.key_prefix}…) was already revoked at ${target.revoked_at}`)
      } else {
        if (p!.length < 8) throw new UsageError('--key-prefix needs at least the first 8 characters of the key')
        const matches = await activeKeysMatching(h.db, p!)
        if (!matches.length) throw new UsageError(`no active key starts with ${p!.slice(0, 12)}`)
        if (matches.length > 1) throw new UsageError(`${p} matches ${matches.length} active keys: ${matches.map((k) => `id ${k.id} (${k.key_prefix}…, user ${k.user_id} ${k.user_name})`).join(', ')}; give more characters or --key-id`)
        target = matches[0]!
      }
      await revokeKey(h.db, target.id)
      out(`revoked 1 key: id ${target.id} (${target.key_prefix}…) of user ${target.user_id} ${target.user_name}; API processes stop accepting it within WARD_AUTH_CACHE_MS`)
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
    case 'cve import': {
      const files = words.slice(2)
      if (!files.length) throw new UsageError('usage: ward admin cve import FILE...')
      for (const file of files) {
        let batch: NvdCve[] = []
        let read = 0
        let kept = 0
        try {
          for await (const item of feedItems(file)) {
            read++
            const cve = cveFromFeedItem(item)
            if (!cve) continue
            batch.push(cve)
            kept++
            if (batch.length >= 500) {
              await upsertCves(h.db, batch)
              batch = []
            }
          }
          await upsertCves(h.db, batch)
        } catch (e) {
          if (e instanceof NvdFeedError || (e as NodeJS.ErrnoException).code) throw new UsageError(`${file}: ${(e as Error).message}`)
          throw e
        }
        out(`${file}: imported ${kept} CVE(s) of ${read} entries`)
      }
      out(`${await countCves(h.db)} CVEs in the database\nrunning workers match against them from their next scan`)
      return
    }
    case 'epss import': {
      const file = words[2]
      if (!file) throw new UsageError('usage: ward admin epss import FILE')
      let result: { date: string; count: number } | undefined
      try {
        await replaceEpss(h.db, async (write) => {
          result = await readEpssFile(file, write)
        })
      } catch (e) {
        if (e instanceof EpssFeedError || (e as NodeJS.ErrnoException).code) throw new UsageError(`${file}: ${(e as Error).message}`)
        throw e
      }
      const marked = await markEpssFindings(h.db)
      out(`imported ${result!.count} EPSS scores of ${result!.date}\n${marked} stored finding(s) updated; new findings carry them from now on`)
      return
    }
    case 'templates import': {
      // A bare --json/--prune may have taken the next path as its value: it is a path then.
      const paths = words.slice(2)
      for (const f of ['json', 'prune']) if (flags[f] !== undefined && flags[f] !== 'true') paths.push(flags[f]!)
      if (!paths.length) throw new UsageError('usage: ward admin templates import PATH... [--json] [--prune]')
      let report: Awaited<ReturnType<typeof importTemplates>>
      try {
        report = await importTemplates(h.db, paths, { prune: flags.prune !== undefined })
      } catch (e) {
        if (e instanceof TreeError || (e as NodeJS.ErrnoException).code) throw new UsageError((e as Error).message)
        throw e
      }
      if (flags.json !== undefined) out(JSON.stringify({ loaded: report.loaded, updated: report.updated, unchanged: report.unchanged, pruned: report.pruned, skipped: report.skipped }))
      else out(formatImportReport(report) + '\nrunning workers use them from their next scan')
      return
    }
    case 'templates list': {
      const csv = (v: string | undefined) => (v ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined)
      const { rows, total } = await listTemplates(h.db, { tags: csv(flagValue(flags, 'tags')), severities: csv(flagValue(flags, 'severity')), limit: 100_000 })
      out(table(['id', 'severity', 'protocol', 'source', 'name', 'tags'], rows.map((r) => [r.id, r.severity, r.protocol, r.source, r.name.slice(0, 60), r.tags.replace(/^,|,$/g, '')])))
      out(`${total} template(s)`)
      return
    }
    case 'templates remove': {
      const ids = words.slice(2)
      if (!ids.length) throw new UsageError('usage: ward admin templates remove ID...')
      out(`removed ${await removeTemplates(h.db, ids)} template(s)`)
      return
    }
    default:
      throw new UsageError(ADMIN_USAGE)
  }
}
