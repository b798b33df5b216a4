// ward serve | worker | all | callbacks | admin ... — parses argv, loads config, starts roles.
// ward scan ... — the CI client, which talks to a server over HTTP only: it is dispatched before any
// configuration is read or module of the server is loaded, so it runs without a database or WARD_* settings.
import type { Config } from '../config/config.js'
import type { Role } from './roles.js'

const USAGE = `usage: ward [all|serve|worker|callbacks] [--no-callbacks]
         all        API, scan worker and report-callback sender (the default)
         serve      API only
         worker     scan worker and report-callback sender (--no-callbacks: the worker only)
         callbacks  report-callback sender only
       ward scan <target> ...   CI client: scan through a Ward server, exit by severity (ward scan --help)
       ward admin ...   administration (ward admin help)`

async function main() {
  if (process.argv[2] === 'scan') {
    const { scanMain } = await import('./scan/index.js')
    return scanMain(process.argv.slice(3))
  }
  const { loadConfig, ConfigError } = await import('../config/config.js')
  const { scopesOf } = await import('../toolkit/scope.js')
  const { openDatabase } = await import('../store/db.js')
  const { parseArgs } = await import('./args.js')
  const { runAdmin, UsageError } = await import('./admin.js')
  const { words, flags } = parseArgs(process.argv.slice(2))
  const command = words[0] ?? 'all'
  let cfg: Config
  try {
    cfg = loadConfig()
    scopesOf(cfg) // the scope lists: a bad entry is a ConfigError naming its variable
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`ward: configuration error: ${e.message}\n`)
      process.exit(2)
    }
    throw e
  }

  if (command === 'admin') {
    const h = await openDatabase(cfg.db, { secrets: cfg })
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
  // The roles bring the API, the engine and the tools: `ward admin` and `ward help` do without them.
  const { ROLES, startRoles } = await import('./roles.js')
  if (!(ROLES as readonly string[]).includes(command)) {
    process.stderr.write(`ward: unknown command "${command}"\n${USAGE}\n`)
    process.exit(2)
  }
  await startRoles(command as Role, cfg, { noCallbacks: flags['no-callbacks'] === 'true' })
}

main().catch((e) => {
  // Found at start-up with the database (the secret key): one line, like the configuration's own.
  if (e?.name === 'ConfigError') {
    process.stderr.write(`ward: configuration error: ${e.message}\n`)
    process.exit(2)
  }
  process.stderr.write(`ward: ${e?.stack ?? e}\n`)
  process.exit(1)
})
