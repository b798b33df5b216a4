#!/usr/bin/env -S node --max-semi-space-size=2
// Runs Ward's compiled JavaScript (dist/, built from src/ by `npm install` through the prepare
// script). As a safety net it compiles first when dist/ is missing or older than a source file, e.g.
// after a pull without a reinstall. Stack traces point into the TypeScript sources (source maps).
// --max-semi-space-size=2 (here and in `npm start`): V8 sizes the young generation for the start-up
// burst (schemas compiled, routes built) and keeps it, ~30 MB of an idle Ward; 2 MB semi-spaces keep
// the idle process near 100 MB RSS for a few more (cheap) scavenges under load (docs/benchmarks.md).
import { ensureBuilt } from '../scripts/build.mjs'

process.setSourceMapsEnabled(true)
await ensureBuilt()
await import('../dist/cli/main.js')
