// The one version → CVE catalogue of every tool (network scanner, website scanner, port scanner):
// CVE families by product, shipped as data (catalogue.json, beside this file). A family is one problem
// (one vuln_id, `cve.<id>`) that may span several CVEs, each with its own affected versions and CVSS:
// CVE-2021-41773 and its incomplete fix CVE-2021-42013 are one family. Ranges use the grammar of
// version.ts ('>=8.5 <9.8 || =2.4.50'); scores and vectors are NVD's CVSS v3.1 base metrics.
import { readFileSync } from 'node:fs'
import { PRODUCTS, type ProductKey } from '../services/products.js'
import { parseRange } from './version.js'

export type CatalogueCve = Readonly<{
  id: string
  /** Affected versions of the product, in the range grammar of version.ts. */
  versions: string
  /** CVSS v3.1 base score. */
  cvss: number
  /** CVSS v3.1 vector ('CVSS:3.1/AV:N/...'), or null when the catalogue does not carry it. */
  vector: string | null
}>

export type CveFamily = Readonly<{
  /** Slug of the check id `cve.<id>`; never renamed. */
  id: string
  product: ProductKey
  cwe: `CWE-${number}`
  /** Short title, used as "<Product> <version>: <title>". */
  title: string
  description: string
  impact: string
  /** First fixed release(s), for the recommendation. */
  fixed: string
  references: readonly string[]
  cves: readonly CatalogueCve[]
}>

/** A release branch past its end of life: no more security fixes. */
export type EolBranch = Readonly<{
  product: ProductKey
  /** How the branch is named ('5.5', '6.0 (Windows Server 2003)', '5.6 and older'). */
  branch: string
  /** The branch's versions, in the range grammar of version.ts. */
  versions: string
  /** The end-of-life date, 'YYYY-MM-DD' or 'YYYY-MM' where the vendor gives only the month. */
  date: string
  reference: string
}>

export type Catalogue = Readonly<{ families: readonly CveFamily[]; eol: readonly EolBranch[] }>

export class CatalogueError extends Error {
  override name = 'CatalogueError'
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (o: Record<string, unknown>, k: string, where: string): string => {
  const v = o[k]
  if (typeof v !== 'string' || !v.trim()) throw new CatalogueError(`${where}.${k} must be a non-empty string`)
  return v
}

/** `o.versions`, checked to be a range in the grammar of version.ts. */
function rangeOf(o: Record<string, unknown>, where: string): string {
  const versions = str(o, 'versions', where)
  parseRange(versions)
  return versions
}

/** `v` as an object whose `product` is in the product vocabulary. */
function productEntry(v: unknown, where: string): { entry: Record<string, unknown>; product: ProductKey } {
  if (!isObject(v)) throw new CatalogueError(`${where} must be an object`)
  const product = str(v, 'product', where)
  if (!(product in PRODUCTS))
    throw new CatalogueError(`${where}.product "${product}" is not in the product vocabulary (services/products.ts)`)
  return { entry: v, product: product as ProductKey }
}

function parseCve(v: unknown, where: string): CatalogueCve {
  if (!isObject(v)) throw new CatalogueError(`${where} must be an object`)
  const id = str(v, 'id', where)
  if (!/^CVE-\d{4}-\d{4,}$/.test(id)) throw new CatalogueError(`${where}.id is not a CVE id: ${id}`)
  const versions = rangeOf(v, where)
  const cvss = v.cvss
  if (typeof cvss !== 'number' || !(cvss > 0 && cvss <= 10)) throw new CatalogueError(`${where}.cvss must be a number in (0, 10]`)
  const vector = v.vector ?? null
  if (vector !== null && (typeof vector !== 'string' || !/^CVSS:3\.[01]\//.test(vector)))
    throw new CatalogueError(`${where}.vector must be a CVSS:3.x vector or null`)
  return { id, versions, cvss, vector }
}

/** Validates the catalogue's data (catalogue.json): throws CatalogueError naming the first problem. */
export function parseCatalogue(json: unknown): Catalogue {
  if (!isObject(json) || !Array.isArray(json.families)) throw new CatalogueError('the catalogue must be an object with a "families" array')
  const families = json.families.map((raw, i): CveFamily => {
    const where = `families[${i}]`
    const { entry: f, product } = productEntry(raw, where)
    const cwe = str(f, 'cwe', where)
    if (!/^CWE-\d+$/.test(cwe)) throw new CatalogueError(`${where}.cwe is not a CWE id: ${cwe}`)
    if (!Array.isArray(f.cves) || !f.cves.length) throw new CatalogueError(`${where}.cves must be a non-empty array`)
    if (!Array.isArray(f.references) || !f.references.every((r) => typeof r === 'string'))
      throw new CatalogueError(`${where}.references must be an array of URLs`)
    return {
      id: str(f, 'id', where),
      product,
      cwe: cwe as `CWE-${number}`,
      title: str(f, 'title', where),
      description: str(f, 'description', where),
      impact: str(f, 'impact', where),
      fixed: str(f, 'fixed', where),
      references: f.references as string[],
      cves: f.cves.map((c, j) => parseCve(c, `${where}.cves[${j}]`)),
    }
  })
  if (!Array.isArray(json.eol ?? [])) throw new CatalogueError('"eol" must be an array')
  const eol = ((json.eol ?? []) as unknown[]).map((raw, i): EolBranch => {
    const where = `eol[${i}]`
    const { entry: e, product } = productEntry(raw, where)
    const versions = rangeOf(e, where)
    const date = str(e, 'date', where)
    if (!/^\d{4}-\d{2}(-\d{2})?$/.test(date)) throw new CatalogueError(`${where}.date must be YYYY-MM-DD or YYYY-MM`)
    return { product, branch: str(e, 'branch', where), versions, date, reference: str(e, 'reference', where) }
  })
  return { families, eol }
}

export const CATALOGUE: Catalogue = parseCatalogue(JSON.parse(readFileSync(new URL('./catalogue.json', import.meta.url), 'utf8')))
