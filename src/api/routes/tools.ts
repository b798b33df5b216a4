// GET /tools: the tools this Ward serves, with the JSON schema of each tool's tool_params, so a client
// (or a form) can offer exactly what POST /scans accepts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Data, routeDoc } from '../schemas/common.js'

const doc = routeDoc('tools')

const ToolInfo = Type.Object({
  id: Type.Integer({ description: 'the tool_id of POST /scans' }),
  name: Type.String(),
  description: Type.String(),
  tool_params: Type.Unknown({ description: 'JSON schema of tool_params' }),
  supports_max_scan_time: Type.Boolean(),
})

export const toolRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Manifests only: listing the tools loads no scanner. Built once: TypeBox schemas are JSON Schema
  // plus symbol keys, and a JSON round trip leaves the schema.
  const tools = [...app.ward.tools.all()]
    .sort((a, b) => a.id - b.id)
    .map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      tool_params: JSON.parse(JSON.stringify(t.params)) as unknown,
      supports_max_scan_time: t.supportsMaxScanTime,
    }))
  app.get('/tools', {
    schema: {
      ...doc('The scanning tools this server runs, with the schema of their tool_params', { 200: Data(Type.Array(ToolInfo)) }, [401, 429]),
    },
    handler: async () => ({ data: tools }),
  })
}
