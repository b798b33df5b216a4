// Loads a dns block: the name to ask ({{FQDN}}), the record type and class, and recursion.
import type { DnsBlock } from './model.js'
import { bool, checkMarkers, skip, str } from './load-parts.js'
import { matchBlock } from './tcp-load.js'
import { TYPE } from '../dns/message.js'

const CLASSES: Record<string, number> = { inet: 1, in: 1, csnet: 2, chaos: 3, ch: 3, hesiod: 4, hs: 4, none: 254, any: 255 }

export function parseDnsBlock(b: Record<string, unknown>): DnsBlock {
  if ('payloads' in b) skip('payloads in dns requests are not supported')
  if (bool(b.trace)) skip('dns trace (walking the delegation from the root) is not supported: Ward asks only the scan resolver')
  const typeName = (str(b.type) || 'A').toUpperCase()
  if (!(typeName in TYPE) || typeName === 'AXFR') skip(`dns type ${JSON.stringify(typeName.slice(0, 20))} is not supported`)
  const cls = CLASSES[(str(b.class) || 'inet').toLowerCase()] ?? skip(`unknown dns class ${JSON.stringify(str(b.class).slice(0, 20))}`)
  const block: DnsBlock = {
    ...matchBlock(b, 'dns'),
    name: str(b.name) || skip('a dns request has no name'),
    type: TYPE[typeName as keyof typeof TYPE],
    class: cls,
    recursion: b.recursion === undefined ? true : bool(b.recursion),
  }
  checkMarkers([block.name])
  return block
}
