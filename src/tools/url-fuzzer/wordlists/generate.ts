// Regenerates small.txt and medium.txt from our own sources in this folder:
//   special.txt     hand-written sensitive and well-known paths (VCS, config, backups, admin, debug)
//   vocabulary.txt  hand-written base vocabulary of web path names
// small  = special + CORE vocabulary (~500 words)
// medium = small + the whole vocabulary + variants of it (~5000 words), a superset of small.
// Run: node --import tsx src/tools/url-fuzzer/wordlists/generate.ts
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const here = dirname(fileURLToPath(import.meta.url))
const read = (f: string) =>
  readFileSync(join(here, f), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))

// The vocabulary words most worth a request on any site.
const CORE = `about account accounts admin administration administrator ajax api apis app apps archive archives assets
attachments audit auth backend backoffice backup backups bak beta bin blog build cache cart catalog cdn cgi
checkout client cms common conf config configs configuration console contact content controller core cp cron css
customer dashboard data database db debug default demo deploy dev devel developer development diag dist doc docs
download downloads dump edit editor email env error errors export ext feed files forum forums ftp gallery health
help home html images img import inc include includes index info install installer internal intranet js json lib
libs local log login logout logs mail main maintenance manage management manager media member members metrics
migrations misc mobile modules monitor monitoring new news old panel password passwords phone php plugins portal
preview private prod production profile proxy pub public register release remote report reports reset resources
rest root rss sandbox scripts search secret secrets secure security server services session settings setup shell
shop signin signup site sitemap sql src staging static stats status storage store style styles support sys system
temp template templates test testing tests themes tmp token tools trash update upgrade upload uploaded uploads user
users v1 v2 v3 vendor version web webhooks webmail website wiki www xml`.split(/\s+/)

const VARIANTS: ((w: string) => string)[] = [
  (w) => `_${w}`,
  (w) => `${w}_old`,
  (w) => `${w}-old`,
  (w) => `${w}2`,
  (w) => `old_${w}`,
  (w) => `${w}-dev`,
  (w) => `${w}_backup`,
]
const MEDIUM_SIZE = 5000

const special = read('special.txt')
const vocabulary = read('vocabulary.txt')
const vocabSet = new Set(vocabulary)
for (const w of CORE) if (!vocabSet.has(w)) throw new Error(`CORE word not in vocabulary: ${w}`)

const small = [...new Set([...special, ...CORE])]
const medium = new Set([...small, ...vocabulary])
for (const variant of VARIANTS) {
  for (const w of vocabulary) {
    if (medium.size >= MEDIUM_SIZE) break
    medium.add(variant(w))
  }
}
writeFileSync(join(here, 'small.txt'), small.join('\n') + '\n')
writeFileSync(join(here, 'medium.txt'), [...medium].join('\n') + '\n')
console.log(`small: ${small.length} words, medium: ${medium.size} words`)
