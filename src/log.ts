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

/** Line breaks and tabs: one space each run, so untrusted text stays on the line it was printed in. */
const BREAKS = /[\t\n\r\u2028\u2029]+/g
/**
 * What a reader cannot see but a terminal, the runner or a renderer acts on: C0 and C1 controls and DEL
 * but LF and tab (ESC and C1 CSI start terminal escapes, CR a line the runner may read as a command),
 * format characters (bidirectional controls that reorder what is shown, zero-width spaces and joiners,
 * soft hyphen, BOM, tag characters), and the fillers that render as nothing. A joiner between two emoji
 * (👩‍💻) is the first alternative: kept.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- lone controls, marks and modifiers are the point
  /(\p{Extended_Pictographic}[\u{fe0f}\u{1f3fb}-\u{1f3ff}]?\u200d(?=\p{Extended_Pictographic}))|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\uffa0]/gu

/** Every hidden character shown as `\u{202E}`; line breaks and tabs stay (for text of many lines). */
export function visible(text: string): string {
  return text.replace(HIDDEN, (match, emoji: string | undefined) =>
    emoji ? match : `\\u{${match.codePointAt(0)!.toString(16).toUpperCase()}}`
  )
}

/**
 * Untrusted text (a name, a server's message) as it may be printed anywhere: on one line, shortened to
 * `maxLength`, with every hidden character visible. The one function every line of output goes through.
 */
export function printable(value: unknown, maxLength = 1000): string {
  let text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  if (text.length > maxLength) text = `${text.slice(0, maxLength)}…`
  return visible(text.replace(BREAKS, ' '))
}
