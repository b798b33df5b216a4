// One GET / per HTTP(S) service: the Server header names products and versions, and an Elasticsearch
// node answers its cluster information here when it requires no authentication.
import type { Egress, HttpResponse } from '../../../toolkit/egress.js'
import { ipVersion } from '../../../toolkit/ip.js'

export type HttpRoot = {
  url: string
  status: number
  server: string | null
  poweredBy: string | null
  es: ElasticInfo | null
  /** Elasticsearch that asked for credentials (X-Elastic-Product, or its "security" realm). */
  esLocked: boolean
  response: HttpResponse
}
export type ElasticInfo = { clusterName: string; version: string | null; name: string | null }

export const httpBase = (host: string, port: number, tls: boolean) =>
  `${tls ? 'https' : 'http'}://${ipVersion(host) === 6 ? `[${host}]` : host}:${port}`

/** Elasticsearch's root document: cluster_name and version.number (tagline when present). */
export function elasticInfo(status: number, body: string): ElasticInfo | null {
  if (status !== 200) return null
  try {
    const j = JSON.parse(body) as Record<string, unknown>
    const version = j.version as Record<string, unknown> | undefined
    if (typeof j.cluster_name !== 'string' || !version || typeof version !== 'object') return null
    if (typeof j.tagline === 'string' && !/for search/i.test(j.tagline)) return null
    return {
      clusterName: j.cluster_name,
      version: typeof version.number === 'string' ? version.number : null,
      name: typeof j.name === 'string' ? j.name : null,
    }
  } catch {
    return null
  }
}

export async function fetchRoot(
  net: Egress,
  host: string,
  port: number,
  tls: boolean,
  signal: AbortSignal,
  timeoutMs = 6000,
): Promise<HttpRoot> {
  const url = `${httpBase(host, port, tls)}/`
  const res = await net.http(url, {
    method: 'GET',
    headers: { accept: 'application/json, */*' },
    signal,
    timeoutMs,
    maxBodyBytes: 256 * 1024,
  })
  return {
    url,
    status: res.status,
    server: res.headers['server'] ?? null,
    poweredBy: res.headers['x-powered-by'] ?? null,
    es: elasticInfo(res.status, res.text()),
    esLocked:
      res.status === 401 &&
      (/elasticsearch/i.test(res.headers['x-elastic-product'] ?? '') || /realm="security"/i.test(res.headers['www-authenticate'] ?? '')),
    response: res,
  }
}
