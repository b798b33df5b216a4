#!/usr/bin/env node
// Runs Ward's TypeScript sources directly (tsx), so `npx ward ...` works right after `npm install`.
import { register } from 'tsx/esm/api'
register()
await import('../src/cli/main.ts')
