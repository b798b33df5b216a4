// `npm run bench -- api-scale --db postgres://... [--processes 1,2] [--duration 5] [--connections 50]`
// Scale-out of the API on PostgreSQL: N `ward serve` processes on the same database, the load split
// evenly over them (one autocannon per process, connections / N each, at the same time), read rate
// summed. `ward serve` keeps no state of its own (the caller cache is a 1 s TTL), so any balancer works.
// Prints the cores each side used (Ward processes, the load generator, the machine) to show what bounds the sum.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { openDatabase } from '../src/store/db.js'
import { createApiKey } from '../src/store/accounts.js'
import { BENCH_USER } from './seed.js'
import { dbConfigOf, fmt, machine, parseArgs, startChild, stopChild } from './_shared.js'

const ROOT = path.resolve(import.meta.dirname, '..')

/** CPU seconds a process has used (user + system), from /proc: how much of the two cores each side got. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name: state is the 3rd field of the file, utime and stime the 14th and 15th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) / 100
}

/** Busy CPU seconds of the whole machine (every core, every process), from /proc/stat. */
function machineBusySeconds(): number {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  return (f.reduce((s, x) => s + x, 0) - f[3]! - f[4]!) / 100
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const url = a.get('db') ?? 'postgres://postgres@127.0.0.1:5432/ward_bench'
  const counts = (a.get('processes') ?? '1,2').split(',').map(Number)
  const duration = Number(a.get('duration') ?? 5)
  const connections = Number(a.get('connections') ?? 50)
  const h = await openDatabase(dbConfigOf(url), { migrate: false })
  const user = await h.db
    .selectFrom('users')
    .select(['id', 'active_workspace_id'])
    .where('name', '=', BENCH_USER)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const key = (await createApiKey(h.db, user.id))!
  const ws = user.active_workspace_id!
  const scan = await h.db
    .selectFrom('scans')
    .select(['id', 'target_id'])
    .where('workspace_id', '=', ws)
    .where('status', '=', 'finished')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
  const finding = await h.db
    .selectFrom('findings')
    .select('id')
    .where('workspace_id', '=', ws)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
  await h.close()
  const routes: Array<[string, string]> = [
    ['GET /targets/{id}', `/targets/${scan.target_id}`],
    ['GET /findings/{id}', `/findings/${finding.id}`],
    ['GET /findings?target_id&limit=100', `/findings?target_id=${scan.target_id}&limit=100`],
  ]
  console.log(
    `api-scale: ${machine()}; ${connections} connections in all, ${duration} s per route; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  const rates = new Map<string, number[]>()
  for (const n of counts) {
    const wards = await Promise.all(
      Array.from({ length: n }, () =>
        startChild(
          process.execPath,
          [process.env.WARD_BENCH_ENTRY ?? path.join(ROOT, 'bin/ward.js'), 'serve'],
          { WARD_DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', WARD_RATE_LIMIT: 'off', LOG_LEVEL: 'warn', WARD_DB_POOL_MAX: '10' },
          /^Ward is listening on/,
        ),
      ),
    )
    const bases = wards.map((w) => /(http:\/\/\S+\/api\/v2)/.exec(w.line)![1]!)
    try {
      for (const [route, p] of routes) {
        const each = (d: number) =>
          Promise.all(
            bases.map(
              (b) =>
                new Promise<autocannon.Result>((r, j) =>
                  autocannon(
                    { url: b + p, headers: { authorization: `Bearer ${key}` }, connections: Math.ceil(connections / n), duration: d },
                    (e, x) => (e ? j(e) : r(x)),
                  ),
                ),
            ),
          )
        await each(1)
        const pids = wards.map((w) => w.child.pid!)
        const before = { ward: pids.map(cpuSeconds), self: process.cpuUsage(), machine: machineBusySeconds(), at: performance.now() }
        const rs = await each(duration)
        const wall = (performance.now() - before.at) / 1000
        const wardCpu = pids.map((p, i) => cpuSeconds(p) - before.ward[i]!)
        const self = process.cpuUsage(before.self)
        const rps = rs.reduce((s, r) => s + r.requests.average, 0)
        const errors = rs.reduce((s, r) => s + r.errors + r.timeouts + r.non2xx, 0)
        rates.set(route, [...(rates.get(route) ?? []), rps])
        // Cores used: each Ward process, the load generator (this process), and the whole machine (2.0 = both cores busy).
        const cores = (s: number) => (s / wall).toFixed(2)
        console.log(
          `${n} process(es)  ${route.padEnd(36)} ${fmt(rps).padStart(8)} req/s  p99 ${Math.max(...rs.map((r) => r.latency.p99))} ms  errors ${errors}  ` +
            `cores: Ward ${wardCpu.map(cores).join(' + ')}, load generator ${cores((self.user + self.system) / 1e6)}, machine ${cores(machineBusySeconds() - before.machine)}`,
        )
      }
    } finally {
      await Promise.all(wards.map((w) => stopChild(w.child)))
    }
  }
  if (counts.length > 1)
    for (const [route, rs] of rates)
      console.log(
        `${route}: ${counts.map((c, i) => `${c} → ${fmt(rs[i]!)}`).join(', ')} req/s; ${counts.at(-1)} / ${counts[0]} = ${(rs.at(-1)! / rs[0]!).toFixed(2)}×`,
      )
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
}
