// Errors a tool throws to end its scan in a specific state (decisions.md "Scan states").
// Anything else thrown by a tool ends the scan `failed to start` if nothing ran yet, else `finished`
// with the error in status_message — the engine decides; tools only say what happened.

/** The target could not be reached at all → `connection error`. */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError'
}
/** The tool cannot run with these inputs or on this machine → `failed to start`. */
export class ToolStartError extends Error {
  override name = 'ToolStartError'
}
/** Credentials in tool_params were rejected → `auth failed`. */
export class AuthFailedError extends Error {
  override name = 'AuthFailedError'
}
/** redirect_level=check_accessibility saw a redirect, or a redirect left the allowed scope → `connection error`. */
export class RedirectRefusedError extends TargetUnreachableError {
  override name = 'RedirectRefusedError'
}
