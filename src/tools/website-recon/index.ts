// Tool 310, Website Recon: technology fingerprinting of a website.
import { defineTool } from '../../toolkit/tool.js'
import { websiteReconManifest } from './manifest.js'
import { runWebsiteRecon } from './run.js'

export const websiteRecon = defineTool(websiteReconManifest, runWebsiteRecon)
