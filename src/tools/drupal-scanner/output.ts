// output_data.drupal of the Drupal Scanner.
export interface DrupalOutput {
  /** The full version when a changelog or core asset tells it, else null. */
  version: string | null
  /** The major version (from the generator when nothing tells more). */
  major: string | null
  modules: Array<{ slug: string; version: string | null }>
  themes: Array<{ slug: string; version: string | null }>
  users: Array<{ id: number; name: string }>
}
