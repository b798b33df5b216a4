// ward serve | worker | all | callbacks | admin ... — parses argv (src/cli/program.ts), loads config,
// starts roles. ward scan ... — the CI client, which talks to a server over HTTP only: it is dispatched
// before any configuration is read or module of the server is loaded, so it runs without a database or
// WARD_* settings.
import type { Config } from '../config/config.js'
import type { DbHandle } from '../store/db.js'

/** Exit code of a command-line or configuration mistake. */
const USAGE_EXIT = 2

async function loadConfigOrExit(): Promise<Config> {
  const { loadConfig, ConfigError } = await import('../config/config.js')
  const { scopesOf } = await import('../toolkit/scope.js')
  try {
    const cfg = loadConfig()
    scopesOf(cfg) // the scope lists: a bad entry is a ConfigError naming its variable
    return cfg
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`ward: configuration error: ${e.message}\n`)
      process.exit(USAGE_EXIT)
    }
    throw e
  }
}

async function main() {
  if (process.argv[2] === 'scan') {
    const { scanMain } = await import('./scan/index.js')
    return scanMain(process.argv.slice(3))
  }
  const { CommanderError } = await import('commander')
  const { wardProgram, withDefaultRole } = await import('./program.js')
  const { UsageError, readPasswordStdin } = await import('./admin.js')
  let db: DbHandle | null = null
  const program = wardProgram(
    {
      async roles(role, o) {
        const { startRoles } = await import('./roles.js')
        await startRoles(role, await loadConfigOrExit(), o)
      },
      async openAdmin() {
        const cfg = await loadConfigOrExit()
        const { openDatabase } = await import('../store/db.js')
        db = await openDatabase(cfg.db, { secrets: cfg })
        return { h: db, cfg, out: (s) => process.stdout.write(s + '\n'), readPassword: () => readPasswordStdin() }
      },
      async scan(argv) {
        const { scanMain } = await import('./scan/index.js')
        await scanMain(argv)
      },
    },
    { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
  )
  try {
    await program.parseAsync(withDefaultRole(process.argv.slice(2)), { from: 'user' })
  } catch (e) {
    // Commander has written the message (naming the command) and a pointer to --help.
    if (e instanceof CommanderError) process.exitCode = e.exitCode === 0 ? 0 : USAGE_EXIT
    else if (e instanceof UsageError) {
      process.stderr.write(`ward admin: ${e.message}\n`)
      process.exitCode = USAGE_EXIT
    } else throw e
  } finally {
    await (db as DbHandle | null)?.close()
  }
}

main().catch((e) => {
  // Found at start-up with the database (the secret key): one line, like the configuration's own.
  if (e?.name === 'ConfigError') {
    process.stderr.write(`ward: configuration error: ${e.message}\n`)
    process.exit(USAGE_EXIT)
  }
  process.stderr.write(`ward: ${e?.stack ?? e}\n`)
  process.exit(1)
})
