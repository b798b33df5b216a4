// Where WordPress gives user names away: /?author=N redirects, the REST API users list and oEmbed author data.
import type { Fetcher } from '../../lib/http/fetch.js'
import { answerOf, type Answer } from '../../lib/cms/answer.js'

export interface UserSources {
  authors: Array<{ id: number; answer: Answer | null }>
  rest: Answer | null
  oembed: Answer | null
}

export async function fetchUserSources(fetch: Fetcher, base: URL, maxAuthorIds: number): Promise<UserSources> {
  const authors: UserSources['authors'] = []
  for (let id = 1; id <= maxAuthorIds; id++) authors.push({ id, answer: await answerOf(fetch, new URL(`?author=${id}`, base).href) })
  const rest = await answerOf(fetch, new URL('wp-json/wp/v2/users?per_page=100', base).href)
  const oembed = await answerOf(fetch, new URL(`wp-json/oembed/1.0/embed?url=${encodeURIComponent(base.href)}`, base).href)
  return { authors, rest, oembed }
}
