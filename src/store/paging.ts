// One page of a list, the way every list of the API pages: newest (highest id) first, `limit` rows
// a page, pages counted from 1.
import {
  type ComparisonOperatorExpression,
  type OperandValueExpressionOrList,
  type ReferenceExpression,
  type SelectQueryBuilder,
  sql,
} from 'kysely'

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

/** How many rows `q` selects (the total beside a page, or a count of its own). */
export async function countRows<DB, TB extends keyof DB>(q: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  // Kysely cannot name the selected column of a generic table; the query selects it alone.
  const r = (await q.select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: number | string | bigint }
  return Number(r.n)
}

/** One optional filter of a list: `column op value`, left out when the value is not given. */
export type Given<DB, TB extends keyof DB> = readonly [
  ReferenceExpression<DB, TB>,
  ComparisonOperatorExpression,
  string | number | undefined,
]

/** The two filters of an inclusive range on `column`, each left out when its end is not given. */
export const within = <C extends string>(column: C, from: string | undefined, to: string | undefined) =>
  [
    [column, '>=', from],
    [column, '<=', to],
  ] as const

/** `q` narrowed by each filter whose value is given (an absent filter keeps every row). */
export function whereGiven<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>, filters: readonly Given<DB, TB>[]) {
  for (const [column, op, value] of filters)
    if (value !== undefined) q = q.where(column, op, value as OperandValueExpressionOrList<DB, TB, typeof column>)
  return q
}
