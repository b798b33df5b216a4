// xmlrpc.php: does it answer calls, and which methods does it list (system.listMethods changes nothing).
import type { Fetcher } from '../../lib/http/fetch.js'
import { answerOf, type Answer } from '../../lib/cms/answer.js'

const LIST_METHODS = '<?xml version="1.0"?><methodCall><methodName>system.listMethods</methodName><params></params></methodCall>'

export async function fetchXmlrpc(fetch: Fetcher, base: URL): Promise<{ listMethods: Answer | null }> {
  const url = new URL('xmlrpc.php', base).href
  return { listMethods: await answerOf(fetch, url, { method: 'POST', body: LIST_METHODS, headers: { 'content-type': 'text/xml' } }) }
}
