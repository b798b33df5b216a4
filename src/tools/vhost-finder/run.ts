// Tool 160, Find Virtual Hosts: gathers candidate names, learns how the target's address answers its
// default name and random names, then sends every candidate as Host and keeps the ones answered with
// a site of their own. The sequence only: I/O is in probes/, decisions in detect/.
import { HTTP_TIMEOUT_MS } from '../../toolkit/timeouts.js'
import { setMaxListeners } from 'node:events'
import { defineTool, type TestHandle } from '../../toolkit/tool.js'
import { TargetUnreachableError } from '../../toolkit/errors.js'
import { ipVersion, targetHost } from '../../toolkit/ip.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import { mapLimit } from '../../toolkit/limit.js'
import { createFetcher } from '../lib/http/fetch.js'
import { HostLimiters } from '../lib/http/rate-limit.js'
import { randomWord } from '../lib/http/soft404.js'
import { vhostFinderManifest } from './manifest.js'
import { vhostDiscovered, vhostInternalExposed } from './checks.js'
import { VHOST_WORDS } from './data/words.js'
import { findEndpoints, type Endpoint } from './probes/endpoints.js'
import { presentedCertificate } from './probes/certificate.js'
import { reverseDnsNames } from './probes/reverse-dns.js'
import { workspaceNames } from './probes/known-names.js'
import { hostHeader, requestAs } from './probes/host-request.js'
import { certificateNames } from './detect/cert-names.js'
import { baseDomains, buildCandidates, type Candidate } from './detect/candidates.js'
import { isVirtualHost, shapeOf, type AnswerShape } from './detect/answer.js'
import { internalMarker } from './detect/internal.js'
import { byNameAndPort, vhostEntry, type VhostEntry } from './output.js'

export const vhostFinder = defineTool(vhostFinderManifest, async (ctx) => {
  const p = ctx.params
  const signal = ctx.signal
  setMaxListeners(p.concurrency * 2 + 32, signal) // one abort listener per request in flight or waiting for its slot
  const endpoints = await findEndpoints(ctx, p.ports)
  if (signal.aborted) return
  if (!endpoints.length) throw new TargetUnreachableError(`${ctx.target.name}: no HTTP(S) endpoint on port ${p.ports.join(', ')}`)
  for (const e of endpoints) ctx.log(`endpoint ${e.scheme}://${e.host}:${e.port}`)

  // ---- candidate names
  const host = targetHost(ctx.target.name).toLowerCase()
  const targetName = ipVersion(host) ? null : host
  const certNames = new Set<string>()
  for (const e of endpoints.filter((x) => x.scheme === 'https')) {
    const c = await presentedCertificate(ctx.net, e, targetName ?? undefined, signal)
    if (c) for (const n of certificateNames(c.subject, c.subjectAltName)) certNames.add(n)
  }
  ctx.log(`certificate names: ${[...certNames].join(', ') || 'none'}`)
  const ptr = await reverseDnsNames(ctx.net, ctx.target.name, ctx.settings.dnsResolver, signal)
  ctx.log(`reverse DNS (${ptr.note}): ${ptr.names.join(', ') || 'none'}`)
  const known = p.known_names ? await workspaceNames(ctx) : []
  ctx.log(`names known in the workspace: ${known.length}`)
  const domains = baseDomains([...(targetName ? [targetName] : []), ...certNames, ...ptr.names], p.domains)
  ctx.log(`base domains for the prefixes: ${domains.join(', ') || 'none (prefixes are tried alone)'}`)
  const candidates = buildCandidates({
    targetName,
    certificate: [...certNames],
    reverseDns: ptr.names,
    workspace: known,
    words: [...VHOST_WORDS, ...p.wordlist],
    extraWords: p.wordlist,
    domains,
  })
  ctx.log(`${candidates.length} candidate names × ${endpoints.length} endpoint(s), concurrency ${p.concurrency}, ${p.rate_limit} req/s`)

  const discovery = await ctx.test(
    'Virtual host discovery',
    `Sends ${candidates.length} candidate names as Host to ${ctx.target.name} and lists those served with a site of their own.`,
  )
  const internal = await ctx.test(
    'Internal virtual hosts',
    'Reports virtual hosts whose names mark them as development, staging, test, administration or internal sites.',
  )
  const fetch = createFetcher(ctx.net, signal, { timeoutMs: HTTP_TIMEOUT_MS }, undefined, new HostLimiters(p.rate_limit))

  // ---- per endpoint: baselines, then every candidate
  const found: VhostEntry[] = []
  let done = 0
  const total = candidates.length * endpoints.length
  for (const e of endpoints) {
    if (signal.aborted) break
    const baselines = await learnBaselines(fetch, e, targetName ?? host, domains)
    if (!baselines.length) {
      ctx.log(`${e.scheme}://${e.host}:${e.port}: no baseline answer, endpoint skipped`)
      done += candidates.length
      continue
    }
    await mapLimit(candidates, p.concurrency, signal, async (c) => {
      const a = await requestAs(fetch, e, c.name)
      ctx.progress(++done, total)
      if (!a || !isVirtualHost(shapeOf(a, c.name), baselines)) return
      const entry = vhostEntry(c.name, e, a)
      found.push(entry)
      ctx.log(
        `vhost ${hostHeader(c.name, e)} on ${e.scheme}: ${a.status}, ${a.size} bytes${entry.title ? `, "${entry.title}"` : ''} (from ${c.sources.join(', ')})`,
      )
      await report(discovery, internal, entry, c, e)
    })
  }
  found.sort(byNameAndPort)
  ctx.output('vhosts', found)
  ctx.log(`${found.length} virtual host(s) found with ${fetch.count} requests`)
  const incomplete = signal.aborted ? 'the scan was stopped before every candidate was tried' : undefined
  for (const t of [discovery, internal]) await (incomplete ? t.error(incomplete) : t.done())
})

