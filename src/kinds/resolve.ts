/**
 * Names to ids: data sources and webhooks are written by name in manifests and resolved against the
 * live lists at plan time. An unknown or ambiguous name is a plan error at the manifest line.
 */
import { didYouMean } from '../manifest/issues.js'

export type Resolution = { id: string } | { error: string }

export function resolveByName(
  items: ReadonlyArray<{ id: string; name: string }>,
  name: string,
  what: string
): Resolution {
  const matches = items.filter(i => i.name === name)
  if (matches.length === 1) return { id: matches[0]!.id }
  if (matches.length > 1) {
    return {
      error: `${what} name "${name}" is ambiguous: ${matches.length} have it (ids ${matches.map(m => m.id).join(', ')}); use the id instead`
    }
  }
  const guess = didYouMean(
    name,
    items.map(i => i.name)
  )
  const known =
    items.length > 0 && !guess
      ? `; known: ${items
          .slice(0, 10)
          .map(i => i.name)
          .join(', ')}`
      : ''
  return { error: `no ${what} named "${name}"${guess ? ` (did you mean "${guess}"?)` : known}` }
}

export function resolveById(
  items: ReadonlyArray<{ id: string; name: string }>,
  id: string,
  what: string
): Resolution {
  return items.some(i => i.id === id) ? { id } : { error: `no ${what} with id "${id}"` }
}
