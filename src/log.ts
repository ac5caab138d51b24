/** Where progress goes: the runner log in the action, stderr in the CLI. */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  debug(message: string): void
}

export const silentLogger: Logger = { info() {}, warn() {}, debug() {} }

/**
 * Defence in depth: whatever a message contains, known secret values never leave through the log.
 * (The action also registers them with the runner; the CLI has no runner to do it.)
 */
export function redactingLogger(inner: Logger, secrets: readonly (string | undefined)[]): Logger {
  const scrub = redactor(secrets)
  return {
    info: m => inner.info(scrub(m)),
    warn: m => inner.warn(scrub(m)),
    debug: m => inner.debug(scrub(m))
  }
}

export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  // Short values would redact ordinary words; real credentials are long.
  const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 6)
  if (values.length === 0) return t => t
  const basics = values.flatMap(v => [v, Buffer.from(v).toString('base64')])
  return text => basics.reduce((acc, v) => acc.split(v).join('***'), text)
}
