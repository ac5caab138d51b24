/**
 * Building blocks the real request schemas share, written with zod's v3 API because the server runs zod 3.25 and its
 * default messages ("Required", "Invalid enum value. Expected 'a' | 'b', received 'c'") are part of the 400 text a
 * client sees (packages/api/src/utils/enhancedErrors.ts joins them as `<path>: <message>` with "; ").
 */
import { z } from 'zod/v3'
import type { Issue } from '../errors.js'
import { LIMITS, NUMBER_FORMAT_OUTPUTS, NUMERIC_UNITS, PALETTE_TOKENS } from './vocabulary.js'

export { z }

/** Which server the rules stand in for: HyperDX itself, or the managed cloud's gateway in front of it. */
export type RuleMode = 'self-hosted' | 'managed'

export type Parsed<T = unknown> = { ok: true; data: T } | { ok: false; issues: Issue[] }

/** Runs a schema and renders its issues as the server does: path joined by '.', message as zod wrote it. */
export function parseWith<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): Parsed<T> {
  const result = schema.safeParse(body)
  if (result.success) return { ok: true, data: result.data }
  return { ok: false, issues: result.error.issues.map(toIssue) }
}

export function toIssue(issue: z.ZodIssue): Issue {
  return { path: issue.path.join('.'), message: issue.message }
}

/**
 * mongoose's ObjectId.isValid (bson 4): 24 hexadecimal digits, or any string of exactly 12 characters (12 raw bytes).
 * zod.ts objectIdSchema: message `Invalid ObjectId`.
 */
export const isValidObjectId = (value: string): boolean =>
  /^[0-9a-fA-F]{24}$/.test(value) || value.length === 12
export const objectId = z.string().refine(isValidObjectId, 'Invalid ObjectId')

/** An enum of plain strings, reported as zod's enum does (order kept: the message lists the values in it). */
export const oneOf = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]])

export const paletteToken = oneOf(PALETTE_TOKENS)

/** types.ts NumberFormatSchema: `output` is required; the other keys are optional and typed. */
export const numberFormat = z.object({
  output: oneOf(NUMBER_FORMAT_OUTPUTS),
  numericUnit: oneOf(NUMERIC_UNITS).optional(),
  mantissa: z.number().int().optional(),
  thousandSeparated: z.boolean().optional(),
  average: z.boolean().optional(),
  decimalBytes: z.boolean().optional(),
  factor: z.number().optional(),
  currencySymbol: z.string().optional(),
  unit: z.string().optional()
})

/** types.ts tagsSchema: at most 50 tags of at most 32 characters; duplicates are removed on write, not refused. */
export const tags = z.array(z.string().max(LIMITS.maxTagLength)).max(LIMITS.maxTags).optional()

/** A custom issue at `path` (relative to the value being refined), as the server's superRefine callbacks add them. */
export function addIssue(ctx: z.RefinementCtx, message: string, path?: (string | number)[]): void {
  ctx.addIssue({ code: z.ZodIssueCode.custom, message, ...(path ? { path } : {}) })
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
