// Finding resources written straight from stored rows into JSON text: the findings routes' hot
// path. Rows are arrays of FINDING_RESOURCE_COLUMNS (store/findings.ts). The text is exactly what the route's Finding
// schema serializer makes of findingView(row) (test/reports/finding-json.test.ts holds them equal),
// without building an object per finding, parsing its stored JSON columns and serializing them again.

const str = JSON.stringify
const bool = (v: unknown) => (v === 1 || v === true ? 'true' : 'false')
const nullableStr = (v: unknown) => (v === null || v === undefined ? 'null' : str(v))
const nullableInt = (v: unknown) => (v === null || v === undefined ? 'null' : String(Number(v)))
const nullableNum = nullableInt

/** Stored JSON written by JSON.stringify of string arrays is already the canonical text. */
const stringArray = (v: unknown) => (typeof v === 'string' && v.startsWith('[') ? v : str(JSON.parse(String(v)) as string[]))

const OWASP_PREFIX = '{"owasp_2017":'
function owasp(v: unknown): string {
  const s = String(v)
  if (s.startsWith(OWASP_PREFIX)) return s
  const o = JSON.parse(s) as Record<string, string>
  return `{"owasp_2017":${str(o.owasp_2017 ?? '')},"owasp_2021":${str(o.owasp_2021 ?? '')},"owasp_2025":${str(o.owasp_2025 ?? '')}}`
}

/** Evidence in the schema's member order, with only the schema's members. */
function evidence(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  const e = JSON.parse(String(v)) as { type: string; data: { text?: string; headers?: string[]; rows?: string[][] } }
  if (e.type === 'text') return `{"type":"text","data":{"text":${str(String(e.data.text ?? ''))}}}`
  return `{"type":"table","data":{"headers":${str(e.data.headers ?? [])},"rows":${str(e.data.rows ?? [])}}}`
}

// r[i] is FINDING_RESOURCE_COLUMNS[i]; test/reports/finding-json.test.ts fails if the two drift apart.
export function findingJson(r: unknown[]): string {
  return (
    `{"id":${Number(r[0])},"name":${str(r[1])},"test_description":${str(r[2])},"test_finished":${bool(r[3])},` +
    `"confirmed":${bool(r[4])},"in_cisa_catalog":${bool(r[5])},"cve":${stringArray(r[6])},"vuln_description":${str(r[7])},` +
    `"vuln_evidence":${evidence(r[8])},"risk_description":${str(r[9])},"risk_level":${Number(r[10])},"status":${str(r[11])},` +
    `"recommendation":${str(r[12])},"references":${stringArray(r[13])},"verified":${bool(r[14])},"vuln_id":${str(r[15])},` +
    `"owasp":${owasp(r[16])},"cwe":${str(r[17])},"port":${nullableInt(r[18])},"protocol":${nullableStr(r[19])},` +
    `"service":${nullableStr(r[20])},"url":${nullableStr(r[21])},"scan_id":${Number(r[22])},"target_id":${Number(r[23])},` +
    `"created_at":${str(String(r[24]).slice(0, 19) + 'Z')},"cvss_score":${nullableNum(r[25])},"cvss_vector":${nullableStr(r[26])},` +
    `"epss":${r[27] === null || r[27] === undefined ? 'null' : `{"score":${Number(r[27])},"date":${str(String(r[28] ?? ''))}}`},` +
    // The duplicate group's life cycle (store/findings.ts groupColumns), or seen once by its own scan.
    `"first_seen":${str(String(r[29] ?? r[24]).slice(0, 19) + 'Z')},"last_seen":${str(String(r[30] ?? r[24]).slice(0, 19) + 'Z')},` +
    `"lifecycle":${r[31] === 'fixed' ? '"fixed"' : '"open"'},"regression":${Number(r[32]) === 1 ? 'true' : 'false'}}`
  )
}

/** `{"data":[...]}` of a findings list. */
export const findingsPageJson = (rows: unknown[][]) => `{"data":[${rows.map(findingJson).join(',')}]}`

// The last answers of `GET /findings/{id}` by finding id, each with the row it was written from: a
// finding read again with the very same values is not written again (a finding polled by CI jobs and
// dashboards: 52 → 37 µs of CPU a request on SQLite, 86 → 63 on PostgreSQL, docs/benchmarks.md).
// Exact, not a cache to invalidate: the text depends on the row alone, and the row is read (access
// checked) on every request.
const recent = new Map<number, { row: unknown[]; json: string }>()
const RECENT_MAX = 1024

const sameRow = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, i) => v === b[i])

/** `{"data":{...}}` of one finding. */
export function findingDataJson(row: unknown[]): string {
  const id = Number(row[0])
  const hit = recent.get(id)
  if (hit && sameRow(hit.row, row)) return hit.json
  const json = `{"data":${findingJson(row)}}`
  if (!hit && recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!)
  recent.set(id, { row, json })
  return json
}
