/** Ids from manifests and servers become path segments; anything that could escape one is refused. */
const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/

export class UnsafePathSegmentError extends Error {
  constructor(readonly what: string) {
    super(`refusing to use ${what} as a URL path segment: only letters, digits, "_" and "-" are allowed`)
    this.name = 'UnsafePathSegmentError'
  }
}

export function pathSegment(value: string, what: string): string {
  if (!SAFE_SEGMENT.test(value))
    throw new UnsafePathSegmentError(`${what} ${JSON.stringify(value.slice(0, 64))}`)
  return value
}
