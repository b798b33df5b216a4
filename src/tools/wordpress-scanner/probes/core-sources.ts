// The pages WordPress tells its version on besides the home page: readme.html, the feed and the login page.
import type { Fetcher } from '../../lib/http/fetch.js'
import { answerOf, type Answer } from '../../lib/cms/answer.js'

export interface CoreSources {
  readme: Answer | null
  feed: Answer | null
  login: Answer | null
}

export async function fetchCoreSources(fetch: Fetcher, base: URL): Promise<CoreSources> {
  const [readme, feed, login] = await Promise.all(
    ['readme.html', 'feed/', 'wp-login.php'].map((p) => answerOf(fetch, new URL(p, base).href)),
  )
  return { readme: readme ?? null, feed: feed ?? null, login: login ?? null }
}
