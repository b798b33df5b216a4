// Real Ward processes (`node bin/ward.js <role>`) for fault tests: start, wait for readiness, kill.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export interface WardProc {
  role: string
  proc: ChildProcess
  pid: number
  /** http://127.0.0.1:port for serve/all, null for worker. */
  base: string | null
  output(): string
  exited: Promise<{ code: number | null; signal: string | null }>
}

/** Starts a Ward role; resolves once it listens (serve/all) or has started its worker. */
export async function startProc(role: 'serve' | 'worker' | 'all', env: Record<string, string>, timeoutMs = 30000): Promise<WardProc> {
  const proc = spawn(process.execPath, [path.join(ROOT, 'bin/ward.js'), role], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', WARD_ENABLE_DIAGNOSTIC_TOOL: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout!.on('data', (d) => (out += d))
  proc.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => proc.on('exit', (code, signal) => r({ code, signal })))
  const base = await new Promise<string | null>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`ward ${role} did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs)
    // serve/all print the URL they listen on; a worker prints "Ward worker <id> started".
    const check = () => {
      const m = /listening on (http:\/\/[^/\s]+)/.exec(out)
      if (m || (role === 'worker' && /Ward worker \S+ started/.test(out))) {
        clearTimeout(t)
        proc.stdout!.off('data', check)
        resolve(m ? m[1]! : null)
      }
    }
    proc.stdout!.on('data', check)
    void exited.then(({ code, signal }) => reject(new Error(`ward ${role} exited early (${code ?? signal}):\n${out}`)))
  })
  return { role, proc, pid: proc.pid!, base, output: () => out, exited }
}

export async function stopProc(p: WardProc, signal: NodeJS.Signals = 'SIGTERM', ms = 10000) {
  if (p.proc.exitCode !== null || p.proc.signalCode !== null) return
  p.proc.kill(signal)
  const t = setTimeout(() => p.proc.kill('SIGKILL'), ms)
  await p.exited
  clearTimeout(t)
}

export async function api(base: string, key: string, method: string, url: string, body?: unknown) {
  const r = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await r.text()
  let json: any = null
  try {
    json = JSON.parse(text)
  } catch {
    json = null
  }
  return { status: r.status, json, text }
}
