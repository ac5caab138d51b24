/** What a caught value says, in one place: anything can be thrown, and only an Error has a message. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

/** The stack as well, for a failure nobody expected: where it came from is the first thing to ask. */
export function errorWithStack(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e)
}
