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
  tcp?: TcpBlock[]
  ssl?: SslBlock[]
  dns?: DnsBlock[]
  stopAtFirstMatch: boolean
  /** Which http blocks run, and when (`flow:`); null: all of them, in order. */
  flow: FlowNode | null
  /** The file it came from (relative to the imported tree) — for messages. */
  path: string
}

/** What the match step of every protocol shares. */
export interface MatchBlock {
  matchersCondition: 'and' | 'or'
  matchers: Matcher[]
  extractors: Extractor[]
}

export interface TcpInput {
  data: string
  /** `type: hex`: data is hex, sent as bytes. */
  hex: boolean
  /** Bytes to read after sending (0: none); `name` keeps them as a variable. */
  read: number
  name?: string
}

export interface TcpBlock extends MatchBlock {
  inputs: TcpInput[]
  /** `host:` entries ({{Hostname}}, {{Host}}:6379, tls://{{Hostname}}). */
  hosts: string[]
  /** The ports the template is for (`port:` and ports written in `host:`); empty: any open port. */
  ports: number[]
  excludePorts: number[]
  readSize: number
  readAll: boolean
  tls: boolean
}

export type TlsVersionName = 'tls10' | 'tls11' | 'tls12' | 'tls13'

export interface SslBlock extends MatchBlock {
  address: string
  minVersion?: TlsVersionName
  maxVersion?: TlsVersionName
  /** OpenSSL names of the IANA suites the template lists. */
  ciphers: string[]
  versionEnum: boolean
}

export interface DnsBlock extends MatchBlock {
  name: string
  type: number
  class: number
  recursion: boolean
}
