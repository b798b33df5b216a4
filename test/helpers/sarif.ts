// The official SARIF validator (npm @microsoft/sarif-multitool, a .NET binary shipped inside the
// package) run on a file: JSON schema and the SARIF rules. Returns its error and warning lines.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const require = createRequire(import.meta.url)

export async function validateSarif(file: string): Promise<{ ok: boolean; errors: string[]; warnings: string[]; output: string }> {
  const bin = require('@microsoft/sarif-multitool') as string
  const dir = mkdtempSync(join(tmpdir(), 'ward-sarif-'))
  try {
    const output = await new Promise<string>((resolve) => {
      execFile(
        bin,
        ['validate', file, '--output', join(dir, 'validation.sarif')],
        { timeout: 120_000, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } },
        (_e, stdout, stderr) => resolve(String(stdout) + String(stderr)),
      )
    })
    const lines = output.split('\n')
    const errors = lines.filter((l) => /: error /.test(l) || /Catastrophic|Unhandled exception/i.test(l))
    const warnings = lines.filter((l) => /: warning /.test(l))
    return { ok: errors.length === 0 && /Analysis completed successfully/.test(output), errors, warnings, output }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
