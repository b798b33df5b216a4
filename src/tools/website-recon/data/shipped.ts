// The shipped fingerprint catalogue (fingerprints.json), compiled once when the scanner loads.
import { readFileSync } from 'node:fs'
import { compileCatalogue, type RawEntry, type Technology } from './catalogue.js'

const SHIPPED = JSON.parse(readFileSync(new URL('../fingerprints.json', import.meta.url), 'utf8')) as {
  technologies: Record<string, RawEntry>
}

export const FINGERPRINTS: readonly Technology[] = compileCatalogue(SHIPPED.technologies)
