// discoverTcpPorts' timing and error handling against a simulated network (a fake Egress): dropped
// ports, lost probes, local socket pressure, proxy failures, unreachable hosts, the in-flight bound.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import type { Socket } from 'node:net'
import type { ConnectOptions, Egress } from '../../../src/toolkit/egress.js'
import { discoverTcpPorts } from '../../../src/tools/lib/ports/scan.js'
import { TargetUnreachableError } from '../../../src/toolkit/errors.js'

type Outcome = 'open' | 'closed' | 'drop' | { error: string }

/** An egress whose connects end as `outcome(port, attempt)` says, after `rttMs`. */
function fakeNet(outcome: (port: number, attempt: number) => Outcome, rttMs = 1, kind: Egress['kind'] = 'direct') {
  const attempts = new Map<number, number>()
  const stats = { inFlight: 0, maxInFlight: 0, timeouts: [] as number[] }
  const net = {
    kind,
    carriesUdp: false,
    connect(o: ConnectOptions): Promise<Socket> {
      const n = (attempts.get(o.port) ?? 0) + 1
      attempts.set(o.port, n)
      stats.inFlight++
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
      const out = outcome(o.port, n)
      return new Promise<Socket>((resolve, reject) => {
        const end = (f: () => void) => {
          stats.inFlight--
          f()
        }
        if (out === 'drop') {
          stats.timeouts.push(o.timeoutMs ?? 5000)
          const timer = setTimeout(
            () => end(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }))),
            o.timeoutMs ?? 5000,
          )
          o.signal?.addEventListener(
            'abort',
            () => {
              clearTimeout(timer)
              end(() => reject(o.signal!.reason))
            },
            { once: true },
          )
          return
        }
        setTimeout(() => {
          if (out === 'open')
            end(() =>
              resolve({
                localPort: 40000,
                remotePort: o.port,
                localAddress: '10.0.0.1',
                remoteAddress: o.host,
                destroy() {},
              } as unknown as Socket),
            )
          else if (out === 'closed') end(() => reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })))
          else end(() => reject(Object.assign(new Error(out.error), { code: out.error })))
        }, rttMs)
      })
    },
  } as unknown as Egress
  return { net, attempts, stats }
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i)
const signal = () => new AbortController().signal
const byState = (r: Array<{ port: number; state: string }>, s: string) => r.filter((x) => x.state === s).map((x) => x.port)

