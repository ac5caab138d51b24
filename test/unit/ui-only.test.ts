/** What a write through the v2 form resets on a live tile, per display type (src/kinds/dashboard/ui-only.ts). */
import { describe, expect, it } from '@jest/globals'
import type { LiveTile } from '../../src/api/schemas.js'
import { uiOnlySettings } from '../../src/kinds/dashboard/ui-only.js'

const tile = (config: Record<string, unknown>): LiveTile =>
  ({
    id: 't1',
    name: 'Heap used',
    x: 0,
    y: 0,
    w: 6,
    h: 3,
    config: {
      sourceId: 's1',
      select: [{ aggFn: 'avg', valueExpression: 'Value', metricName: 'heap', metricType: 'gauge' }],
      ...config
    }
  }) as unknown as LiveTile

describe('uiOnlySettings', () => {
  // udash convertToInternalTileConfig picks alignDateRangeToGranularity for line and stacked_bar only; HyperDX's
  // runtime templates store it on number and table tiles, so a PUT drops it there and the plan must say so.
  it.each(['number', 'table', 'pie', 'bar'])('names complete intervals on a %s tile', displayType => {
    expect(uiOnlySettings(tile({ displayType }))).toContain('complete intervals')
  })

  it.each(['line', 'stacked_bar'])('does not on a %s tile, whose v2 form keeps it', displayType => {
    expect(uiOnlySettings(tile({ displayType }))).not.toContain('complete intervals')
  })
})
