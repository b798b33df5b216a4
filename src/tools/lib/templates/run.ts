// One template against one target: its outcome is matched (with what), clean, or an error whose
// message says why (a hostile regex, too many payloads, a request off the target, no answer).
import type { Template } from './model.js'
import { extractorNames, runHttpTemplate, type TemplateHttpEnv, type TemplateMatch, TemplateScopeError } from './http.js'
import { createRegexRunner, RegexError, type RegexRunner } from './regex.js'
import { runTcpTemplate, type TemplateTcpEnv } from './tcp.js'
import { runSslTemplate, type TemplateSslEnv } from './ssl.js'
import { runDnsTemplate, type TemplateDnsEnv } from './dns.js'
import { PayloadLimitError } from './payloads.js'
import { UnresolvedError } from './interpolate.js'
import { DslError } from './dsl-parse.js'

export type TemplateOutcome =
  | { status: 'matched'; matches: TemplateMatch[]; requests: number }
  | { status: 'clean'; requests: number }
  | { status: 'error'; message: string; requests: number }
  | { status: 'skipped'; reason: string; requests: number }

/** Regex work one template may spend on one target. */
export const REGEX_BUDGET_MS = 3000

export async function runTemplate(t: Template, env: TemplateHttpEnv): Promise<TemplateOutcome> {
  if (t.protocol !== 'http') return { status: 'skipped', reason: `${t.protocol} templates are not run by this tool`, requests: 0 }
  return outcomeOf(t, env.signal, (regex, stats) => runHttpTemplate(t, env, regex, stats))
}

/** A tcp/network template against one open port of the target. */
export const runTcpProtocol = (t: Template, env: TemplateTcpEnv) =>
  t.protocol !== 'tcp' ? wrongProtocol(t) : outcomeOf(t, env.signal, (regex, stats) => runTcpTemplate(t, env, regex, stats))

/** An ssl template against one TLS port of the target. */
export const runSslProtocol = (t: Template, env: TemplateSslEnv) =>
  t.protocol !== 'ssl' ? wrongProtocol(t) : outcomeOf(t, env.signal, (regex, stats) => runSslTemplate(t, env, regex, stats))

/** A dns template for one name, asked of the scan's resolver. */
export const runDnsProtocol = (t: Template, env: TemplateDnsEnv) =>
  t.protocol !== 'dns' ? wrongProtocol(t) : outcomeOf(t, env.signal, (regex, stats) => runDnsTemplate(t, env, regex, stats))

const wrongProtocol = async (t: Template): Promise<TemplateOutcome> => ({
  status: 'skipped',
  reason: `${t.protocol} templates are not run by this tool`,
  requests: 0,
})

/** Runs one protocol's matcher over a template and turns what happened into its outcome. */
async function outcomeOf(
  t: Template,
  signal: AbortSignal,
  run: (regex: RegexRunner, stats: { requests: number; failures: string[] }) => Promise<TemplateMatch[]>,
): Promise<TemplateOutcome> {
  const stats = { requests: 0, failures: [] as string[] }
  try {
    const matches = await run(createRegexRunner(REGEX_BUDGET_MS), stats)
    if (matches.length) return { status: 'matched', matches, requests: stats.requests }
    // Not one answer: the template could not be evaluated, which is not "clean".
    if (stats.requests > 0 && stats.failures.length >= stats.requests && !signal.aborted)
      return { status: 'error', message: `no response: ${stats.failures[0]}`, requests: stats.requests }
    return { status: 'clean', requests: stats.requests }
  } catch (e) {
    const missing = e instanceof UnresolvedError ? e.variable : undefined
    if (missing && !definedBy(t).has(missing))
      return {
        status: 'skipped',
        reason: `needs the variable ${missing}, which the template leaves to the user (nuclei's -var): give it in tool_params.templates.variables`,
        requests: stats.requests,
      }
    if (
      e instanceof RegexError ||
      e instanceof PayloadLimitError ||
      e instanceof UnresolvedError ||
      e instanceof DslError ||
      e instanceof TemplateScopeError
    )
      return { status: 'error', message: e.message, requests: stats.requests }
    if (signal.aborted) return { status: 'error', message: 'scan stopped', requests: stats.requests }
    return { status: 'error', message: (e as Error).message, requests: stats.requests }
  }
}

/** The names a template gives values to itself: its variables, payloads and named extractors. */
function definedBy(t: Template): Set<string> {
  const names = extractorNames(t)
  for (const k of Object.keys(t.variables)) names.add(k)
  for (const b of t.http) for (const k of Object.keys(b.payloads)) names.add(k)
  return names
}
