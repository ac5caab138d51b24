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
export function redactingLogger(
  inner: Logger,
  secrets: readonly (string | undefined)[],
  minLength?: number
): Logger {
  const scrub = redactor(secrets, minLength)
  return {
    info: m => inner.info(scrub(m)),
    warn: m => inner.warn(scrub(m)),
    debug: m => inner.debug(scrub(m))
  }
}

export function redactor(secrets: readonly (string | undefined)[], minLength = 6): (text: string) => string {
  // Short values would redact ordinary words; real credentials are long.
  const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= minLength)
  if (values.length === 0) return t => t
  const forms = [...new Set(values.flatMap(maskedForms))].sort((a, b) => b.length - a.length)
  return text => forms.reduce((acc, v) => acc.split(v).join('***'), text)
}

/** The forms a secret may take in text: as is, in base64 (Basic auth), inside a JSON string, URL-encoded. */
export function maskedForms(value: string): string[] {
  return [
    ...new Set([
      value,
      Buffer.from(value).toString('base64'),
      JSON.stringify(value).slice(1, -1),
      encodeURIComponent(value)
    ])
  ].filter(v => v.length > 0)
}

/** Secret variables are redacted from any text from 4 characters up: a password may be short. */
export const SECRET_VAR_MIN_LENGTH = 4

/** Every string inside a JSON-like value, redacted (keys included); the structure stays as it is. */
export function redactDeep<T>(value: T, scrub: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrub(k), walk(x)]))
    return v
  }
  return walk(value) as T
}
