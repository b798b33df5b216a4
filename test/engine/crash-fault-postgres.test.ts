// Fault test on PostgreSQL: `kill -9` of a `ward worker` mid-scan WARD_CRASH_KILLS times, 10 by default (test/helpers/crash-fault.ts).
// Prints its figures (docs/reliability.md). ward-test: single-run (PostgreSQL; crash-fault is the other backend).
// Starts real processes (test/helpers/processes.ts through test/helpers/crash-fault.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pgUnreachable } from '../helpers/ward.js'
import { KILLS, faultRun, postgresBed } from '../helpers/crash-fault.js'

const only = process.env.WARD_TEST_BACKENDS

test(`kill -9 mid-scan ${KILLS} times on PostgreSQL: 0 scans stuck, 0 findings lost, every scan finished`, {
  timeout: 400000,
  skip: only === 'sqlite',
}, async () => {
  const why = await pgUnreachable()
  if (why) {
    console.log(`the PostgreSQL fault test needs a server: not reachable (${why})`)
    assert.ok(why.length > 0)
    return
  }
  const bed = await postgresBed()
  try {
    console.log(`fault test postgres: ${JSON.stringify(await faultRun(bed))}`)
  } finally {
    await bed.close()
  }
})
