// Whether a scan is running on what a delete would take away (a target, a VPN profile, a
// workspace): such deletes refuse while one runs, inside the deleting transaction.
import type { Transaction } from 'kysely'
import type { Database } from './schema.js'

export async function hasRunningScan(
  trx: Transaction<Database>,
  column: 'target_id' | 'vpn_profile_uuid' | 'workspace_id',
  value: number | string,
): Promise<boolean> {
  const running = await trx.selectFrom('scans').select('id').where(column, '=', value).where('status', '=', 'running').executeTakeFirst()
  return running !== undefined
}
