// Files and pages a WordPress site should not serve: wp-cron.php, the debug log, the uploads listing,
// copies of wp-config.php, installers and the registration form.
import type { Fetcher } from '../../lib/http/fetch.js'
import { mapLimit } from '../../../toolkit/limit.js'
import { answerOf, type Answer } from '../../lib/cms/answer.js'

/** Copies editors and deploy tools leave of wp-config.php. */
export const CONFIG_BACKUPS = [
  'wp-config.php.bak',
  'wp-config.php~',
  'wp-config.php.save',
  'wp-config.php.old',
  'wp-config.php.orig',
  'wp-config.bak',
  'wp-config.old',
  'wp-config.txt',
  '.wp-config.php.swp',
  'wp-config.php.txt',
]
export const INSTALLERS = ['wp-admin/install.php', 'wp-admin/setup-config.php', 'installer.php', 'installer-backup.php']

export interface Exposures {
  cron: Answer | null
  debugLog: Answer | null
  uploads: Answer | null
  configBackups: Answer[]
  installers: Answer[]
  register: Answer | null
}

export async function fetchExposures(fetch: Fetcher, base: URL, concurrency: number, signal: AbortSignal): Promise<Exposures> {
  const at = (p: string) => new URL(p, base).href
  const many = async (paths: readonly string[]) =>
    (await mapLimit(paths, concurrency, signal, (p) => answerOf(fetch, at(p)))).filter((a): a is Answer => !!a)
  return {
    cron: await answerOf(fetch, at('wp-cron.php')),
    debugLog: await answerOf(fetch, at('wp-content/debug.log')),
    uploads: await answerOf(fetch, at('wp-content/uploads/')),
    configBackups: await many(CONFIG_BACKUPS),
    installers: await many(INSTALLERS),
    register: await answerOf(fetch, at('wp-login.php?action=register')),
  }
}
