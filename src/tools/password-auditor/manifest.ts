// The Password Auditor's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { passwordAuditorParams } from './params.js'
import { passwordAuditorCatalogue } from './checks.js'
import { portSpecProblem } from '../../toolkit/ports.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'

export const passwordAuditorManifest: ToolManifest<typeof passwordAuditorParams> = defineManifest({
  id: 400,
  name: 'Password Auditor',
  description:
    'Finds the login services of the target (FTP, SSH, Telnet, MySQL, PostgreSQL, Redis, MongoDB, SMTP ' +
    'AUTH, HTTP Basic/Digest and the logins of Tomcat, Jenkins, Grafana, phpMyAdmin) and tries default ' +
    'and weak credentials on them, with per-account caps, pauses and lockout detection.',
  params: passwordAuditorParams,
  validateParams: (p) => portSpecProblem(p.ports, TCP_PORTS),
  checks: passwordAuditorCatalogue,
  load: async () => (await import('./run.js')).passwordAuditor.run,
})
