// Shared by the template engine tests: load a YAML template and run it against a test-bed URL
// through the real direct egress (its scope guard) and a per-host limiter.
import assert from 'node:assert/strict'
import { before, after } from 'node:test'
import { startTemplateSite, type TemplateSite } from '../../testbed/template-site.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { parseScope } from '../../../src/toolkit/scope.js'
import { HostLimiters } from '../../../src/tools/lib/http/rate-limit.js'
import {
  createTemplateSender,
  loadTemplate,
  runTemplate,
  type RequestCluster,
  type Template,
  type TemplateOutcome,
} from '../../../src/tools/lib/templates/index.js'
import type { RedirectLevel } from '../../../src/toolkit/tool.js'

/** The bed's blocked neighbour: the scope guard refuses it (scope tests prove nothing arrives there). */
export const BLOCKED_HOST = '127.0.61.9'
export const egress = createDirectEgress(parseScope('WARD_TARGET_BLOCKLIST', `${BLOCKED_HOST}/32`))

export function load(yaml: string, files: Record<string, string> = {}): Template {
  const r = loadTemplate(yaml, { path: 'test.yaml', readFile: (ref) => files[ref] ?? null })
  if (!r.ok) assert.fail(`template did not load: ${r.reason}`)
  return r.template
}

export async function run(
  t: Template | string,
  target: string,
  o: { cluster?: RequestCluster; redirectLevel?: RedirectLevel; signal?: AbortSignal } = {},
): Promise<TemplateOutcome> {
  const template = typeof t === 'string' ? load(t) : t
  const signal = o.signal ?? new AbortController().signal
  return runTemplate(template, {
    target: new URL(target),
    send: createTemplateSender(egress, signal, new HostLimiters(1000)),
    redirectLevel: o.redirectLevel ?? 'same_host',
    cluster: o.cluster,
    signal,
  })
}

/** A template of one GET request with the given matcher/extractor lines (YAML, indented by 4). */
export const get = (id: string, path: string, body: string, extra = '') => `id: ${id}
info:
  name: ${id} test
  author: ward
  severity: medium
  tags: test
http:
  - method: GET
    path:
      - "{{BaseURL}}${path}"
${extra}${body}`

/** Starts the template bed before the file's tests and closes it (and the egress) after them. */
export function useTemplateSite(): { readonly site: TemplateSite } {
  const holder = {} as { site: TemplateSite }
  before(async () => {
    holder.site = await startTemplateSite()
  })
  after(async () => {
    await holder.site.close()
    await egress.close()
  })
  return holder
}
