// output_data.technologies of Website Recon.
import type { Detected } from './detect/match.js'

export type TechnologyEntry = Detected

export const technologiesOutput = (list: readonly Detected[]): TechnologyEntry[] =>
  list.map((t) => ({ name: t.name, version: t.version, categories: t.categories, confidence: t.confidence, evidence: t.evidence }))
