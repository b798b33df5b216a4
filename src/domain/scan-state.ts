// The scan state machine is a domain rule, but its table lives in store/scan-states.ts: the store
// applies it in every status UPDATE (and the engine, below domain, needs it too). This module is
// where api and web read it.
export * from '../store/scan-states.js'
