// output_data of the diagnostic tool: how many steps it was asked to run.
import type { ScanContext } from '../../toolkit/tool.js'

export const outputSteps = (ctx: Pick<ScanContext, 'output'>, steps: number) => ctx.output('steps', steps)
