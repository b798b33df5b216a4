// tool_params of the TCP Port Scanner: scanner-free, so the manifest can carry it.
import { Type } from '@sinclair/typebox'
import { PORT_SPEC_PATTERN } from '../../toolkit/ports.js'

export const PortScannerParams = Type.Object(
  {
    ports: Type.String({
      default: 'top1000',
      pattern: PORT_SPEC_PATTERN,
      maxLength: 4096,
      description: '"top100", "top1000", "all", or a list of ports and ranges such as "22,80,8000-8100".',
    }),
    service_detection: Type.Boolean({ default: true, description: 'Probe each open port to name its service and version.' }),
    timeout_ms: Type.Optional(
      Type.Integer({ minimum: 50, maximum: 60_000, description: 'Longest wait for one connect, and for one service probe reply (ms).' }),
    ),
    concurrency: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 5000,
        description: 'Most probes in flight during discovery (default: 4096 SYNs, 1000 connects, 100 connects through a VPN profile).',
      }),
    ),
    max_rate: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description:
          'Most probes (SYNs or connects) sent per second during discovery, as nmap --max-rate; absent: paced only by the answers.',
      }),
    ),
    scan_method: Type.Union([Type.Literal('auto'), Type.Literal('syn'), Type.Literal('connect')], {
      default: 'auto',
      description:
        '"syn": half-open scan from a raw socket (needs root or CAP_NET_RAW on the worker, no VPN profile); ' +
        '"connect": full TCP connects; "auto": SYN where it can run, else connects.',
    }),
  },
  { additionalProperties: false },
)
