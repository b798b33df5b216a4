// `ward scan <target>`: the CI client. Starts a scan on any server of the v2 interface (Ward, or the
// public service with the same API), follows it, writes the export formats and turns the findings into
// an exit code a pipeline can gate on. It needs no local database and reads no Ward configuration.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import { Command, CommanderError, Option } from 'commander'
import { FORMATS, SEVERITIES, WRITERS, levelOf, severityOf, type FormatName, type ScanInfo, type Severity, type WireFinding, type WireTest } from '../../reports/formats/index.js'
import { NetworkError, ServerError, V2Client, plain, serverMessage } from './client.js'
import { ParamError, guessTypes, parseParams, validateParams } from './params.js'
import { clock, countsText, createProgress, type Progress, type ProgressState } from './progress.js'
import { resolveTool, TOOL_ALIASES, TOOL_LABELS, type ServerTool } from './tools.js'

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

class UsageError extends Error {}

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v]

function buildCommand(io: ScanIo): Command {
  const cmd = new Command('ward scan')
    .description('Start a scan on a Ward (or any v2 API) server, follow it, write reports, and exit with a code a CI pipeline can gate on.')
    .argument('<target>', 'what to scan: a URL, host name or IP address (created in the workspace if new)')
    .option('--server <url>', 'server base URL (env WARD_URL), e.g. https://ward.example.com')
    .option('--key <key>', 'API key (env WARD_API_KEY; prefer the variable: command lines are visible to other users)')
    .option('--tool <name|id>', `tool: ${Object.keys(TOOL_ALIASES).join(', ')}, or a tool id`)
    .option('--param <key=value>', 'tool parameter, repeatable (checked against the server\'s GET /tools schema when it has one)', collect)
    .option('--workspace <id>', 'workspace id')
    .option('--max-scan-time <minutes>', 'the scan\'s own time limit, 1..1440 minutes (it then ends "finished" with the results so far)')
    .option('--wait', 'follow the scan until it ends (default)')
    .option('--no-wait', 'start the scan, print its id and exit 0')
    .option('--timeout <duration>', 'give up waiting after this long (90, 90s, 15m, 2h): stops the remote scan, exit 2')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').choices([...SEVERITIES]))
    .option('--format <format>', `report format, repeatable: ${FORMATS.join(', ')}; the n-th --output is the n-th format's file (stdout without one)`, collect)
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
  if (!/^\d+$/.test(v.trim()) || Number(v) < 1 || Number(v) > max) throw new UsageError(`${name} "${v}": expected a whole number from 1 to ${max}`)
  return Number(v)
}

/** The server URL as it may be shown: no credentials, no query. */
const shownUrl = (u: string) => {
  try {
    const x = new URL(u)
    x.username = ''
    x.password = ''
    x.search = ''
    return x.toString().replace(/\/$/, '')
  } catch {
    return '(invalid URL)'
  }
}

const ACTIVE = new Set(['waiting', 'running'])

/** The options commander parses (buildCommand declares them). */
type ScanOptions = {
  failOn?: Severity
  server?: string
  key?: string
  tool?: string
  workspace?: string
  maxScanTime?: string
  timeout?: string
  format?: FormatName[]
  output?: string[]
  wait?: boolean
  param?: string[]
  quiet?: boolean
  yes?: boolean
}

/** The fields of GET /scans/{id} the client reads; each is checked before use, the server may be older or newer. */
type ScanBody = {
  status_name?: unknown
  status_message?: unknown
  progress?: unknown
  num_tests?: unknown
  num_finished_tests?: unknown
  eta_seconds?: unknown
  result_summary?: Partial<Record<Severity, unknown>>
  start_time?: string | null
  end_time?: string | null
  duration?: unknown
}

