// Tools still import evidence from here; the tool kit re-exports it from reports/evidence.ts, after
// which this file goes.
export * from '../reports/evidence.js'
