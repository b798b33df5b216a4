// The command line of `ward scan`: commander's definition (and --help), then every option checked
// before anything is sent, so a mistake is a usage error (exit 3) and never a scan that fails later.
import { Command, CommanderError, Option } from 'commander'
import { FORMATS, SEVERITIES, type FormatName, type Severity } from '../../reports/formats/index.js'
import { ParamError, parseParams } from './params.js'
import { TOOL_ALIASES } from './tools.js'
import { plain } from './client.js'

/** Exit codes (docs/ci.md). */
export const EXIT = { OK: 0, THRESHOLD: 1, NOT_FINISHED: 2, USAGE: 3, INTERRUPTED: 130 } as const

export interface ScanIo {
  env: Record<string, string | undefined>
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  /** Listens for Ctrl-C; returns the function that stops listening. */
  onInterrupt(handler: () => void): () => void
}

/** What the command line asks for, checked. */
export interface ScanOptions {
  target: string
  server: string
  key: string
  toolArg: string
  workspace: number | undefined
  maxScanTime: number | undefined
  timeoutMs: number | null
  formats: FormatName[]
  outputs: string[]
  failOn: Severity | null
  rawParams: Record<string, unknown>
  wait: boolean
  quiet: boolean
  yes: boolean
}

class UsageError extends Error {}

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v]

function buildCommand(io: ScanIo): Command {
  const cmd = new Command('ward scan')
    .description('Start a scan on a Ward (or any v2 API) server, follow it, write reports, and exit with a code a CI pipeline can gate on.')
    .argument('<target>', 'what to scan: a URL, host name or IP address (created in the workspace if new)')
    .option('--server <url>', 'server base URL (env WARD_URL), e.g. https://ward.example.com')
    .option('--key <key>', 'API key (env WARD_API_KEY; prefer the variable: command lines are visible to other users)')
    .option('--tool <name|id>', `tool: ${Object.keys(TOOL_ALIASES).join(', ')}, or a tool id`)
    .option('--param <key=value>', "tool parameter, repeatable (checked against the server's GET /tools schema when it has one)", collect)
    .option('--workspace <id>', 'workspace id')
    .option('--max-scan-time <minutes>', 'the scan\'s own time limit, 1..1440 minutes (it then ends "finished" with the results so far)')
    .option('--wait', 'follow the scan until it ends (default)')
    .option('--no-wait', 'start the scan, print its id and exit 0')
    .option('--timeout <duration>', 'give up waiting after this long (90, 90s, 15m, 2h): stops the remote scan, exit 2')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').choices([...SEVERITIES]))
    .option(
      '--format <format>',
      `report format, repeatable: ${FORMATS.join(', ')}; the n-th --output is the n-th format's file (stdout without one)`,
      collect,
    )
    .option('--output <file>', 'file for the matching --format, repeatable', collect)
    .option('--quiet', 'no progress output (errors and the exit code only)')
    .option('--yes', 'on Ctrl-C stop the remote scan without asking')
    .helpOption('-h, --help', 'show this help')
    .showHelpAfterError('(ward scan --help for the options)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
  cmd.addHelpText(
    'after',
    `
Exit codes: 0 no finding at or above --fail-on; 1 at least one; 2 the scan did not finish (connection error,
timed out, stopped, ...), the server refused or could not be reached; 3 usage error; 130 interrupted.
See docs/ci.md.`,
  )
  return cmd
}

export function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/i.exec(s.trim())
  if (!m) throw new UsageError(`--timeout "${s}": expected a duration such as 90, 90s, 15m or 2h`)
  const n = Number(m[1])
  const unit = (m[2] ?? 's').toLowerCase()
  const ms = unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000
  if (ms <= 0) throw new UsageError('--timeout must be positive')
  return ms
}

const positiveInt = (name: string, v: string | undefined, max = Number.MAX_SAFE_INTEGER) => {
  if (v === undefined) return undefined
  if (!/^\d+$/.test(v.trim()) || Number(v) < 1 || Number(v) > max)
    throw new UsageError(`${name} "${v}": expected a whole number from 1 to ${max}`)
  return Number(v)
}

function serverOf(opts: { server?: string }, env: ScanIo['env']): string {
  const server = (opts.server ?? env.WARD_URL ?? '').trim()
  if (!server) throw new UsageError('no server: give --server URL or set WARD_URL')
  let u: URL
  try {
    u = new URL(server)
  } catch {
    throw new UsageError('--server / WARD_URL is not a URL')
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('--server / WARD_URL must be an http:// or https:// URL')
  return server
}

/** The reports asked for: each --format with the --output at the same position (stdout without one). */
function reportsOf(opts: { format?: string[]; output?: string[] }): { formats: FormatName[]; outputs: string[] } {
  const formats = (opts.format ?? []) as FormatName[]
  const bad = formats.find((f) => !(FORMATS as readonly string[]).includes(f))
  if (bad !== undefined) throw new UsageError(`--format "${plain(bad)}": use ${FORMATS.join(', ')}`)
  const outputs = opts.output ?? []
  if (outputs.length > formats.length)
    throw new UsageError('more --output than --format: each --output is the file of the --format at the same position')
  if (formats.length - outputs.length > 1)
    throw new UsageError('only one --format may go to stdout: give an --output for each of the others')
  return { formats, outputs }
}

// Commander's opts() is untyped: every field is checked here before use.
// biome-ignore lint/suspicious/noExplicitAny: commander's opts() is untyped; checked field by field below
function checkOptions(target: string, opts: any, env: ScanIo['env']): ScanOptions {
  const failOn: Severity | null = opts.failOn ?? null
  if (!target) throw new UsageError('the target is empty')
  const server = serverOf(opts, env)
  const key = (opts.key ?? env.WARD_API_KEY ?? '').trim()
  if (!key) throw new UsageError('no API key: set WARD_API_KEY (or give --key)')
  const toolArg = opts.tool ?? ''
  if (!toolArg) throw new UsageError(`no tool: give --tool (${Object.keys(TOOL_ALIASES).join(', ')} or an id)`)
  const workspace = positiveInt('--workspace', opts.workspace)
  const maxScanTime = positiveInt('--max-scan-time', opts.maxScanTime, 1440)
  const timeoutMs = opts.timeout !== undefined ? parseDuration(opts.timeout) : null
  const { formats, outputs } = reportsOf(opts)
  if (opts.wait === false && (formats.length || failOn))
    throw new UsageError('--no-wait cannot be combined with --format or --fail-on (there are no results yet)')
  const rawParams = parseParams(opts.param ?? [])
  return {
    target,
    server,
    key,
    toolArg,
    workspace,
    maxScanTime,
    timeoutMs,
    formats,
    outputs,
    failOn,
    rawParams,
    wait: opts.wait !== false,
    quiet: !!opts.quiet,
    yes: !!opts.yes,
  }
}

/** The checked options, or the exit code when there is nothing to run (help shown, or a usage error). */
export function readOptions(argv: string[], io: ScanIo, err: (s: string) => void): ScanOptions | number {
  const cmd = buildCommand(io)
  try {
    cmd.parse(argv, { from: 'user' })
  } catch (e) {
    if (e instanceof CommanderError)
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version' ? EXIT.OK : EXIT.USAGE
    throw e
  }
  try {
    return checkOptions(String(cmd.args[0] ?? '').trim(), cmd.opts(), io.env)
  } catch (e) {
    if (e instanceof UsageError || e instanceof ParamError) {
      err(e.message)
      return EXIT.USAGE
    }
    throw e
  }
}
