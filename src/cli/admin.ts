// `ward admin ...`: users, keys and workspaces, the vulnerability feeds and the nuclei templates,
// against the same WARD_DATABASE_URL as the server. Parsed by commander: an unknown option or a stray
// argument is a usage error, like a missing one.
import { Command, CommanderError } from 'commander'
import type { DbHandle } from '../store/db.js'
import type { Config } from '../config/config.js'
import { MAX_PASSWORD, passwordProblem } from '../domain/passwords.js'
import { UsageError, type AdminContext } from './admin-values.js'
import {
  auditExport,
  keyCreate,
  keyList,
  keyRevoke,
  userCreate,
  userList,
  userDisable,
  userSet,
  userSetPassword,
  workspaceCreate,
} from './admin-accounts.js'
import { cveImport, epssImport, kevImport, templatesImport, templatesList, templatesRemove } from './admin-feeds.js'
import { commanderMessage, isHelp, strictTree, type CommandOutput } from './strict.js'

export { UsageError, type AdminContext } from './admin-values.js'
export { PASSWORD_LINK_MS, webBase } from './admin-accounts.js'

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

const LIMITS = {
  maxTargets: ['--max-targets <k>', 'how many targets the user may have (default WARD_MAX_TARGETS_DEFAULT)'],
  licenseExpires: ['--license-expires <date>', 'licence end, YYYY-MM-DD'],
} as const

function accountCommands(admin: Command, open: () => Promise<AdminContext>) {
  const user = admin.command('user').description('users: create, list, change limits and admin role, disable, set the web sign-in password')
  user
    .command('create')
    .description('a user with a workspace and an API key (printed once)')
    .option('--name <name>', 'the user name (unique, case-insensitive)')
    .option(...LIMITS.maxTargets)
    .option(...LIMITS.licenseExpires)
    .option('--password-stdin', 'also set the web sign-in password, read as one line from standard input')
    .action(async (o) => userCreate(await open(), o))
  user
    .command('set-password')
    .description('the web sign-in password: from standard input, or a one-time link (valid 24 hours)')
    .option('--user <id>', 'user id')
    .option('--password-stdin', 'read the password as one line from standard input')
    .option('--link', 'print a one-time set-password link instead')
    .action(async (o) => userSetPassword(await open(), o))
  user
    .command('list')
    .description('id, name, target limit, licence, active keys')
    .action(async () => userList(await open()))
  user
    .command('set')
    .description("change a user's target limit, licence end or instance admin role")
    .option('--user <id|name>', 'user id or name')
    .option(...LIMITS.maxTargets)
    .option('--license-expires <date>', 'licence end, YYYY-MM-DD, or "none" for no end')
    .option('--admin', 'make the user an instance admin')
    .option('--no-admin', 'withdraw the instance admin role')
    .action(async (o) => userSet(await open(), o))
  user
    .command('disable')
    .description('disable a user: their API keys and web sessions stop working (keys are kept for re-enabling)')
    .option('--user <id|name>', 'user id or name')
    .action(async (o) => userDisable(await open(), o, true))
  user
    .command('enable')
    .description('enable a disabled user again')
    .option('--user <id|name>', 'user id or name')
    .action(async (o) => userDisable(await open(), o, false))
  const key = admin.command('key').description('API keys: create, list, revoke')
  key
    .command('create')
    .description('a new API key for a user (printed once)')
    .option('--user <id>', 'user id')
    .action(async (o) => keyCreate(await open(), o))
  key
    .command('list')
    .description('id, prefix, created, revoked (never the key)')
    .option('--user <id>', "only this user's keys")
    .action(async (o) => keyList(await open(), o))
  key
    .command('revoke')
    .description('revoke one key, by id or by the key or its first 8+ characters')
    .option('--key-id <id>', 'key id (see key list)')
    .option('--key-prefix <p>', 'the whole key or its first 8+ characters')
    .action(async (o) => keyRevoke(await open(), o))
  admin
    .command('workspace')
    .description('workspaces')
    .command('create')
    .description('a workspace owned by a user')
    .option('--user <id>', "owner's user id")
    .option('--name <name>', 'workspace name (unique per user)')
    .action(async (o) => workspaceCreate(await open(), o))
  admin
    .command('audit')
    .description('the audit log')
    .command('export')
    .description('the audit log as JSON lines, oldest first, for a SIEM')
    .option('--since <iso-time>', 'entries from this time on')
    .action(async (o) => auditExport(await open(), o))
}

function feedCommands(admin: Command, open: () => Promise<AdminContext>) {
  admin
    .command('kev')
    .description('the CISA Known Exploited Vulnerabilities catalogue')
    .command('import')
    .description('replace the KEV list (known_exploited_vulnerabilities.json)')
    .argument('<file>')
    .action(async (file: string) => kevImport(await open(), file))
  admin
    .command('cve')
    .description('NVD CVE records')
    .command('import')
    .description('NVD CVE API 2.0 JSON feeds, .json or .json.gz')
    .argument('<file...>')
    .action(async (files: string[]) => cveImport(await open(), files))
  admin
    .command('epss')
    .description('FIRST EPSS scores')
    .command('import')
    .description('replace the scores (epss_scores-YYYY-MM-DD.csv[.gz])')
    .argument('<file>')
    .action(async (file: string) => epssImport(await open(), file))
  const templates = admin.command('templates').description('nuclei templates')
  templates
    .command('import')
    .description('directories, .tar.gz or .zip of nuclei YAML templates')
    .argument('<path...>')
    .option('--json', 'print the report as JSON')
    .option('--prune', 'remove imported templates no longer present')
    .action(async (paths: string[], o) => templatesImport(await open(), paths, o))
  templates
    .command('list')
    .description('the stored templates')
    .option('--tags <a,b>', 'only with one of these tags')
    .option('--severity <s,t>', 'only of these severities')
    .action(async (o) => templatesList(await open(), o))
  templates
    .command('remove')
    .description('remove templates by id')
    .argument('<id...>')
    .action(async (ids: string[]) => templatesRemove(await open(), ids))
}

/**
 * The `ward admin` command tree. `open` is called by the command that runs, once its command line
 * parsed, so `--help` and a mistyped command need no configuration or database.
 */
export function adminCommand(open: () => Promise<AdminContext>): Command {
  const admin = new Command('admin').description('administration: users, API keys, workspaces, vulnerability feeds, templates')
  accountCommands(admin, open)
  feedCommands(admin, open)
  return admin
}

export interface AdminIo {
  readPassword?: () => Promise<string>
}

/**
 * Runs one `ward admin` command line in this process (`argv` without "ward admin"). A mistake of the
 * command line, like one the command finds (a missing user), rejects with a UsageError.
 */
export async function runAdmin(argv: string[], h: DbHandle, cfg: Config, out: (s: string) => void, io: AdminIo = {}): Promise<void> {
  const context: AdminContext = { h, cfg, out, readPassword: io.readPassword ?? (() => readPasswordStdin()) }
  const output: CommandOutput = { out: (s) => out(s.replace(/\n$/, '')), err: () => {} }
  const cmd = strictTree(new Command('ward').addCommand(adminCommand(async () => context)), output)
  try {
    await cmd.parseAsync(['admin', ...argv], { from: 'user' })
  } catch (e) {
    if (isHelp(e)) return
    if (e instanceof CommanderError) throw new UsageError(commanderMessage(e))
    throw e
  }
}
