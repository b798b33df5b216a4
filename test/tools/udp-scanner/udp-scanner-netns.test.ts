// Full-range UDP scan and an unreachable target, inside a network namespace this test creates (nothing
// else listens there and no traffic can leave it). The same file is the child run in the namespace.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'

const CHILD = process.env.WARD_UDP_NETNS_CHILD === '1'

async function child() {
  const { runTool } = await import('../../helpers/tool-harness.js')
  const { udpScanner } = await import('../../../src/tools/udp-scanner/run.js')
  const { startUdpServices } = await import('../../testbed/udp-services.js')
  const bed = await startUdpServices('127.0.0.1', 'vulnerable')
  try {
    const full = await runTool(udpScanner, { target: '127.0.0.1', params: { ports: 'all', timeout_ms: 500, retries: 1 } })
    // 192.0.2.1 (TEST-NET-1): the namespace has no route, so every probe fails with ENETUNREACH.
    const unreachable = await runTool(udpScanner, { target: '192.0.2.1', params: { ports: '53,123,161' } })
    console.log(
      JSON.stringify({
        full: {
          error: full.error?.message,
          ports: full.output.ports,
          summary: full.output.ports_summary,
          ms: full.elapsedMs,
          ids: [...new Set(full.findings.map((f) => f.check.id))].sort(),
        },
        truth: bed.truth,
        unreachable: { name: unreachable.error?.name, message: unreachable.error?.message },
      }),
    )
  } finally {
    await bed.close()
  }
}

if (CHILD) {
  await child()
} else {
  test('inside a namespace: a full 1-65535 scan finds exactly the test bed; no route → connection error', {
    timeout: 55_000,
  }, async (t) => {
    const ns = `ward-udp-${process.pid}`
    if (spawnSync('ip', ['netns', 'add', ns]).status !== 0) {
      // Without CAP_SYS_ADMIN the namespace cannot exist; say so and check what still can be checked.
      console.log('cannot create a network namespace (not root?): full-range scan not run')
      assert.notEqual(process.getuid?.(), 0, 'root must be able to create a namespace')
      return
    }
    t.after(() => spawnSync('ip', ['netns', 'delete', ns]))
    assert.equal(spawnSync('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']).status, 0)
    const { stdout } = await promisify(execFile)(
      'ip',
      ['netns', 'exec', ns, process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url)],
      {
        env: { ...process.env, WARD_UDP_NETNS_CHILD: '1' },
        timeout: 50_000,
        maxBuffer: 1 << 24,
      },
    )
    const r = JSON.parse(stdout.trim().split('\n').pop()!)
    assert.equal(r.full.error, undefined)
    const expectOpen = r.truth
      .filter((x: { state: string }) => x.state !== 'closed')
      .map((x: { port: number; state: string }) => [x.port, x.state])
    assert.deepEqual(
      r.full.ports.map((x: { port: number; state: string }) => [x.port, x.state]),
      expectOpen,
    )
    assert.equal(r.full.summary.scanned, 65535)
    assert.equal(r.full.summary.closed, 65535 - expectOpen.length)
    assert.ok(r.full.ids.includes('udp.memcached.exposed'))
    console.log(`full-range scan in the namespace: ${Math.round(r.full.ms)} ms`)
    assert.equal(r.unreachable.name, 'TargetUnreachableError', r.unreachable.message)
  })
}
