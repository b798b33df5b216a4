// A scheduler that claims one due schedule and then hangs inside the claim's transaction, holding
// it, until it is killed: the "worker killed while holding the claim" of the scheduler tests.
// Prints "held <schedule id>" once it holds one. Run with `node --import tsx`.
import { loadConfig } from '../../src/config/config.js'
import { openDatabase } from '../../src/store/db.js'
import { claimDueSchedule } from '../../src/store/schedules.js'

const cfg = loadConfig({ WARD_DATABASE_URL: process.env.WARD_DATABASE_URL!, LOG_LEVEL: 'silent' })
const h = await openDatabase(cfg.db, { notify: false })
await claimDueSchedule(h.db, h.kind, 'holder', new Date(), {
  held: async (id) => {
    process.stdout.write(`held ${id}\n`)
    await new Promise(() => {})
  },
})
process.stdout.write('nothing due\n')
await h.close()
