// Errors with an HTTP meaning, raised by domain rules and mapped to the error body of decisions.md
// (`{"status", "message", "details"?}`) by the API layer.
export class WardError extends Error {
  override name = 'WardError'
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

export const badRequest = (message: string, details?: unknown) => new WardError(400, message, details)
export const forbidden = (message: string) => new WardError(403, message)
export const notFound = (what: string) => new WardError(404, `${what} does not exist`)
export const conflict = (message: string) => new WardError(409, message)
