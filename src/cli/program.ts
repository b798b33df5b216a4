// The `ward` command line: the roles a process runs, `ward admin ...` and `ward scan ...`, parsed by
// commander. What each command does comes in as functions, so parsing (and --help) loads and reads
// nothing else.
import { Command } from 'commander'
import type { Role } from './roles.js'
import type { AdminContext } from './admin-values.js'
import { adminCommand } from './admin.js'
import { strictTree, type CommandOutput } from './strict.js'

export interface WardActions {
  roles(role: Role, o: { noCallbacks: boolean }): Promise<void>
  /** Loads the configuration and opens the database for the admin command that runs. */
  openAdmin(): Promise<AdminContext>
  scan(argv: string[]): Promise<void>
}

const ROLE_COMMANDS: ReadonlyArray<{ role: Role; description: string; noCallbacks?: string }> = [
  {
    role: 'all',
    description: 'API, scan worker and report-callback sender in one process (the default; npm start)',
    noCallbacks: 'leave the callback sender out',
  },
  { role: 'serve', description: 'the API (and web interface) only' },
  { role: 'worker', description: 'the scan worker and the report-callback sender', noCallbacks: 'the scan worker only' },
  { role: 'callbacks', description: 'the report-callback sender only' },
]

export function wardProgram(actions: WardActions, io: CommandOutput): Command {
  const ward = new Command('ward').description('Ward: a self-hosted security scanning service')
  for (const r of ROLE_COMMANDS) {
    const c = ward.command(r.role).description(r.description)
    if (r.noCallbacks) c.option('--no-callbacks', r.noCallbacks)
    c.action(async (o: { callbacks?: boolean }) => actions.roles(r.role, { noCallbacks: o.callbacks === false }))
  }
  ward.addCommand(adminCommand(actions.openAdmin))
  // `ward scan` parses its own options (src/cli/scan/index.ts); listed here for `ward --help`.
  ward
    .command('scan')
    .description('CI client: scan through a Ward server, exit by severity (ward scan --help)')
    .argument('[args...]')
    .helpOption(false)
    .allowUnknownOption()
    .action(async (args: string[]) => actions.scan(args))
  strictTree(ward, io)
  ward.commands.find((c) => c.name() === 'scan')!.helpOption(false)
  return ward
}

/** `ward` alone, or with only options, is `ward all` (what `npm start` runs). */
export function withDefaultRole(argv: readonly string[]): string[] {
  const first = argv[0]
  return first === undefined || (first.startsWith('-') && first !== '-h' && first !== '--help') ? ['all', ...argv] : [...argv]
}
