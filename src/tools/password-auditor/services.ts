// The kinds of login the Password Auditor knows. Data shared by the params schema and the plan.
export const SERVICE_KINDS = ['ftp', 'ssh', 'telnet', 'mysql', 'postgresql', 'redis', 'http'] as const
export type ServiceKind = (typeof SERVICE_KINDS)[number]
