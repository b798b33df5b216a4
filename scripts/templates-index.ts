// templates/index.json, the summaries of the shipped template library (tools/lib/templates/shipped.ts
// reads it so a start need not parse every template): rewrite it after editing templates/
// (`npm run templates:index`). test/tools/templates/library.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readShippedLibrary, SHIPPED_DIR, SHIPPED_INDEX, shippedIndexText } from '../src/tools/lib/templates/shipped.js'

writeFileSync(join(SHIPPED_DIR, SHIPPED_INDEX), shippedIndexText(readShippedLibrary()))
