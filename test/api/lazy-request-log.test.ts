// Request loggers made on first use (api/lazy-request-log.ts): a line logged at an enabled level
// carries the request's id as with pino's own child; a disabled level writes nothing and makes no child.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import pino from 'pino'
import { lazyChildLogger } from '../../src/api/lazy-request-log.js'

function capture(level: string, onChild: () => void = () => {}) {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l))
      done()
    },
  })
  return { logger: pino({ level, onChild }, stream), lines }
}

test('a request logs with its id at enabled levels, and nothing at disabled ones', async () => {
  let children = 0
  const { logger, lines } = capture('warn', () => children++)
  const log = lazyChildLogger(logger, { reqId: 'req-7' }, {})
  log.info('not shown')
  log.debug({ a: 1 }, 'not shown either')
  assert.equal(children, 0, 'no child logger for a disabled level')
  log.error({ code: 5 }, 'shown')
  log.warn('shown too')
  assert.equal(children, 1, 'one child, made on first use')
  assert.deepEqual(
    lines.map((l) => [l.reqId, l.msg, l.code]),
    [
      ['req-7', 'shown', 5],
      ['req-7', 'shown too', undefined],
    ],
  )
  assert.equal(log.level, 'warn')
  log.child({ sub: 1 }).error('from a grandchild')
  assert.deepEqual([lines[2]?.reqId, lines[2]?.sub], ['req-7', 1])
})

test("Fastify's request lines carry the request id through the lazy logger", async () => {
  const { logger, lines } = capture('info')
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLogger })
  app.get('/x', async (req) => {
    req.log.info('in the handler')
    return { ok: true }
  })
  await app.inject({ method: 'GET', url: '/x' })
  await app.close()
  const byMsg = new Map(lines.map((l) => [l.msg, l]))
  for (const msg of ['incoming request', 'in the handler', 'request completed']) assert.match(String(byMsg.get(msg)?.reqId), /^req-/, msg)
})
