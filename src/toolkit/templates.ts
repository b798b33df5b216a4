// What a tool may ask for about check templates (nuclei YAML): the texts stored by the operator's
// import (and shipped ones). The engine provides it on the ScanContext from the database; tools
// never read the store themselves, and parse the texts with tools/lib/templates.

export interface StoredTemplate {
  id: string
  /** The file's path inside the imported tree (messages, relative payload files). */
  path: string
  yaml: string
  /** Payload files the template names, read from the imported tree at import: path → text. */
  files: Record<string, string>
}

export interface TemplateSource {
  /** Every stored template of one protocol, ordered by id. */
  forProtocol(protocol: 'http' | 'tcp' | 'dns' | 'ssl'): Promise<StoredTemplate[]>
}
