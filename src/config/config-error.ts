/** A wrong setting: start-up stops with one line naming the variable and why. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}
