// Commander settings every `ward` command shares, applied to a whole tree of commands: a mistake
// (unknown option, stray argument, unknown command) is an error naming it and the command it was
// given to, never ignored; nothing calls process.exit, so the caller chooses the exit code.
import { type Command, CommanderError } from 'commander'

export interface CommandOutput {
  out: (s: string) => void
  err: (s: string) => void
}

/** The command's words as typed, e.g. "ward admin user create". */
export function commandPath(c: Command): string {
  const names: string[] = []
  for (let x: Command | null = c; x; x = x.parent) names.unshift(x.name())
  return names.join(' ')
}

/** Applies the shared settings to `root` and every command under it (call once the tree is built). */
export function strictTree(root: Command, io: CommandOutput): Command {
  const visit = (c: Command) => {
    const path = commandPath(c)
    c.exitOverride()
      .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: (s, write) => write(`${path}: ${s.replace(/^error: /, '')}`) })
      .showHelpAfterError(`(${path} --help for the usage)`)
      .helpCommand(c.commands.length > 0)
    c.commands.forEach(visit)
  }
  visit(root)
  return root
}

/** Whether a CommanderError only means that help was shown on request (exit 0). */
export const isHelp = (e: unknown): e is CommanderError => e instanceof CommanderError && e.exitCode === 0

/** The message of a command-line mistake without commander's "error: " prefix. */
export const commanderMessage = (e: CommanderError) => e.message.replace(/^error: /, '')
