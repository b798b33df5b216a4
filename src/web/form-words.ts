// The API's refusals say which JSON member is wrong (`tool_params.ports`, `target_id`); a person
// filled a form, so the pages name the form's fields instead.

/** A schema member name as the form labels it (`timeout_ms` → "Timeout ms"). */
export const fieldLabel = (name: string) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())

const FIELDS: Record<string, string> = {
  max_scan_time: 'Maximum scan time',
  'report_callback.url': 'Report callback URL',
  'report_callback.format': 'Report callback format',
  'report_callback.secret': 'Report callback secret',
  vpn_profile_uuid: 'VPN profile',
  tool_id: 'Tool',
  workspace_id: 'Workspace',
  target_name: "New target's name",
}

/** A refusal of POST /scans in the words of the new-scan form. */
export function newScanWords(message: string): string {
  const m = message.replace(/^Invalid parameters: /, '')
  if (/exactly one of target_id and target_name/i.test(m))
    return "Choose a target from the list, or type a new target's name (one of the two)."
  return m
    .replace(/\btool_params\.([\w.]+)/g, (_, path: string) => path.split('.').map(fieldLabel).join(' › '))
    .replace(/\b(report_callback\.\w+|max_scan_time|vpn_profile_uuid|tool_id|workspace_id|target_name)\b/g, (k: string) => FIELDS[k] ?? k)
    .replace(/^./, (c) => c.toUpperCase())
}
