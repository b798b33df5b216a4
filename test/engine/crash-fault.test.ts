// Fault test on SQLite: `kill -9` of a `ward worker` mid-scan WARD_CRASH_KILLS times, 10 by default (test/helpers/crash-fault.ts).
// Prints its figures (docs/reliability.md). ward-test: single-run (SQLite; crash-fault-postgres is the other backend).
// Starts real processes (test/helpers/processes.ts through test/helpers/crash-fault.ts).
import { test } from 'node:test'
import { KILLS, faultRun, sqliteBed } from '../helpers/crash-fault.js'

const only = process.env.WARD_TEST_BACKENDS

test(`kill -9 mid-scan ${KILLS} times on SQLite: 0 scans stuck, 0 findings lost, every scan finished`, {
  timeout: 400000,
  skip: only === 'postgres',
}, async () => {
  const bed = await sqliteBed()
  try {
    console.log(`fault test sqlite: ${JSON.stringify(await faultRun(bed))}`)
  } finally {
    await bed.close()
  }
})
