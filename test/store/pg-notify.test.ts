// Wake-ups over PostgreSQL NOTIFY: many publishes at once (a burst of POST /scans) go out one query
// at a time on the listening connection, all of them, without pg's "already executing a query"
// deprecation (pg 9 refuses such queries).
// ward-test: single-run (PostgreSQL only, picked here)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import pg from 'pg'
import { attachPgNotify, PG_CHANNEL } from '../../src/store/notify.js'
import { createPgSchema, pgUnreachable } from '../helpers/ward.js'

test('a burst of notifications is sent whole, one query at a time', async () => {
  const why = await pgUnreachable()
  if (why) {
    console.log(`PostgreSQL not reachable (${why}): nothing asserted on NOTIFY`)
    assert.ok(why.length > 0)
    return
  }
  const s = await createPgSchema()
  const listener = new pg.Client({ connectionString: s.url })
  await listener.connect()
  const got: number[] = []
  listener.on('notification', (m) => {
    const e = JSON.parse(m.payload ?? '{}').e as { type: string; scanId?: number }
    if (e.type === 'stop' && e.scanId !== undefined) got.push(e.scanId)
  })
  await listener.query(`LISTEN ${PG_CHANNEL}`)
  const warnings: string[] = []
  const onWarning = (w: Error) => void warnings.push(w.message)
  process.on('warning', onWarning)
  const channel = attachPgNotify(s.url)
  try {
    assert.equal(await channel.ready(), true)
    for (let i = 1; i <= 50; i++) channel.notify({ type: 'stop', scanId: i })
    for (let i = 0; i < 100 && got.length < 50; i++) await new Promise((r) => setTimeout(r, 50))
    assert.deepEqual(
      got,
      Array.from({ length: 50 }, (_, i) => i + 1),
      'all 50, in order',
    )
    assert.deepEqual(
      warnings.filter((m) => /already executing a query/.test(m)),
      [],
    )
  } finally {
    process.off('warning', onWarning)
    await channel.close()
    await listener.end()
    await s.drop()
  }
})
