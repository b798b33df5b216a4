// The embedded database is created owner-only: its directory 0700, the file and its WAL 0600.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../src/store/db.js'

test('a new SQLite database and the directories made for it are owner-only', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-modes-'))
  const file = path.join(root, 'data', 'nested', 'ward.db')
  const old = process.umask(0o022) // the usual umask, which alone would give 0755 and 0644
  try {
    const h = await openDatabase({ kind: 'sqlite', file })
    try {
      await h.db.selectFrom('users').select('id').execute()
      assert.equal(fs.statSync(path.join(root, 'data')).mode & 0o777, 0o700)
      assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700)
      assert.equal(fs.statSync(file).mode & 0o777, 0o600)
      if (fs.existsSync(`${file}-wal`)) assert.equal(fs.statSync(`${file}-wal`).mode & 0o777, 0o600)
    } finally {
      await h.close()
    }
  } finally {
    process.umask(old)
    fs.rmSync(root, { recursive: true, force: true })
  }
})
