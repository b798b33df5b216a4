// The deployment's secret key at start-up: taken from WARD_SECRET_KEY or the key file (created
// owner-only at the first start), checked against the key this database's secrets were sealed with
// (a wrong or missing key stops start-up with one clear line), then rows written in plain text by an
// older Ward are sealed. Repositories reach the key through `secretsOf(db)`, which also works on
// a transaction. Rotation is not supported: one key per database.
import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import {
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely'
import { ConfigError, SECRET_KEY_FORMAT, parseSecretKey } from '../config/config.js'
import type { Database } from './schema.js'
import { SecretBox, SecretOpenError, ensureSealed, isSealed } from './secret-box.js'
import { nowIso } from './time.js'

export interface SecretKeySource {
  /** WARD_SECRET_KEY, decoded. */
  secretKey: Buffer | null
  /** The key file used when no key is given; null (in-memory databases only) = a new key per process. */
  secretKeyFile: string | null
}

/**
 * Carries a database's SecretBox. A Kysely plugin because plugins are the one thing a Kysely instance
 * hands on to its transactions and connections; it changes no query.
 */
export class SecretsCarrier implements KyselyPlugin {
  box: SecretBox | null = null
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result)
  }
}

/** The SecretBox of a database opened by openDatabase (or of a transaction on it). */
export function secretsOf(db: Kysely<Database>): SecretBox {
  const carrier = db.getExecutor().plugins.find((p): p is SecretsCarrier => p instanceof SecretsCarrier)
  if (!carrier?.box) throw new Error('this database was opened without its secret key (openDatabase with migrate: false loads none)')
  return carrier.box
}

const CHECK_TEXT = 'ward secret key check'

/** Loads and checks the key, seals older plain rows, and hands the key to `carrier`. */
export async function loadSecrets(db: Kysely<Database>, carrier: SecretsCarrier, src: SecretKeySource): Promise<SecretBox> {
  const check = await db.selectFrom('secret_key_check').selectAll().where('id', '=', 1).executeTakeFirst()
  const box = new SecretBox(keyOf(src, check !== undefined))
  const where = src.secretKey ? 'WARD_SECRET_KEY' : `the key file ${src.secretKeyFile}`
  if (check) verify(box, check, where)
  else {
    await db
      .insertInto('secret_key_check')
      .values({ id: 1, key_id: box.keyId, sealed: box.seal(CHECK_TEXT), created_at: nowIso() })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    // Another process may have written the row first, with its own key.
    verify(box, await db.selectFrom('secret_key_check').selectAll().where('id', '=', 1).executeTakeFirstOrThrow(), where)
  }
  // Every row once, at the first start that has a key (the upgrade); later starts only look where an
  // older process still running beside this one could have written: profiles, scans not yet ended.
  await sealPlainRows(db, box, !check)
  carrier.box = box
  return box
}

function verify(box: SecretBox, row: { key_id: string; sealed: string }, where: string) {
  let ok = false
  try {
    ok = isSealed(row.sealed) && box.open(row.sealed) === CHECK_TEXT
  } catch (e) {
    if (!(e instanceof SecretOpenError)) throw e
  }
  if (!ok)
    throw new ConfigError(
      `${where} holds key ${box.keyId}, but this database's secrets are sealed with key ${row.key_id}: ` +
        'start Ward with that key (WARD_SECRET_KEY or WARD_SECRET_KEY_FILE); every process of one database needs the same key',
    )
}

function keyOf(src: SecretKeySource, databaseHasKey: boolean): Buffer {
  if (src.secretKey) return src.secretKey
  const file = src.secretKeyFile
  if (file === null) {
    if (databaseHasKey)
      throw new ConfigError('WARD_SECRET_KEY: this database holds sealed secrets; give its key (WARD_SECRET_KEY or WARD_SECRET_KEY_FILE)')
    return randomBytes(32)
  }
  if (fs.existsSync(file)) return readKeyFile(file)
  if (databaseHasKey)
    throw new ConfigError(
      `WARD_SECRET_KEY_FILE: the key file ${file} does not exist, but this database's secrets are sealed with a key: ` +
        'restore the file, or give the key with WARD_SECRET_KEY or WARD_SECRET_KEY_FILE',
    )
  return createKeyFile(file)
}

