// output_data members of the Password Auditor: `credentials` (found, password masked) and `logins` (what was audited).
import { maskPassword } from './detect/mask.js'

export interface FoundCredential {
  service: string
  port: number
  username: string
  password_masked: string
  product: string | null
}

export interface AuditedLogin {
  service: string
  port: number
  product: string | null
  url: string | null
  attempts: number
  found: number
  stopped: string | null
}

export const credentialEntry = (service: string, port: number, username: string, password: string, product: string | null): FoundCredential => ({
  service,
  port,
  username,
  password_masked: maskPassword(password),
  product,
})
