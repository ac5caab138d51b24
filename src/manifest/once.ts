/**
 * A value built on its first use and kept. Building a zod schema runs code for every field (a
 * `.describe()` is a clone), so the schemas of kinds a run never meets are built only when one shows up:
 * a repository of dashboards does not pay at start-up for the Source schema.
 */
export function once<T>(what: string, build: () => T): () => T {
  let built: { value: T } | undefined
  return () => {
    if (!built) {
      built = { value: build() }
      builtOnce.push(what)
    }
    return built.value
  }
}

/** What `once` has built so far in this process, in order (tests hold start-ups to what they need). */
export const builtOnce: string[] = []
