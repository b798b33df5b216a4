// `ward scan <target>`: the CI client. Starts a scan on any server of the v2 interface (Ward, or the
// public service with the same API), follows it, writes the export formats and turns the findings into
// an exit code a pipeline can gate on. It needs no local database and reads no Ward configuration.
import { NetworkError, ServerError, V2Client, plain, serverMessage } from './client.js'
import { ParamError, guessTypes, validateParams } from './params.js'
import { createProgress, type Progress } from './progress.js'
import { resolveTool, TOOL_ALIASES, TOOL_LABELS, type ServerTool } from './tools.js'
import { EXIT, readOptions, type ScanIo, type ScanOptions } from './options.js'
import { follow, listenForInterrupts, stopOnInterrupt, type Interrupts } from './follow.js'
import { fetchResults, verdict, writeReports } from './results.js'

export { EXIT, parseDuration, type ScanIo } from './options.js'

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

interface ChosenTool {
  toolId: number
  toolName: string
  toolParams: Record<string, unknown> | undefined
}

const offered = (tools: ServerTool[]) => tools.map((t) => `${t.id} (${plain(t.name)})`).join(', ')

/** The tool and its parameters, checked against the server's GET /tools when it has one; else the exit code. */
async function chooseTool(client: V2Client, o: ScanOptions, err: (s: string) => void): Promise<ChosenTool | number> {
  let tools: ServerTool[] | null = null
  const tr = await client.request('GET', '/tools')
  if (tr.status === 200 && Array.isArray(tr.json?.data)) tools = tr.json.data as ServerTool[]
  else if (tr.status === 401 || tr.status === 403) throw new ServerError(tr.status, serverMessage(tr))
  // 404 (a server without GET /tools, like the public service): no local checking; the server decides.
  const toolId = resolveTool(o.toolArg, tools)
  if (toolId === null) {
    err(`unknown tool "${plain(o.toolArg)}": use ${Object.keys(TOOL_ALIASES).join(', ')}${tools ? `, ${offered(tools)}` : ''} or an id`)
    return EXIT.USAGE
  }
  const tool = tools?.find((t) => t.id === toolId)
  if (tools && !tool) {
    err(`the server has no tool ${toolId}; it offers ${offered(tools)}`)
    return EXIT.USAGE
  }
  try {
    const toolParams = !Object.keys(o.rawParams).length
      ? undefined
      : tool?.tool_params
        ? validateParams(tool.tool_params, o.rawParams)
        : guessTypes(o.rawParams)
    return { toolId, toolName: tool?.name ?? TOOL_LABELS[toolId] ?? `tool ${toolId}`, toolParams }
  } catch (e) {
    if (e instanceof ParamError) {
      err(e.message)
      return EXIT.USAGE
    }
    throw e
  }
}

async function startScan(client: V2Client, o: ScanOptions, tool: ChosenTool, progress: Progress): Promise<number> {
  const created = await client.data<{ created_id: number }>('POST', '/scans', {
    tool_id: tool.toolId,
    target_name: o.target,
    ...(o.workspace !== undefined ? { workspace_id: o.workspace } : {}),
    ...(o.maxScanTime !== undefined ? { max_scan_time: o.maxScanTime } : {}),
    ...(tool.toolParams ? { tool_params: tool.toolParams } : {}),
  })
  const scanId = Number(created?.created_id)
  if (!Number.isInteger(scanId) || scanId < 1) throw new ServerError(502, 'the server did not say which scan it created')
  progress.note(`scan ${scanId} started: ${plain(tool.toolName)} on ${plain(o.target)} (${shownUrl(client.base)})`)
  return scanId
}

interface Run {
  io: ScanIo
  o: ScanOptions
  client: V2Client
  progress: Progress
  interrupts: Interrupts
  err: (s: string) => void
  /** Set once the scan exists on the server, for the messages of a failure after that. */
  scanId: number | null
}

/** Tool, start, follow, reports, verdict: the exit code. */
async function scanAndJudge(r: Run): Promise<number> {
  const { io, o, client, progress, interrupts, err } = r
  const tool = await chooseTool(client, o, err)
  if (typeof tool === 'number') return tool
  if (interrupts.interrupted) {
    err('interrupted before the scan was started')
    return EXIT.INTERRUPTED
  }
  const scanId = (r.scanId = await startScan(client, o, tool, progress))
  if (!o.wait && !interrupts.interrupted) {
    io.stdout.write(`${scanId}\n`)
    return EXIT.OK
  }
  const pollMs = Math.max(50, Number(io.env.WARD_SCAN_POLL_MS) || 2000)
  const followed = await follow(scanId, { client, progress, interrupts, pollMs, timeoutMs: o.timeoutMs })
  progress.done()
  if (!followed) return stopOnInterrupt(scanId, io, client, o.yes, err)
  const results = await fetchResults(client, scanId, followed.s, {
    target: o.target,
    toolId: tool.toolId,
    toolName: tool.toolName,
    server: shownUrl(o.server),
  })
  return writeReports(results, o, io, progress, err) ?? verdict(results, o, followed.timedOut, io, err)
}

export async function runScan(argv: string[], io: ScanIo): Promise<number> {
  const err = (s: string) => io.stderr.write(`ward scan: ${s}\n`)
  const o = readOptions(argv, io, err)
  if (typeof o === 'number') return o
  const ci = io.env.CI === 'true' || io.env.CI === '1' || !io.stderr.isTTY
  const progress = createProgress(io.stderr, o.quiet ? 'quiet' : ci ? 'plain' : 'tty')
  const client = new V2Client(o.server, o.key, { onRetry: (why, ms) => progress.note(`${why}: retrying in ${Math.ceil(ms / 1000)}s`) })
  const run: Run = { io, o, client, progress, interrupts: listenForInterrupts(io, progress, err), err, scanId: null }
  try {
    return await scanAndJudge(run)
  } catch (e) {
    progress.done()
    if (e instanceof ServerError) {
      err(`the server refused: ${e.message}`)
      return EXIT.NOT_FINISHED
    }
    if (e instanceof NetworkError) {
      err(`${e.message}${run.scanId ? ` (scan ${run.scanId} may still be running)` : ''}`)
      return EXIT.NOT_FINISHED
    }
    throw e
  } finally {
    run.interrupts.stop()
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