export async function runScan(argv: string[], io: ScanIo): Promise<number> {
  const cmd = buildCommand(io)
  let target: string
  let opts: ScanOptions
  try {
    cmd.parse(argv, { from: 'user' })
    target = String(cmd.args[0] ?? '').trim()
    opts = cmd.opts<ScanOptions>()
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version' ? EXIT.OK : EXIT.USAGE
    throw e
  }
  const err = (s: string) => io.stderr.write(`ward scan: ${s}\n`)

  // ---- options
  let server: string, key: string, toolArg: string, formats: FormatName[], outputs: string[], timeoutMs: number | null
  let workspace: number | undefined, maxScanTime: number | undefined, rawParams: Record<string, unknown>
  const failOn: Severity | null = opts.failOn ?? null
  try {
    if (!target) throw new UsageError('the target is empty')
    server = (opts.server ?? io.env.WARD_URL ?? '').trim()
    if (!server) throw new UsageError('no server: give --server URL or set WARD_URL')
    let u: URL
    try {
      u = new URL(server)
    } catch {
      throw new UsageError('--server / WARD_URL is not a URL')
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('--server / WARD_URL must be an http:// or https:// URL')
    key = (opts.key ?? io.env.WARD_API_KEY ?? '').trim()
    if (!key) throw new UsageError('no API key: set WARD_API_KEY (or give --key)')
    toolArg = opts.tool ?? ''
    if (!toolArg) throw new UsageError(`no tool: give --tool (${Object.keys(TOOL_ALIASES).join(', ')} or an id)`)
    workspace = positiveInt('--workspace', opts.workspace)
    maxScanTime = positiveInt('--max-scan-time', opts.maxScanTime, 1440)
    timeoutMs = opts.timeout !== undefined ? parseDuration(opts.timeout) : null
    formats = opts.format ?? []
    const bad = formats.find((f) => !(FORMATS as readonly string[]).includes(f))
    if (bad !== undefined) throw new UsageError(`--format "${plain(bad)}": use ${FORMATS.join(', ')}`)
    outputs = opts.output ?? []
    if (outputs.length > formats.length) throw new UsageError('more --output than --format: each --output is the file of the --format at the same position')
    if (formats.length - outputs.length > 1) throw new UsageError('only one --format may go to stdout: give an --output for each of the others')
    if (opts.wait === false && (formats.length || failOn)) throw new UsageError('--no-wait cannot be combined with --format or --fail-on (there are no results yet)')
    rawParams = parseParams(opts.param ?? [])
  } catch (e) {
    if (e instanceof UsageError || e instanceof ParamError) {
      err(e.message)
      return EXIT.USAGE
    }
    throw e
  }

  const ci = io.env.CI === 'true' || io.env.CI === '1' || !io.stderr.isTTY
  const progress: Progress = createProgress(io.stderr, opts.quiet ? 'quiet' : ci ? 'plain' : 'tty')
  const client = new V2Client(server, key, { onRetry: (why, ms) => progress.note(`${why}: retrying in ${Math.ceil(ms / 1000)}s`) })
  const pollMs = Math.max(50, Number(io.env.WARD_SCAN_POLL_MS) || 2000)

  // ---- Ctrl-C
  let interrupted = false
  let wake: (() => void) | null = null
  const stopListening = io.onInterrupt(() => {
    if (interrupted) {
      // A second Ctrl-C while asking or stopping: leave at once.
      progress.done()
      err('interrupted')
      process.exit(EXIT.INTERRUPTED)
    }
    interrupted = true
    wake?.()
  })
  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(() => ((wake = null), r()), ms)
      wake = () => {
        clearTimeout(t)
        wake = null
        r()
      }
    })

  let scanId: number | null = null
  try {
    // ---- the tool and its parameters
    let tools: ServerTool[] | null = null
    const tr = await client.request('GET', '/tools')
    if (tr.status === 200 && Array.isArray(tr.json?.data)) tools = tr.json.data as ServerTool[]
    else if (tr.status === 401 || tr.status === 403) throw new ServerError(tr.status, serverMessage(tr))
    // 404 (a server without GET /tools, like the public service): no local checking; the server decides.
    const toolId = resolveTool(toolArg, tools)
    if (toolId === null) {
      err(`unknown tool "${plain(toolArg)}": use ${Object.keys(TOOL_ALIASES).join(', ')}${tools ? `, ${tools.map((t) => `${t.id} (${plain(t.name)})`).join(', ')}` : ''} or an id`)
      return EXIT.USAGE
    }
    const tool = tools?.find((t) => t.id === toolId)
    if (tools && !tool) {
      err(`the server has no tool ${toolId}; it offers ${tools.map((t) => `${t.id} (${plain(t.name)})`).join(', ')}`)
      return EXIT.USAGE
    }
    let toolParams: Record<string, unknown> | undefined
    try {
      toolParams = !Object.keys(rawParams).length ? undefined : tool?.tool_params ? validateParams(tool.tool_params, rawParams) : guessTypes(rawParams)
    } catch (e) {
      if (e instanceof ParamError) {
        err(e.message)
        return EXIT.USAGE
      }
      throw e
    }
    const toolName = tool?.name ?? TOOL_LABELS[toolId] ?? `tool ${toolId}`
    if (interrupted) {
      err('interrupted before the scan was started')
      return EXIT.INTERRUPTED
    }

    // ---- start
    const created = await client.data<{ created_id: number }>('POST', '/scans', {
      tool_id: toolId,
      target_name: target,
      ...(workspace !== undefined ? { workspace_id: workspace } : {}),
      ...(maxScanTime !== undefined ? { max_scan_time: maxScanTime } : {}),
      ...(toolParams ? { tool_params: toolParams } : {}),
    })
    scanId = Number(created?.created_id)
    if (!Number.isInteger(scanId) || scanId < 1) throw new ServerError(502, 'the server did not say which scan it created')
    progress.note(`scan ${scanId} started: ${plain(toolName)} on ${plain(target)} (${shownUrl(client.base)})`)
    if (opts.wait === false && !interrupted) {
      io.stdout.write(`${scanId}\n`)
      return EXIT.OK
    }

    // ---- follow
    const started = Date.now()
    let s: ScanBody | null = null
    let timedOut = false
    for (;;) {
      if (interrupted) {
        progress.done()
        return await onInterrupt(scanId)
      }
      s = await client.data<ScanBody>('GET', `/scans/${scanId}`)
      const rs = s?.result_summary ?? {}
      const state: ProgressState = {
        scanId,
        status: String(s?.status_name ?? 'unknown'),
        progress: Number(s?.progress) || 0,
        tests: Number(s?.num_tests) || 0,
        testsDone: Number(s?.num_finished_tests) || 0,
        elapsedS: (Date.now() - started) / 1000,
        counts: { critical: Number(rs.critical) || 0, high: Number(rs.high) || 0, medium: Number(rs.medium) || 0, low: Number(rs.low) || 0, info: Number(rs.info) || 0 },
        message: typeof s?.status_message === 'string' ? s.status_message : undefined,
        etaS: typeof s?.eta_seconds === 'number' ? s.eta_seconds : null,
      }
      progress.update(state)
      if (!ACTIVE.has(state.status)) break
      if (timeoutMs !== null && Date.now() - started >= timeoutMs) {
        timedOut = true
        progress.done()
        progress.note(`timed out after ${clock(timeoutMs / 1000)}: stopping scan ${scanId}`)
        await client.request('POST', `/scans/${scanId}/stop`).catch(() => null)
        // Give the stop a moment to land so the report holds what the scan found until now.
        for (let i = 0; i < 10 && ACTIVE.has(String(s?.status_name)); i++) {
          await sleep(Math.min(pollMs, 1000))
          s = await client.data<ScanBody>('GET', `/scans/${scanId}`).catch(() => s)
        }
        break
      }
      await sleep(pollMs)
    }
    progress.done()

    // ---- results
    const out = await client.data<{ output_data?: { findings?: WireFinding[] } }>('GET', `/scans/${scanId}/output`)
    const findings: WireFinding[] = Array.isArray(out?.output_data?.findings) ? out!.output_data!.findings! : []
    const tr2 = await client.request('GET', `/scans/${scanId}/tests`)
    const tests: WireTest[] = tr2.status === 200 && Array.isArray(tr2.json?.data) ? tr2.json.data : []
    const info: ScanInfo = {
      id: scanId,
      target,
      tool_id: toolId,
      tool_name: toolName,
      status_name: String(s?.status_name ?? 'unknown'),
      status_message: s?.status_message ? String(s.status_message) : undefined,
      start_time: s?.start_time ?? null,
      end_time: s?.end_time ?? null,
      duration: Number(s?.duration) || 0,
      server: shownUrl(server),
    }
    for (let i = 0; i < formats.length; i++) {
      const text = WRITERS[formats[i]!](info, findings, tests, failOn)
      const file = outputs[i]
      if (file === undefined) io.stdout.write(text)
      else {
        try {
          mkdirSync(dirname(file), { recursive: true })
          writeFileSync(file, text)
        } catch (e) {
          err(`cannot write ${file}: ${(e as Error).message}`)
          return EXIT.NOT_FINISHED
        }
        progress.note(`wrote ${formats[i]} to ${file}`)
      }
    }

    // ---- verdict
    const counts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 }
    for (const f of findings) counts[severityOf(f.risk_level)]++
    const hits = failOn ? findings.filter((f) => levelOf(severityOf(f.risk_level)) >= levelOf(failOn)).length : 0
    const finished = info.status_name === 'finished'
    const head = `scan ${scanId} ${plain(info.status_name)}${info.status_message ? ` (${plain(info.status_message)})` : ''} after ${clock(info.duration ?? 0)}: ${findings.length} finding(s): ${countsText(counts)}`
    if (!opts.quiet) io.stderr.write(head + '\n')
    // Findings at or above the threshold are a certain verdict even when the scan did not finish.
    if (hits) {
      err(`${hits} finding(s) at or above ${failOn}: failing (exit 1)`)
      return EXIT.THRESHOLD
    }
    if (timedOut) {
      err(`gave up waiting after ${clock(timeoutMs! / 1000)} (exit 2)`)
      return EXIT.NOT_FINISHED
    }
    if (!finished) {
      err(`the scan did not finish: ${plain(info.status_name)} (exit 2)`)
      return EXIT.NOT_FINISHED
    }
    if (failOn && !opts.quiet) io.stderr.write(`no finding at or above ${failOn}\n`)
    return EXIT.OK
  } catch (e) {
    progress.done()
    if (e instanceof ServerError) {
      err(`the server refused: ${e.message}`)
      return EXIT.NOT_FINISHED
    }
    if (e instanceof NetworkError) {
      err(`${e.message}${scanId ? ` (scan ${scanId} may still be running)` : ''}`)
      return EXIT.NOT_FINISHED
    }
    throw e
  } finally {
    stopListening()
  }

  async function onInterrupt(id: number): Promise<number> {
    const canAsk = !opts.yes && !!io.stdin.isTTY && !!io.stderr.isTTY
    let stop = true
    if (canAsk) {
      const rl = createInterface({ input: io.stdin, output: io.stderr })
      // The terminal is in raw mode while asking: a second Ctrl-C arrives here, and means "just leave".
      const answer = await new Promise<string>((r) => {
        rl.once('SIGINT', () => r(''))
        rl.question(`Stop scan ${id} on the server? [y/N] `, r)
      })
      rl.close()
      stop = /^y(es)?$/i.test(answer.trim())
    }
    if (stop) {
      const r = await client.request('POST', `/scans/${id}/stop`).catch(() => null)
      err(r && r.status === 204 ? `interrupted: scan ${id} stopped` : `interrupted: could not stop scan ${id}${r ? ` (${serverMessage(r)})` : ''}`)
    } else err(`interrupted: scan ${id} keeps running on the server`)
    return EXIT.INTERRUPTED
  }
}

/** Entry point of `ward scan` in the ward binary. */
export async function scanMain(argv: string[]): Promise<never> {
  // A reader that went away (`ward scan ... | head`) is not an error of the scan.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw e
  })
  const code = await runScan(argv, {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    onInterrupt(handler) {
      process.on('SIGINT', handler)
      return () => process.off('SIGINT', handler)
    },
  })
  // Let piped output drain before leaving.
  await new Promise<void>((r) => process.stdout.write('', () => r()))
  process.exit(code)
}
