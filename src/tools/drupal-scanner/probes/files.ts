// The files and pages the Drupal Scanner reads: changelogs, update.php, install.php, user pages and
// module .info files. One GET each; the answers go to detect/.
import type { Fetcher } from '../../lib/http/fetch.js'
import { mapLimit } from '../../../toolkit/limit.js'
import { answerOf, type Answer } from '../../lib/cms/answer.js'

export interface CoreFiles {
  changelog: Answer | null
  coreChangelog: Answer | null
  update: Answer | null
  install: Answer | null
  coreInstall: Answer | null
}

export async function fetchCoreFiles(fetch: Fetcher, base: URL): Promise<CoreFiles> {
  const [changelog, coreChangelog, update, install, coreInstall] = await Promise.all(
    ['CHANGELOG.txt', 'core/CHANGELOG.txt', 'update.php', 'install.php', 'core/install.php'].map((p) =>
      answerOf(fetch, new URL(p, base).href),
    ),
  )
  return {
    changelog: changelog ?? null,
    coreChangelog: coreChangelog ?? null,
    update: update ?? null,
    install: install ?? null,
    coreInstall: coreInstall ?? null,
  }
}

export async function fetchUserPages(fetch: Fetcher, base: URL, maxIds: number): Promise<Array<{ id: number; answer: Answer | null }>> {
  const out: Array<{ id: number; answer: Answer | null }> = []
  for (let id = 1; id <= maxIds; id++) out.push({ id, answer: await answerOf(fetch, new URL(`user/${id}`, base).href) })
  return out
}

/** Where a module's .info file may be, Drupal 8+ first: modules/contrib/, modules/, sites/all/modules/. */
const MODULE_INFO = (slug: string) => [
  `modules/contrib/${slug}/${slug}.info.yml`,
  `modules/${slug}/${slug}.info.yml`,
  `sites/all/modules/${slug}/${slug}.info`,
  `sites/all/modules/contrib/${slug}/${slug}.info`,
]

/** The first .info file that answers 200 for each slug. */
export async function fetchModuleInfos(
  fetch: Fetcher,
  base: URL,
  slugs: readonly string[],
  concurrency: number,
  signal: AbortSignal,
): Promise<Array<{ slug: string; file: Answer | null }>> {
  const out = await mapLimit(slugs, concurrency, signal, async (slug) => {
    for (const p of MODULE_INFO(slug)) {
      const a = await answerOf(fetch, new URL(p, base).href)
      if (a?.status === 200) return { slug, file: a }
    }
    return { slug, file: null }
  })
  return out.filter((x): x is { slug: string; file: Answer | null } => !!x)
}
