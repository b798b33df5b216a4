// Tool 400, Password Auditor: default and weak credentials on the target's login services.
import { defineTool } from '../../toolkit/tool.js'
import { passwordAuditorManifest } from './manifest.js'
import { runPasswordAudit } from './run.js'

export const passwordAuditor = defineTool(passwordAuditorManifest, runPasswordAudit)
