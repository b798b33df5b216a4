// GET /tools: the tools this Ward serves, with the JSON schema of each tool's tool_params, so a client
// (or a form) can offer exactly what POST /scans accepts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Data, errors } from '../schemas/common.js'
import { getTool, knownToolIds } from '../../tools/registry.js'

const TOOL_DESCRIPTIONS: Record<number, string> = {
  20: 'Finds the subdomains of a domain: DNS brute force with a word list, zone transfers, and the records that point elsewhere (takeover candidates, mail policy).',
  70: 'TCP connect scan of a host, then identification of the service and version on each open port.',
  80: 'UDP scan with protocol-specific probes (DNS, SNMP, NTP, ...), telling open ports from open|filtered ones.',
  90: 'Discovers hidden files and directories of a web site from a word list, with soft-404 detection.',
  170: 'Crawls a web site and checks it for vulnerabilities and misconfigurations (light: passive checks; deep: crawl and active tests).',
  350: 'Finds open TCP services, identifies their versions and checks them for known vulnerabilities and weak configurations.',
  450: 'Checks the SSL/TLS configuration of a server: protocol versions, cipher suites, certificate chain and known TLS weaknesses.',
}

const ToolInfo = Type.Object({
  id: Type.Integer({ description: 'the tool_id of POST /scans' }),
  name: Type.String(),
  description: Type.String(),
  tool_params: Type.Unknown({ description: 'JSON schema of tool_params' }),
  supports_max_scan_time: Type.Boolean(),
})

export const toolRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/tools', {
    schema: { tags: ['tools'], summary: 'The scanning tools this server runs, with the schema of their tool_params', response: { 200: Data(Type.Array(ToolInfo)), ...errors(401, 429) } },
    handler: async () => ({
      data: knownToolIds().flatMap((id) => {
        const t = getTool(id)
        if (!t) return []
        // TypeBox schemas are JSON Schema plus symbol keys; a JSON round trip leaves the schema.
        return [{ id: t.id, name: t.name, description: TOOL_DESCRIPTIONS[t.id] ?? '', tool_params: JSON.parse(JSON.stringify(t.params)) as unknown, supports_max_scan_time: t.supportsMaxScanTime }]
      }),
    }),
  })
}
