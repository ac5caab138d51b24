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

/** What every colour rule ends with: its colour and an optional label. */
export const colorRuleTail = { color: paletteToken, label: z.string().max(40).optional() }

/**
 * The colour rules a number tile's editor writes (types.ts numericOrderedColorCondition, betweenColorCondition,
 * equalityColorCondition): the v2 API and the MCP tool take these alone, the web UI's schema more.
 */
export const NUMBER_TILE_COLOR_CONDITIONS = [
  z.object({ operator: z.enum(['gt', 'gte', 'lt', 'lte']), value: z.number().finite(), ...colorRuleTail }),
  z.object({
    operator: z.literal('between'),
    value: z.array(z.number().finite()).length(2),
    ...colorRuleTail
  }),
  z.object({
    operator: z.enum(['eq', 'neq']),
    value: z.union([z.number().finite(), z.string().max(200)]),
    ...colorRuleTail
  })
] as const

/** types.ts NumberTileColorConditionSchema. */
export const numberTileColorRule = z.discriminatedUnion('operator', [...NUMBER_TILE_COLOR_CONDITIONS])

/** types.ts BackgroundChartSchema: a number tile's trend line behind its value. */
export const backgroundChart = z.object({ type: z.enum(['line', 'area']), color: paletteToken.optional() })

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

/** types.ts DashboardContainerSchema: a group of tiles, with optional tabs; the v2 API and the web UI share it. */
const containerText = z.string().min(1).max(LIMITS.containerIdMax)
export const dashboardContainer = z.object({
  id: containerText,
  title: containerText,
  collapsed: z.boolean(),
  collapsible: z.boolean().optional(),
  bordered: z.boolean().optional(),
  tabs: z
    .array(z.object({ id: containerText, title: containerText }))
    .max(LIMITS.maxContainerTabs)
    .optional()
})

/** types.ts tagsSchema: at most 50 tags of at most 32 characters; duplicates are removed on write, not refused. */
export const tags = z.array(z.string().max(LIMITS.maxTagLength)).max(LIMITS.maxTags).optional()

/** A custom issue at `path` (relative to the value being refined), as the server's superRefine callbacks add them. */
export function addIssue(ctx: z.RefinementCtx, message: string, path?: (string | number)[]): void {
  ctx.addIssue({ code: z.ZodIssueCode.custom, message, ...(path ? { path } : {}) })
}

const YEAR_MS = 365 * 24 * 60 * 60 * 1000

/** types.ts scheduleStartAtSchema: an alert's first window, at most a year ahead and ten years back. */
export const scheduleStartAt = z
  .union([z.string().datetime(), z.null()])
  .optional()
  .refine(v => v == null || new Date(v).getTime() <= Date.now() + YEAR_MS, {
    message: 'scheduleStartAt must be within 1 year from now'
  })
  .refine(v => v == null || new Date(v).getTime() >= Date.now() - 10 * YEAR_MS, {
    message: 'scheduleStartAt must be within 10 years in the past'
  })

/**
 * types.ts checkAlertChannelSelection: one of the two, `channel` equal to `channels[0]` (compared by content), no
 * duplicate channels. The v2 alert body and the alert a web UI tile carries both run it.
 */
export function channelSelectionProblem(
  channel: Record<string, unknown> | undefined,
  channels: Record<string, unknown>[] | undefined
): string | undefined {
  if (channel == null && channels == null) return 'Provide either "channel" or "channels"'
  const key = (c: Record<string, unknown> | undefined) =>
    c ? JSON.stringify(Object.entries(c).sort(([a], [b]) => a.localeCompare(b))) : ''
  if (channel != null && channels != null && (channels[0] === undefined || key(channel) !== key(channels[0])))
    return 'When both "channel" and "channels" are provided, "channel" must match the first entry of "channels"'
  const keys = (channels ?? []).map(key)
  if (new Set(keys).size !== keys.length) return 'Duplicate notification channels are not allowed'
  return undefined
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
