// A matched check template as the Website Scanner reports it (the shared mapping of every tool that runs templates).
export { templateCheck, templateHit } from '../../lib/templates/finding.js'
