// A real browser for the web interface tests: Debian's chromium driven by playwright-core, headless,
// no background traffic, and a fresh profile (--user-data-dir) for each person a test plays.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

export const CHROMIUM = process.env.WARD_CHROMIUM || '/usr/bin/chromium'

/** Why the browser tests cannot run here, or false. */
export const browserSkip = (): string | false =>
  fs.existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: run node scripts/ensure-chromium.mjs (as root) or install Debian's chromium`

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** A browser with a fresh profile; close() removes the profile. */
export async function launchBrowser(): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-chromium-'))
  // playwright passes the profile to chromium as --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
    viewport: { width: 1280, height: 860 },
  })
  const close = context.close.bind(context)
  context.close = async (o) => {
    await close(o)
    // chromium's helpers may still be writing the profile for a moment after it closed.
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  }
  return context
}
