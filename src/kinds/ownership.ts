/**
 * The ownership tag: how a stack recognizes its own dashboards. It must fit the server's 32-character
 * tag limit (FACTS.md), so a long stack name is shortened with a hash that keeps stacks apart.
 */
import { createHash } from 'node:crypto'
import { OWNERSHIP_TAG_PREFIX } from '../manifest/rules.js'
import { LIMITS } from '../manifest/vocabulary.js'

export function ownershipTag(stack: string): string {
  return stackTag(OWNERSHIP_TAG_PREFIX, stack)
}

/** `prefix` + the stack's name, shortened with a hash of it when the whole would pass the tag limit. */
export function stackTag(prefix: string, stack: string): string {
  const plain = `${prefix}${stack}`
  if (plain.length <= LIMITS.tagLength) return plain
  const hash = createHash('sha256').update(stack).digest('hex').slice(0, 8)
  const room = LIMITS.tagLength - prefix.length - hash.length - 1
  return `${prefix}${stack.slice(0, room)}~${hash}`
}

export const isOwnershipTag = (tag: string): boolean => tag.startsWith(OWNERSHIP_TAG_PREFIX)

/** The stack an ownership tag names, as the tag holds it (a long name shortened, ownershipTag). */
export const stackOfTag = (tag: string): string => tag.slice(OWNERSHIP_TAG_PREFIX.length)

/** The user's tags as a sorted set, without any stack's ownership tag. */
export function userTags(tags: readonly string[]): string[] {
  return [...new Set(tags.filter(t => !isOwnershipTag(t)))].sort()
}

/** The user's tags in their own order, without ownership tags or repeats: what a request sends, an export writes. */
export function orderedUserTags(tags: readonly string[]): string[] {
  return [...new Set(tags.filter(t => !isOwnershipTag(t)))]
}
