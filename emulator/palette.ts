/**
 * How a stored colour reads back (HyperDX 2.36 packages/common-utils/src/types.ts): the v2 read
 * (dashboard-output.ts), the conversion to the v2 form (internal-form/) and the web UI's store all resolve a token
 * the same way.
 */
import { PALETTE_TOKENS } from './rules/vocabulary.js'

/** types.ts LEGACY_CHART_PALETTE_TOKEN_MAP: the numbered tokens of the first colour picker, by hue. */
const LEGACY_TOKENS: Record<string, string> = {
  'chart-1': 'chart-green',
  'chart-2': 'chart-blue',
  'chart-3': 'chart-orange',
  'chart-4': 'chart-red',
  'chart-5': 'chart-cyan',
  'chart-6': 'chart-pink',
  'chart-7': 'chart-purple',
  'chart-8': 'chart-light-blue',
  'chart-9': 'chart-brown',
  'chart-10': 'chart-gray'
}

/** types.ts resolveChartPaletteToken: a legacy numbered token reads as its hue; anything else unknown is absent. */
export function resolvePaletteToken(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  if (LEGACY_TOKENS[value]) return LEGACY_TOKENS[value]
  return (PALETTE_TOKENS as readonly string[]).includes(value) ? value : undefined
}
