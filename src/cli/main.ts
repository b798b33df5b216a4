// ward serve | worker | all | callbacks | admin ... — parses argv, loads config, starts roles.
import { loadConfig, ConfigError, type Config } from '../config/config.js'
import { parseBlocklist } from '../domain/blocklist.js'
import { openDatabase } from '../store/db.js'
import { parseArgs } from './args.js'
import { runAdmin, UsageError } from './admin.js'
import { ROLES, startRoles, type Role } from './roles.js'

const USAGE = `usage: ward [all|serve|worker|callbacks] [--no-callbacks]
         all        API, scan worker and report-callback sender (the default)
         serve      API only
         worker     scan worker and report-callback sender (--no-callbacks: the worker only)
         callbacks  report-callback sender only
       ward admin ...   administration (ward admin help)`

async function main() {
  const { words, flags } = parseArgs(process.argv.slice(2))
  const command = words[0] ?? 'all'
  let cfg: Config
  try {
    cfg = loadConfig()
    try {
      parseBlocklist(cfg.targetBlocklist)
    } catch (e) {
      throw new ConfigError(`WARD_TARGET_BLOCKLIST: ${(e as Error).message}`)
    }
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`ward: configuration error: ${e.message}\n`)
      process.exit(2)
    }
    throw e
  }

  if (command === 'admin') {
    const h = await openDatabase(cfg.db)
    try {
      await runAdmin(words.slice(1), flags, h, cfg, (s) => process.stdout.write(s + '\n'))
    } catch (e) {
      if (e instanceof UsageError) {
        process.stderr.write(`ward admin: ${e.message}\n`)
        process.exitCode = 2
      } else throw e
    } finally {
      await h.close()
    }
    return
  }
  if (command === 'help' || flags.help) {
    process.stdout.write(USAGE + '\n')
    return
  }
  if (!(ROLES as readonly string[]).includes(command)) {
    process.stderr.write(`ward: unknown command "${command}"\n${USAGE}\n`)
    process.exit(2)
  }
  await startRoles(command as Role, cfg, { noCallbacks: flags['no-callbacks'] === 'true' })
}

main().catch((e) => {
  process.stderr.write(`ward: ${e?.stack ?? e}\n`)
  process.exit(1)
})
