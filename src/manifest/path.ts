/** A field's path inside a manifest document, e.g. `['tiles', 0, 'w']`, and how a user reads it. */
export type PathSegment = string | number

/** `tiles[0].w`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = ''
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg
  return out
}
