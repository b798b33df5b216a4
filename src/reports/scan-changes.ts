// What changed between two scans of the same target and tool: findings new, gone and still there
// (by dedup key), and the attack surface the tools put in their output members — ports and
// services (70, 80, 350), subdomains and their addresses (20), the TLS certificate, protocols and
// ciphers (450), URLs (90, 170). A partial scan (stopped, timed out, cut short) never marks
// anything gone: it may simply not have got that far.
import type { Db } from '../store/db.js'
import type { FindingRow, ScanRow } from '../store/schema.js'
import { previousCompleteScan, scanFindingsByRisk, scanIsComplete } from '../store/scans.js'
import { toApiTime } from '../store/time.js'
import { inRanges, lookedAt, originOf, parseCoverage, type ScanLook } from '../store/coverage.js'
import { scanLook, seenBefore, testNamesOf } from '../store/finding-lifecycle.js'
import { MORE_FINDINGS_LOCATION } from '../store/capped-findings.js'
import { outputOf, ports, serverCert, subdomains, tlsSets, urls, type CertFacts, type PortFacts } from './output-facts.js'

export interface FindingRef {
  id: number
  vuln_id: string
  name: string
  risk_level: number
  port: number | null
  protocol: string | null
  service: string | null
  location: string | null
}

export interface ScanChanges {
  scan_id: number
  against_scan_id: number | null
  against_end_time: string | null
  /** false when this scan is partial: nothing is then reported gone, closed or removed. */
  complete: boolean
  changed: boolean
  /**
   * `not_covered`: findings of the compared scan at locations this scan did not look at (a port it did
   * not probe, an origin that did not answer, a test that could not run): neither gone nor still.
   */
  findings: { new: FindingRef[]; gone: FindingRef[]; still: FindingRef[]; not_covered: FindingRef[] }
  surface: {
    ports: {
      opened: PortFacts[]
      closed: PortFacts[]
      changed: Array<{ port: number; protocol: string; before: PortFacts; after: PortFacts }>
    }
    subdomains: {
      added: Array<{ hostname: string; ip_address: string | null }>
      removed: Array<{ hostname: string; ip_address: string | null }>
      address_changed: Array<{ hostname: string; before: string | null; after: string | null }>
    }
    tls: {
      certificate: { before: CertFacts | null; after: CertFacts | null } | null
      protocols_added: string[]
      protocols_removed: string[]
      ciphers_added: string[]
      ciphers_removed: string[]
    }
    urls: { found: string[]; gone: string[] }
  }
}

const cappedChecks = (fs: FindingRow[]) => new Set(fs.filter((f) => f.location === MORE_FINDINGS_LOCATION).map((f) => f.vuln_id))

const minus = <T>(a: Iterable<T>, b: { has(x: T): boolean }) => [...a].filter((x) => !b.has(x))

const ref = (f: FindingRow): FindingRef => ({
  id: f.id,
  vuln_id: f.vuln_id,
  name: f.name,
  risk_level: f.risk_level,
  port: f.port,
  protocol: f.protocol,
  service: f.service,
  location: f.url ?? f.location,
})

/**
 * What each scan looked at, to tell "gone" from "not covered" (store/coverage.ts). Absent: both
 * scans covered everything (the rule before coverage was recorded).
 */
export interface DiffLooks {
  scan: ScanLook
  against: ScanLook | null
  /** Names of the tests behind the findings of both scans, by test id. */
  testNames: ReadonlyMap<number, string>
  /** Groups first seen by an earlier scan than `scan`: found now where the compared scan did not look, they are not new. */
  seenBefore: ReadonlySet<string>
}

const spotOf = (f: FindingRow, names: ReadonlyMap<number, string>) => ({
  port: f.port,
  protocol: f.protocol,
  url: f.url,
  test_name: f.test_id === null ? null : (names.get(f.test_id) ?? null),
})

/** The findings new, gone, still there and not covered (see `DiffLooks`). */
function findingChanges(
  complete: boolean,
  findings: FindingRow[],
  against: ScanRow | null,
  againstFindings: FindingRow[],
  looks?: DiffLooks,
): ScanChanges['findings'] {
  const looked = (look: ScanLook | null | undefined, f: FindingRow) => !looks || !look || lookedAt(look, spotOf(f, looks.testNames))
  const keys = new Set(findings.map((f) => f.dedup_key))
  const oldKeys = new Set(againstFindings.map((f) => f.dedup_key))
  const uniq = (fs: FindingRow[]) => [...new Map(fs.map((f) => [f.dedup_key, f])).values()]
  // A check a scan capped was counted, not listed: its findings missing from the other scan's list are neither new nor gone.
  const cappedNow = cappedChecks(findings)
  const cappedBefore = cappedChecks(againstFindings)
  return {
    new: uniq(
      findings.filter(
        (f) =>
          !oldKeys.has(f.dedup_key) &&
          !(against && cappedBefore.has(f.vuln_id)) &&
          (looked(looks?.against, f) || !looks?.seenBefore.has(f.dedup_key)),
      ),
    ).map(ref),
    gone:
      complete && against
        ? uniq(againstFindings.filter((f) => !keys.has(f.dedup_key) && !cappedNow.has(f.vuln_id) && looked(looks?.scan, f))).map(ref)
        : [],
    still: uniq(findings.filter((f) => oldKeys.has(f.dedup_key) || (!looked(looks?.against, f) && looks?.seenBefore.has(f.dedup_key)))).map(
      ref,
    ),
    // A check this scan capped is undecided for the findings it did not store: not covered either.
    not_covered: against
      ? uniq(
          againstFindings.filter((f) => !keys.has(f.dedup_key) && (!(complete && looked(looks?.scan, f)) || cappedNow.has(f.vuln_id))),
        ).map(ref)
      : [],
  }
}

