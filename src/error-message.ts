/** What a caught value says, in one place: anything can be thrown, and only an Error has a message. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

/** The stack as well, for a failure nobody expected: where it came from is the first thing to ask. */
export function errorWithStack(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e)
}

/** The longest value a message quotes: a misspelled word or an id, not a line of someone's file. */
export const MAX_QUOTED = 24

/**
 * A value as an error message may show it. A short single token is quoted (`"cuont"`), so the reader sees
 * the typo; anything longer or with spaces is described by its type and length only, so a message never
 * carries a line of a file it was not meant to read (a credentials file behind a link, a pasted secret).
 */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  if (typeof v === 'string') return isShortToken(v) ? `"${v}"` : describeShape(v)
  if (typeof v === 'number' || typeof v === 'boolean') {
    const text = String(v)
    return text.length <= MAX_QUOTED ? text : describeShape(v)
  }
  return describeShape(v)
}

/** A value by its type and size only, never its content: "a string of 38 characters", "a list of 3 items". */
export function describeShape(v: unknown): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  if (Array.isArray(v)) return `a list of ${v.length} item${v.length === 1 ? '' : 's'}`
  if (typeof v === 'object') return 'a mapping'
  if (typeof v === 'string') {
    if (v === '') return 'an empty string'
    const lines = v.split('\n').length
    return `a string of ${v.length} character${v.length === 1 ? '' : 's'}${lines > 1 ? ` on ${lines} lines` : ''}`
  }
  if (typeof v === 'number') return 'a number'
  if (typeof v === 'boolean') return 'true or false'
  return typeof v
}

const isShortToken = (s: string): boolean => s.length > 0 && s.length <= MAX_QUOTED && !/\s/.test(s)
