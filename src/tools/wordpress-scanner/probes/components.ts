// Plugin readmes (readme.txt, else README.txt) and theme stylesheets, fetched for the slugs to check.
import type { Fetcher } from '../../lib/http/fetch.js'
import { mapLimit } from '../../../toolkit/limit.js'
import { answerOf, type Answer } from '../../lib/cms/answer.js'

export interface ComponentFiles {
  slug: string
  /** readme.txt (plugins) or style.css (themes), when it answered 200. */
  file: Answer | null
}

/** readme.txt of each plugin slug under wp-content/plugins/. */
export async function fetchPluginReadmes(
  fetch: Fetcher,
  base: URL,
  slugs: readonly string[],
  concurrency: number,
  signal: AbortSignal,
  onDone?: () => void,
): Promise<ComponentFiles[]> {
  const out = await mapLimit(slugs, concurrency, signal, async (slug) => {
    let file: Answer | null = null
    for (const name of ['readme.txt', 'README.txt']) {
      const a = await answerOf(fetch, new URL(`wp-content/plugins/${slug}/${name}`, base).href)
      if (a?.status === 200) {
        file = a
        break
      }
      if (a && a.status !== 404) break // a refusal (403) or anything else: the other spelling will not differ
    }
    onDone?.()
    return { slug, file }
  })
  return out.filter((x): x is ComponentFiles => !!x)
}

/** style.css of each theme slug under wp-content/themes/. */
export async function fetchThemeStyles(
  fetch: Fetcher,
  base: URL,
  slugs: readonly string[],
  concurrency: number,
  signal: AbortSignal,
): Promise<ComponentFiles[]> {
  const out = await mapLimit(slugs, concurrency, signal, async (slug) => {
    const a = await answerOf(fetch, new URL(`wp-content/themes/${slug}/style.css`, base).href)
    return { slug, file: a?.status === 200 ? a : null }
  })
  return out.filter((x): x is ComponentFiles => !!x)
}
