// A template as the engine sees it after loading: the nuclei YAML keys Ward runs, typed.
import type { FlowNode } from './flow.js'

export type Severity = 'info' | 'low' | 'medium' | 'high' | 'critical' | 'unknown'

export interface TemplateInfo {
  name: string
  author: string[]
  severity: Severity
  tags: string[]
  description: string
  reference: string[]
  remediation: string
  classification: {
    cveId: string[]
    cweId: string[]
    cvssMetrics: string | null
    cvssScore: number | null
    epssScore: number | null
    cpe: string | null
  }
}

export interface Matcher {
  type: 'word' | 'regex' | 'status' | 'size' | 'binary' | 'dsl'
  name?: string
  part: string
  condition: 'and' | 'or'
  negative: boolean
  caseInsensitive: boolean
  internal: boolean
  matchAll: boolean
  hex: boolean
  words: string[]
  regex: string[]
  status: number[]
  size: number[]
  binary: string[]
  dsl: string[]
}

export interface Extractor {
  type: 'regex' | 'kval' | 'json' | 'xpath' | 'dsl'
  name?: string
  part: string
  internal: boolean
  group: number
  caseInsensitive: boolean
  regex: string[]
  kval: string[]
  json: string[]
  xpath: string[]
  attribute?: string
  dsl: string[]
}

export type Attack = 'batteringram' | 'pitchfork' | 'clusterbomb'

export interface HttpBlock {
  method: string
  paths: string[]
  raw: string[]
  headers: Record<string, string>
  body: string
  redirects: boolean
  hostRedirects: boolean
  maxRedirects: number
  disableCookie: boolean
  stopAtFirstMatch: boolean
  reqCondition: boolean
  matchersCondition: 'and' | 'or'
  matchers: Matcher[]
  extractors: Extractor[]
  payloads: Record<string, string[]>
  attack: Attack
}

export interface Template {
  id: string
  info: TemplateInfo
  protocol: 'http' | 'tcp' | 'dns' | 'ssl'
  variables: Record<string, string>
  http: HttpBlock[]
  stopAtFirstMatch: boolean
  /** Which http blocks run, and when (`flow:`); null: all of them, in order. */
  flow: FlowNode | null
  /** The file it came from (relative to the imported tree) — for messages. */
  path: string
}