/** The attack surface opened, closed and changed between the two outputs. */
function surfaceChanges(scan: ScanRow, against: ScanRow | null, complete: boolean): ScanChanges['surface'] {
  const cov = parseCoverage(scan.coverage)
  const probedNow = (p: PortFacts) => {
    const r = cov?.ports[p.protocol === 'udp' ? 'udp' : 'tcp']
    return !cov || (!!r && inRanges(r.probed, p.port)) || Object.keys(cov.ports).length === 0
  }
  const reachedNow = (u: string) => !cov || cov.origins.length === 0 || cov.origins.includes(originOf(u) ?? '')
  const now = outputOf(scan)
  const before = against ? outputOf(against) : {}
  const pNow = ports(now)
  const pBefore = ports(before)
  const changedPorts = [...pNow].filter(([k, p]) => {
    const b = pBefore.get(k)
    return b && (b.service !== p.service || b.product !== p.product || b.version !== p.version)
  })
  const dNow = subdomains(now)
  const dBefore = subdomains(before)
  const cNow = serverCert(now)
  const cBefore = serverCert(before)
  const tNow = tlsSets(now)
  const tBefore = tlsSets(before)
  const uNow = urls(now)
  const uBefore = urls(before)
  const gone = <T>(xs: T[]): T[] => (complete && against ? xs : [])
  // A certificate that appeared or was replaced; one that vanished only if this scan is complete.
  const certChanged = !!against && (cNow ? cNow.fingerprint_sha256 !== cBefore?.fingerprint_sha256 : complete && !!cBefore)
  return {
    ports: {
      opened: minus(pNow.keys(), pBefore).map((k) => pNow.get(k)!),
      closed: gone(
        minus(pBefore.keys(), pNow)
          .map((k) => pBefore.get(k)!)
          .filter(probedNow),
      ),
      changed: changedPorts.map(([k, p]) => ({ port: p.port, protocol: p.protocol, before: pBefore.get(k)!, after: p })),
    },
    subdomains: {
      added: minus(dNow.keys(), dBefore).map((h) => ({ hostname: h, ip_address: dNow.get(h)! })),
      removed: gone(minus(dBefore.keys(), dNow).map((h) => ({ hostname: h, ip_address: dBefore.get(h)! }))),
      address_changed: [...dNow]
        .filter(([h, ip]) => dBefore.has(h) && dBefore.get(h) !== ip)
        .map(([h, ip]) => ({ hostname: h, before: dBefore.get(h)!, after: ip })),
    },
    tls: {
      certificate: certChanged ? { before: cBefore, after: cNow } : null,
      protocols_added: minus(tNow.protocols, tBefore.protocols).sort(),
      protocols_removed: gone(minus(tBefore.protocols, tNow.protocols).sort()),
      ciphers_added: minus(tNow.ciphers, tBefore.ciphers).sort(),
      ciphers_removed: gone(minus(tBefore.ciphers, tNow.ciphers).sort()),
    },
    urls: { found: minus(uNow, uBefore).sort(), gone: gone(minus(uBefore, uNow).filter(reachedNow).sort()) },
  }
}

/** Whether anything changed: new or gone findings, or any change of the surface. */
function anyChange(f: ScanChanges['findings'], s: ScanChanges['surface']): boolean {
  return (
    f.new.length +
      f.gone.length +
      s.ports.opened.length +
      s.ports.closed.length +
      s.ports.changed.length +
      s.subdomains.added.length +
      s.subdomains.removed.length +
      s.subdomains.address_changed.length +
      s.tls.protocols_added.length +
      s.tls.protocols_removed.length +
      s.tls.ciphers_added.length +
      s.tls.ciphers_removed.length +
      s.urls.found.length +
      s.urls.gone.length >
      0 || s.tls.certificate !== null
  )
}

/** The changes of `scan` against `against` (null: nothing to compare with, so everything is new). */
export function diffScans(
  scan: ScanRow,
  findings: FindingRow[],
  against: ScanRow | null,
  againstFindings: FindingRow[],
  looks?: DiffLooks,
): ScanChanges {
  const complete = scanIsComplete(scan)
  const changes = findingChanges(complete, findings, against, againstFindings, looks)
  const surface = surfaceChanges(scan, against, complete)
  return {
    scan_id: scan.id,
    against_scan_id: against?.id ?? null,
    against_end_time: toApiTime(against?.end_time),
    complete,
    changed: anyChange(changes, surface),
    findings: changes,
    surface,
  }
}

/** The changes of `scan` against `against` (a scan the caller already read), or its previous complete scan. */
export async function scanChanges(db: Db, scan: ScanRow, against?: ScanRow): Promise<ScanChanges> {
  const base = against ?? (await previousCompleteScan(db, scan)) ?? null
  const findings = await scanFindingsByRisk(db, scan.id)
  const baseFindings = base ? await scanFindingsByRisk(db, base.id) : []
  const looks: DiffLooks = {
    scan: await scanLook(db, scan),
    against: base && scanIsComplete(base) ? await scanLook(db, base) : null,
    testNames: await testNamesOf(db, [...findings, ...baseFindings]),
    seenBefore: await seenBefore(db, scan, findings),
  }
  return diffScans(scan, findings, base, baseFindings, looks)
}
