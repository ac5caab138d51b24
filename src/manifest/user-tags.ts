import { z } from 'zod'
import { LIMITS } from './vocabulary.js'

/**
 * The tags a manifest sets on a tagged resource (dashboards, saved searches): one of the server's tags is
 * left for the stack's ownership tag, so a manifest gets one fewer.
 */
export const userTags = () =>
  z
    .array(z.string().max(LIMITS.tagLength, { error: `must be at most ${LIMITS.tagLength} characters` }))
    .max(LIMITS.tags - 1, {
      error: `at most ${LIMITS.tags - 1} tags (one of the server's ${LIMITS.tags} is the ownership tag)`
    })
