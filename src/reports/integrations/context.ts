// What every channel gets and returns: the delivery, its integration with the config opened, the
// guarded transport, and the payload built once for the delivery.
import type { Logger } from 'pino'
import type { Db } from '../../store/db.js'
import type { IntegrationDeliveryRow, IntegrationRow } from '../../store/schema.js'
import type { Config } from '../../store/integration-kinds.js'
import type { Message } from './messages.js'
import type { IntegrationTransport, Outcome } from './http.js'

export interface ChannelContext {
  db: Db
  integ: IntegrationRow & { plain: Config }
  delivery: IntegrationDeliveryRow
  transport: IntegrationTransport
  timeoutMs: number
  publicUrl: string | null
  log: Logger
  /** Keeps the delivery's lease while a long piece of work (many tickets) runs. */
  renew(): Promise<void>
}

/** What a delivery carries: a message, a ticket-only triage note, or a test. */
export type Payload =
  | Message
  | { kind: 'triage'; dedup_key: string; reason: string | null }
  | { kind: 'test'; title: string; text: string; link: string | null }

export type Channel = (ctx: ChannelContext, p: Payload) => Promise<Outcome>
