// Tool ids the field's client knows that Ward does not run (decisions.md, "Tool ids"): a scan asking
// for one is refused with the reason, so a team moving to Ward learns why instead of "unknown tool".

export interface RefusedTool {
  id: number
  name: string
  /** Why Ward does not run it: completes "Ward does not run <name>: ...". */
  reason: string
}

export const REFUSED_TOOLS: readonly RefusedTool[] = [
  {
    id: 390,
    name: 'Domain Finder',
    reason:
      'it needs third-party data sources (WHOIS registries, reverse-WHOIS and passive-DNS services) that Ward does not query; ' +
      'add the domains you own as targets and use the Subdomain Finder (20) on each',
  },
  {
    id: 490,
    name: 'Sniper: exploitation',
    reason: 'it would run exploits against the target; Ward only detects vulnerabilities (by version and safe probes) and never exploits them',
  },
  {
    id: 520,
    name: 'Cloud Scanner',
    reason: 'it needs credentials of your cloud accounts (AWS, Azure, GCP) and reads their configuration through the providers\' APIs, which Ward does not hold or call',
  },
]

/** The refusal of `id`, or undefined when Ward does not refuse it (it runs it, or does not know it). */
export const refusedTool = (id: number): RefusedTool | undefined => REFUSED_TOOLS.find((t) => t.id === id)