function readKeyFile(file: string): Buffer {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (e) {
    throw new ConfigError(
      `WARD_SECRET_KEY_FILE: cannot read the key file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    )
  }
  const key = parseSecretKey(text)
  if (!key) throw new ConfigError(`WARD_SECRET_KEY_FILE: the key file ${file} must hold ${SECRET_KEY_FORMAT}`)
  return key
}

/**
 * Writes a new key owner-only (0600, in a 0700 directory when Ward makes it). Written aside and
 * linked into place, so processes starting together never read a half-written file: the one whose
 * link loses reads the winner's key.
 */
function createKeyFile(file: string): Buffer {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 })
  const key = randomBytes(32)
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  fs.writeFileSync(tmp, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
  try {
    fs.chmodSync(tmp, 0o600) // whatever the umask
    fs.linkSync(tmp, file)
    return key
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file)
    throw new ConfigError(
      `WARD_SECRET_KEY_FILE: cannot create the key file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    )
  } finally {
    fs.rmSync(tmp, { force: true })
  }
}

const SEALED_LIKE = 'wardenc:v1:%'

/** The columns that hold a whole secret, and (`live`) the only rows of each that matter unless `all`. */
const SECRET_COLUMNS = [
  { table: 'vpn_profiles', key: 'uuid', column: 'password', live: null },
  { table: 'callback_deliveries', key: 'id', column: 'secret', live: sql`and status = 'pending'` },
] as const

/** The rows of one SECRET_COLUMNS entry whose secret is still plain text. */
async function plainSecrets(db: Kysely<Database>, c: (typeof SECRET_COLUMNS)[number], all: boolean) {
  const { rows } = await sql<{ k: string | number; old: string }>`select ${sql.ref(c.key)} as k, ${sql.ref(c.column)} as old
    from ${sql.table(c.table)} where ${sql.ref(c.column)} is not null and ${sql.ref(c.column)} not like ${SEALED_LIKE}
    ${all || !c.live ? sql`` : c.live}`.execute(db)
  return rows.map((r) => ({ key: r.k, old: r.old }))
}

/**
 * Seals the secrets that rows written before sealing hold in plain text: in every row (`all`), or in
 * the VPN profiles, pending deliveries and waiting or running scans. Each UPDATE names the old value,
 * so processes starting together (or a row changed meanwhile) never seal twice.
 */
async function sealPlainRows(db: Kysely<Database>, box: SecretBox, all: boolean): Promise<void> {
  for (const c of SECRET_COLUMNS) await resealEach(db, c.table, c.key, c.column, await plainSecrets(db, c, all), (plain) => box.seal(plain))

  // report_callback is JSON text written by JSON.stringify: `"secret":"` starts the member.
  let sq = db
    .selectFrom('scans')
    .select(['id', 'report_callback'])
    .where('report_callback', 'like', '%"secret":%')
    .where('report_callback', 'not like', `%"secret":"${SEALED_LIKE}`)
  if (!all) sq = sq.where('status', 'in', ['waiting', 'running'])
  const scans = await sq.execute()
  const callbacks = scans.map((r) => ({ key: r.id, old: r.report_callback! }))
  await resealEach(db, 'scans', 'id', 'report_callback', callbacks, (json) => sealCallbackSecret(box, json))
}

/**
 * Writes `seal(old)` over each row's old value of `column` where it differs. The UPDATE names the old
 * value, so a row changed meanwhile, or sealed already by another process, is left as it is.
 */
async function resealEach(
  db: Kysely<Database>,
  table: 'vpn_profiles' | 'callback_deliveries' | 'scans',
  key: string,
  column: string,
  rows: readonly { key: string | number; old: string }[],
  seal: (old: string) => string,
): Promise<void> {
  for (const r of rows) {
    const sealed = seal(r.old)
    if (sealed === r.old) continue
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sealed} where ${sql.ref(key)} = ${r.key} and ${sql.ref(column)} = ${r.old}`.execute(
      db,
    )
  }
}

/** A report_callback JSON text with its secret sealed. */
export function sealCallbackSecret(box: SecretBox, json: string): string {
  const cb = JSON.parse(json) as { secret?: unknown }
  if (typeof cb.secret !== 'string' || isSealed(cb.secret)) return json
  return JSON.stringify({ ...cb, secret: ensureSealed(box, cb.secret) })
}

/** Keeps a secret a scan found (a guessed password), sealed; `label` names what it opens, never the secret. */
export async function keepScanSecret(db: Kysely<Database>, scanId: number, label: string, plain: string): Promise<void> {
  const shortLabel = label.slice(0, 500)
  await db
    .insertInto('scan_secrets')
    .values({ scan_id: scanId, label: shortLabel, sealed: secretsOf(db).seal(plain), created_at: nowIso() })
    .execute()
}
