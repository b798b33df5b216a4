#!/usr/bin/env node
// Runs Ward's compiled JavaScript (dist/, built from src/ by `npm install` through the prepare
// script). As a safety net it compiles first when dist/ is missing or older than a source file, e.g.
// after a pull without a reinstall. Stack traces point into the TypeScript sources (source maps).
import { ensureBuilt } from '../scripts/build.mjs'

process.setSourceMapsEnabled(true)
await ensureBuilt()
await import('../dist/cli/main.js')
