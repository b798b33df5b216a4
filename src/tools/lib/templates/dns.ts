// Runs the dns blocks of one template for one name: the question goes to the scan's own resolver
// (never the system's), and the answer is matched as nuclei shows it (dig-like text per section).
import type { HostLimiters } from '../http/rate-limit.js'
import type { DnsMessage, DnsRecord } from '../dns/message.js'
import { rcodeName, TYPE, typeName } from '../dns/message.js'
import type { Template } from './model.js'
import type { RegexRunner } from './regex.js'
import { interpolate, RunVars } from './interpolate.js'
import { TemplateScopeError, type TemplateMatch } from './http.js'
import { matchProtoResponse } from './proto-match.js'
import type { ProtoRunStats } from './tcp.js'

export interface TemplateDnsEnv {
  /** The name the template runs for ({{FQDN}}). */
  fqdn: string
  /** The domain whose names templates may ask about (the scan's target domain). */
  domain: string
  query(name: string, type: number, o: { class: number; rd: boolean; signal: AbortSignal }): Promise<DnsMessage>
  signal: AbortSignal
  /** The scan's pace (tool_params.rate_limit), keyed by the domain: every query goes to its one resolver. */
  limiter?: HostLimiters
}

/** {{FQDN}}, {{RDN}} (registered domain, approximated by the last two labels), {{DN}}, {{TLD}}, {{SD}}. */
export function dnsVars(fqdn: string): Record<string, string> {
  const labels = fqdn.split('.')
  const rdn = labels.slice(-2).join('.')
  return {
    FQDN: fqdn,
    Hostname: fqdn,
    Host: fqdn,
    RDN: rdn,
    DN: labels.length >= 2 ? labels[labels.length - 2]! : fqdn,
    TLD: labels[labels.length - 1]!,
    SD: labels.slice(0, -2).join('.'),
  }
}

const NAME_TYPES = new Set<number>([TYPE.CNAME, TYPE.NS, TYPE.PTR, TYPE.DNAME])
const CLASS_NAMES: Record<number, string> = { 1: 'IN', 2: 'CS', 3: 'CH', 4: 'HS', 254: 'NONE', 255: 'ANY' }
const fq = (n: string) => (n.endsWith('.') ? n : `${n}.`)

/** A record as dig and nuclei print it: owner, TTL, class, type, data with absolute names. */
function rrText(r: DnsRecord): string {
  let data = r.data
  if (NAME_TYPES.has(r.type)) data = fq(data)
  else if (r.type === TYPE.MX) data = data.replace(/^(\d+)\s+(\S+)$/, (_, p: string, n: string) => `${p} ${fq(n)}`)
  else if (r.type === TYPE.SOA) data = data.replace(/^(\S+)\s+(\S+)/, (_, a: string, b: string) => `${fq(a)} ${fq(b)}`)
  else if (r.type === TYPE.TXT || r.type === TYPE.SPF) data = `"${data.replace(/"/g, '\\"')}"`
  return `${fq(r.name)}\t${r.ttl}\t${CLASS_NAMES[r.class] ?? `CLASS${r.class}`}\t${typeName(r.type)}\t${data}`
}

/** The message as miekg/dns prints it (what nuclei's `raw` part holds). */
function messageText(m: DnsMessage): string {
  const f = m.flags
  const flags = ['qr', 'aa', 'tc', 'rd', 'ra'].filter((k) => f[k as keyof typeof f]).join(' ')
  const section = (title: string, rs: DnsRecord[]) => (rs.length ? `\n;; ${title} SECTION:\n${rs.map(rrText).join('\n')}\n` : '')
  const q = m.questions.map((x) => `;${fq(x.name)}\t${CLASS_NAMES[x.class] ?? x.class}\t ${typeName(x.type)}`).join('\n')
  return (
    `;; opcode: QUERY, status: ${rcodeName(f.rcode)}, id: ${m.id}\n` +
    `;; flags: ${flags}; QUERY: ${m.questions.length}, ANSWER: ${m.answers.length}, AUTHORITY: ${m.authorities.length}, ADDITIONAL: ${m.additionals.length}\n` +
    `\n;; QUESTION SECTION:\n${q}\n` +
    section('ANSWER', m.answers) +
    section('AUTHORITY', m.authorities) +
    section('ADDITIONAL', m.additionals)
  )
}

const inDomain = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`)

export async function runDnsTemplate(t: Template, env: TemplateDnsEnv, regex: RegexRunner, stats: ProtoRunStats): Promise<TemplateMatch[]> {
  const vars = new RunVars(Object.entries(dnsVars(env.fqdn)))
  for (const [k, v] of Object.entries(t.variables)) vars.set(k, interpolate(v, { vars, regex }))
  const matches: TemplateMatch[] = []
  for (const block of t.dns ?? []) {
    if (env.signal.aborted) break
    const name = interpolate(block.name, { vars, regex }).trim().replace(/\.$/, '').toLowerCase()
    if (!inDomain(name, env.domain))
      throw new TemplateScopeError(`question about ${name.slice(0, 100)} refused: templates only ask about names under ${env.domain}`)
    stats.requests++
    let reply: DnsMessage
    try {
      await env.limiter?.take(env.domain, env.signal)
      reply = await env.query(name, block.type, { class: block.class, rd: block.recursion, signal: env.signal })
    } catch (e) {
      if (env.signal.aborted) throw e
      stats.failures.push(`${name} ${typeName(block.type)}: ${(e as Error).message}`)
      continue
    }
    const raw = messageText(reply)
    const question = `${fq(name)}\t${CLASS_NAMES[block.class] ?? block.class}\t${typeName(block.type)}`
    const response = {
      rcode: reply.flags.rcode,
      question,
      answer: reply.answers.map(rrText).join('\n'),
      ns: reply.authorities.map(rrText).join('\n'),
      extra: reply.additionals.map(rrText).join('\n'),
      raw,
      body: raw,
      response: raw,
      all: raw,
      request: `;${question}`,
      type: typeName(block.type),
      host: name,
    }
    const answerList = reply.answers.length ? `: ${reply.answers.map((r) => `${typeName(r.type)} ${r.data}`).join(', ')}` : ''
    const m = matchProtoResponse(block, vars, response, regex, {
      requestLine: `DNS ${typeName(block.type)} ${name} → ${rcodeName(reply.flags.rcode)}${answerList}`.slice(0, 400),
      url: '',
    })
    if (m) {
      matches.push(m)
      if (t.stopAtFirstMatch) break
    }
  }
  return matches
}
