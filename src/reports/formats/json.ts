// The raw JSON export: the scan, its findings and tests as the server gave them.
import type { FormatWriter } from './types.js'

export const toJson: FormatWriter = (scan, findings, tests, threshold) =>
  JSON.stringify({ scan, fail_on: threshold, findings, tests }, null, 2) + '\n'