describe('discoverTcpPorts on a simulated network', () => {
  test('maxRate paces the connects: never more started than the rate allows', async () => {
    const { net } = fakeNet((p) => (p === 7 ? 'open' : 'closed'))
    const starts: number[] = []
    const connect = net.connect.bind(net)
    ;(net as { connect: Egress['connect'] }).connect = (o) => (starts.push(performance.now()), connect(o))
    const r = await discoverTcpPorts(net, '10.0.0.5', range(1, 200), { signal: signal(), maxRate: 400 })
    assert.deepEqual(byState(r, 'open'), [7])
    assert.equal(r.length, 200)
    // 200 connects at 400/s: the last starts no sooner than ~0.5 s after the first; 40 in a row take ~100 ms (a stall earns 10 ms of catch-up at most).
    const span = starts[starts.length - 1] - starts[0]
    assert.ok(span >= 450, `200 connects spread over ${span.toFixed(0)} ms`)
    for (let i = 40; i < starts.length; i++)
      assert.ok(starts[i] - starts[i - 40] >= 80, `40 connects within ${(starts[i] - starts[i - 40]).toFixed(0)} ms`)
  })

  test('dropped ports are filtered after a retry with a longer timeout; the rest keep their state', async () => {
    const drop = new Set([50, 150, 250])
    const { net, attempts, stats } = fakeNet((p) => (drop.has(p) ? 'drop' : p % 100 === 7 ? 'open' : 'closed'))
    const r = await discoverTcpPorts(net, '10.0.0.5', range(1, 300), { signal: signal(), timeoutMs: 2000, concurrency: 50 })
    assert.equal(r.length, 300)
    assert.deepEqual(byState(r, 'filtered'), [50, 150, 250])
    assert.deepEqual(byState(r, 'open'), [7, 107, 207])
    // The first tries used the adaptive timeout (RTT 1 ms -> the 250 ms floor), the retries twice that.
    for (const p of drop) assert.equal(attempts.get(p), 2)
    assert.deepEqual(
      [...new Set(stats.timeouts)].sort((a, b) => a - b),
      [250, 500],
    )
    assert.ok(stats.maxInFlight <= 50, `at most 50 in flight, saw ${stats.maxInFlight}`)
  })

  test('a probe lost once and answered on retry is not filtered', async () => {
    const { net, attempts } = fakeNet((p, n) => (p === 42 && n === 1 ? 'drop' : p === 42 ? 'open' : 'closed'))
    const r = await discoverTcpPorts(net, '10.0.0.5', range(1, 100), { signal: signal(), timeoutMs: 1500, concurrency: 20 })
    assert.deepEqual(byState(r, 'open'), [42])
    assert.deepEqual(byState(r, 'filtered'), [])
    assert.equal(attempts.get(42), 2)
  })

  test('with no answer to learn a round trip from, silent ports wait the full timeout once, without retry', async () => {
    const { net, attempts, stats } = fakeNet(() => 'drop')
    const t0 = performance.now()
    const r = await discoverTcpPorts(net, '10.0.0.5', range(1, 200), { signal: signal(), timeoutMs: 300, concurrency: 1000 })
    assert.equal(byState(r, 'filtered').length, 200)
    assert.ok([...attempts.values()].every((n) => n === 1))
    assert.deepEqual([...new Set(stats.timeouts)], [300])
    // A firewalled host keeps full parallelism: 200 ports in about two timeouts, not 200.
    assert.ok(performance.now() - t0 < 1500, `took ${Math.round(performance.now() - t0)} ms`)
  })

  test('local socket pressure (EADDRNOTAVAIL, EMFILE) puts the port back in the queue', async () => {
    const { net, attempts } = fakeNet((p, n) =>
      p % 10 === 0 && n === 1 ? { error: p % 20 ? 'EMFILE' : 'EADDRNOTAVAIL' } : p === 30 ? 'open' : 'closed',
    )
    const r = await discoverTcpPorts(net, '10.0.0.5', range(1, 100), { signal: signal() })
    assert.equal(r.length, 100)
    assert.deepEqual(byState(r, 'open'), [30])
    assert.equal(byState(r, 'closed').length, 99)
    assert.equal(attempts.get(20), 2)
  })

  test('no route to the host before any answer: TargetUnreachableError', async () => {
    const { net } = fakeNet(() => ({ error: 'EHOSTUNREACH' }))
    await assert.rejects(discoverTcpPorts(net, '10.0.0.5', range(1, 50), { signal: signal() }), (e: Error) => {
      assert.ok(e instanceof TargetUnreachableError)
      assert.match(e.message, /10\.0\.0\.5 is unreachable \(EHOSTUNREACH\)/)
      return true
    })
  })

  test('a proxy that fails ends the scan with its error; a proxy refusing one destination makes it filtered', async () => {
    const down = fakeNet((p) => (p < 5 ? 'closed' : { error: 'EPROXYUNREACHABLE' }), 1, 'socks5')
    await assert.rejects(discoverTcpPorts(down.net, '10.0.0.5', range(1, 20), { signal: signal() }), { code: 'EPROXYUNREACHABLE' })
    const denied = fakeNet((p) => (p === 8 ? { error: 'EPROXYDENIED' } : 'closed'), 1, 'socks5')
    const r = await discoverTcpPorts(denied.net, '10.0.0.5', range(1, 20), { signal: signal() })
    assert.deepEqual(byState(r, 'filtered'), [8])
    // Through a proxy, 100 in flight at most by default.
    const many = fakeNet(() => 'closed', 5, 'socks5')
    await discoverTcpPorts(many.net, '10.0.0.5', range(1, 1000), { signal: signal() })
    assert.ok(many.stats.maxInFlight <= 100, `saw ${many.stats.maxInFlight}`)
  })

  test('a long path keeps many connects in flight; a queue that builds up shrinks the window', async () => {
    // 40 ms round trip: the window opens to its maximum.
    const far = fakeNet((p) => (p === 500 ? 'open' : 'closed'), 40)
    const t0 = performance.now()
    await discoverTcpPorts(far.net, '10.0.0.5', range(1, 4000), { signal: signal(), concurrency: 1000 })
    assert.ok(far.stats.maxInFlight >= 900, `saw at most ${far.stats.maxInFlight} in flight`)
    assert.ok(performance.now() - t0 < 3000)
    // A round trip that grows with the number in flight (a queue, 0.05 ms per connect ahead): the
    // window starts at 1000 and comes down to where the queue stays short.
    let inFlight = 0
    let max = 0
    const late: number[] = []
    const queued = {
      kind: 'direct',
      connect(o: ConnectOptions) {
        inFlight++
        max = Math.max(max, inFlight)
        if (o.port > 17000) late.push(inFlight)
        return new Promise<Socket>((_, reject) =>
          setTimeout(() => {
            inFlight--
            reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))
          }, 0.05 * inFlight),
        )
      },
    } as unknown as Egress
    await discoverTcpPorts(queued, '10.0.0.5', range(1, 20000), { signal: signal(), concurrency: 1000 })
    assert.ok(max >= 900, `started high (${max})`)
    const median = late.sort((a, b) => a - b)[late.length >> 1]
    // Well below the 1000 it started at; not tighter, as timers fire late on a loaded machine and
    // every late timer looks like a longer queue.
    assert.ok(median < 650, `came down to a median of ${median} in flight`)
  })

  test('a stop returns at once with the ports done so far', async () => {
    const { net } = fakeNet(() => 'drop')
    const ac = new AbortController()
    setTimeout(() => ac.abort(), 100)
    const t0 = performance.now()
    const r = await discoverTcpPorts(net, '10.0.0.5', range(1, 5000), { signal: ac.signal, timeoutMs: 30_000, concurrency: 10 })
    assert.ok(performance.now() - t0 < 400)
    assert.deepEqual(r, [])
  })
})
