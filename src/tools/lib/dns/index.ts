// A small DNS client for the tools: wire format, UDP/TCP queries, AXFR, address lookups.
export * from './message.js'
export * from './client.js'
export * from './lookup.js'
