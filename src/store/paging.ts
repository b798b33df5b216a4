// One page of a list, the way every list of the API pages: newest (highest id) first, `limit` rows
// a page, pages counted from 1.
import { type SelectQueryBuilder, sql } from 'kysely'

export interface Paging {
  limit: number
  page: number
}

export function newestPage<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>, p: Paging) {
  return q
    .orderBy(sql`id`, 'desc')
    .limit(p.limit)
    .offset((p.page - 1) * p.limit)
    .execute()
}
