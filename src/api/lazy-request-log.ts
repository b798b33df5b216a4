// Fastify gives every request a child logger carrying its id; making one costs pino a bindings
// string per request, and most requests never log (at LOG_LEVEL=warn, none does). This child is
// made when a request first logs at an enabled level.
import type { FastifyBaseLogger } from 'fastify'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type Bindings = Record<string, unknown>
type PinoLike = FastifyBaseLogger & { isLevelEnabled(level: string): boolean }

class LazyRequestLog {
  #child: PinoLike | null = null
  constructor(
    private readonly parent: PinoLike,
    private readonly bindings: Bindings,
  ) {}
  get level() {
    return this.parent.level
  }
  set level(l: string) {
    this.real().level = l
  }
  private real(): PinoLike {
    if (!this.#child) this.#child = this.parent.child(this.bindings) as PinoLike
    return this.#child
  }
  private at(level: Level, args: unknown[]) {
    if (this.#child || this.parent.isLevelEnabled(level)) (this.real()[level] as (...a: unknown[]) => void)(...args)
  }
  fatal(...a: unknown[]) {
    this.at('fatal', a)
  }
  error(...a: unknown[]) {
    this.at('error', a)
  }
  warn(...a: unknown[]) {
    this.at('warn', a)
  }
  info(...a: unknown[]) {
    this.at('info', a)
  }
  debug(...a: unknown[]) {
    this.at('debug', a)
  }
  trace(...a: unknown[]) {
    this.at('trace', a)
  }
  silent() {}
  isLevelEnabled(level: string) {
    return (this.#child ?? this.parent).isLevelEnabled(level)
  }
  child(bindings: Bindings, opts?: object) {
    return this.real().child(bindings, opts)
  }
}

const hasKeys = (o: object) => {
  for (const _ in o) return true
  return false
}

/**
 * Fastify's `childLoggerFactory`. A per-route level or serializers, or a logger that cannot say
 * which levels are on (Fastify's own when logging is off), get a real child at once.
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: object): FastifyBaseLogger {
  const pino = logger as Partial<PinoLike>
  if (hasKeys(opts) || typeof pino.isLevelEnabled !== 'function') return logger.child(bindings, opts)
  return new LazyRequestLog(logger as PinoLike, bindings) as unknown as FastifyBaseLogger
}
