// Names that mark a site as internal, development, test or administration. Pure.
import { registrableDomain } from '../../lib/http/redirect-policy.js'

const INTERNAL = new Set([
  'dev',
  'develop',
  'development',
  'devel',
  'staging',
  'stage',
  'stg',
  'test',
  'testing',
  'tst',
  'qa',
  'uat',
  'preprod',
  'sandbox',
  'admin',
  'administrator',
  'internal',
  'intranet',
  'int',
  'corp',
  'private',
  'local',
  'localhost',
  'lab',
  'mgmt',
  'manage',
  'management',
  'console',
  'backend',
  'phpmyadmin',
  'jenkins',
  'gitlab',
  'jira',
  'confluence',
  'grafana',
  'kibana',
  'prometheus',
])

/**
 * The word that marks `name` as internal, or null. Labels left of the registrable domain are split
 * on '-' and trailing digits dropped, so dev2.example, api-dev.example and pre-prod.example count.
 */
export function internalMarker(name: string): string | null {
  const n = name.toLowerCase()
  const domain = registrableDomain(n)
  const left = n === domain ? '' : n.slice(0, n.length - domain.length - 1)
  const parts = left ? left.split('.') : domain.includes('.') ? [] : [domain]
  for (const label of parts) {
    if (INTERNAL.has(label)) return label
    for (const piece of label.split('-')) {
      const word = piece.replace(/\d+$/, '')
      if (INTERNAL.has(word)) return word
    }
  }
  return null
}
