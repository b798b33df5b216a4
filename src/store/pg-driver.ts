// The PostgreSQL driver, loaded only when a PostgreSQL database is opened: the embedded SQLite
// default never pays its memory (several MB of code and heap in an idle `ward all`).
import type pgModule from 'pg'

export type Pg = typeof pgModule

let loaded: Promise<Pg> | null = null

export function loadPg(): Promise<Pg> {
  loaded ??= import('pg').then(({ default: pg }) => {
    // int8 (counts, bigint ids) as numbers: our ids and counts stay far below 2^53.
    pg.types.setTypeParser(20, (v) => Number(v))
    return pg
  })
  return loaded
}
