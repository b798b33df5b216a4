// What a diagnostic step concludes: pure, from the step number and the parameters.
import { textEvidence } from '../../../toolkit/evidence.js'
import type { Hit } from '../../../toolkit/hit.js'
import { diagnosticCheck } from '../checks.js'
import type { DiagnosticParams } from '../params.js'

export type StepOutcome = { error: string } | { hits: Hit[] }

/** Step `n` (1-based): an error step, else a finding on odd steps that are not quiet, else a pass. */
export function stepOutcome(n: number, p: Pick<DiagnosticParams, 'error_steps' | 'quiet_steps'>): StepOutcome {
  if (p.error_steps.includes(n)) return { error: `step ${n} could not run (diagnostic)` }
  if (n % 2 === 1 && !p.quiet_steps.includes(n))
    return { hits: [{ check: diagnosticCheck, location: `step-${n}`, evidence: textEvidence(`step ${n}`) }] }
  return { hits: [] }
}
