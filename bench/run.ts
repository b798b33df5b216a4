// `npm run bench -- <name> [args]`: runs bench/<name>.ts's exported run(args).
import { readdirSync } from 'node:fs'

const [name, ...args] = process.argv.slice(2)
const available = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort()
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name> [args]\navailable: ${available.join(', ')}`)
  process.exit(name ? 2 : 0)
}
const mod = await import(`./${name}.ts`)
await mod.run(args)