/** The default name's answer and random names' (one per base domain and one alone): what "no site of its own" looks like. */
async function learnBaselines(
  fetch: ReturnType<typeof createFetcher>,
  e: Endpoint,
  defaultName: string,
  domains: readonly string[],
): Promise<AnswerShape[]> {
  const random = randomWord(12)
  const names = [defaultName, random, ...domains.map((d) => `${random}.${d}`)]
  const shapes: AnswerShape[] = []
  for (const n of names) {
    const a = await requestAs(fetch, e, n)
    if (a) shapes.push(shapeOf(a, n))
  }
  return shapes
}

async function report(discovery: TestHandle, internal: TestHandle, v: VhostEntry, c: Candidate, e: Endpoint): Promise<void> {
  const where = { port: e.port, protocol: 'tcp' as const, service: e.scheme, location: v.name }
  const evidence = tableEvidence(
    ['Name', 'Scheme', 'Port', 'Status', 'Title', 'Size', 'Redirect', 'Found through'],
    [[v.name, v.scheme, v.port, v.status, v.title, v.size, v.redirect ?? '', c.sources.join(', ')]],
  )
  await discovery.finding({
    check: vhostDiscovered,
    ...where,
    detail: `${v.name} answers on ${e.host}:${e.port} (${v.scheme}) with ${v.status}${v.title ? ` "${v.title}"` : ''}.`,
    evidence,
  })
  const marker = internalMarker(v.name)
  if (!marker) return
  // A site that shows itself (2xx, 3xx) is the medium case; one that asks for credentials or refuses still exists publicly.
  const open = v.status < 400
  await internal.finding({
    check: vhostInternalExposed,
    ...where,
    risk: open ? 'medium' : 'low',
    detail:
      `${v.name} ("${marker}") answers publicly on ${e.host}:${e.port} with ${v.status}` +
      `${open ? '' : ' (access is refused or needs credentials, but the site exists)'}.`,
    evidence,
  })
}
