// tool_params of the UDP Port Scanner: scanner-free, so the manifest can carry it.
import { Type } from '@sinclair/typebox'
import { PORTS_PATTERN } from './data/ports.js'

export const udpScannerParams = Type.Object(
  {
    ports: Type.String({
      default: 'top100',
      pattern: PORTS_PATTERN,
      description: "'top100' (Ward's UDP list), 'top1000', 'all', or a list like '53,161,1000-1010'",
    }),
    timeout_ms: Type.Integer({ default: 1500, minimum: 100, maximum: 30_000, description: 'Wait for an answer per attempt' }),
    retries: Type.Integer({ default: 1, minimum: 0, maximum: 10, description: 'Extra attempts before a silent port is open|filtered' }),
  },
  { additionalProperties: false },
)
