import { describe, expect, it } from '@jest/globals'
import { byBucketAndGroup } from '../../src/live/series-rows.js'

describe('the charts route in its column format, read by bucket and group', () => {
  it('reads a group-by expression the default format loses (rows as HyperDX 2.36 returns them)', () => {
    // POST /api/v2/charts/series, two series grouped by LogAttributes['user.email'] and ServiceName, column format.
    const rows = [
      {
        series_0: '1',
        "arrayElement(LogAttributes, 'user.email')": 'jane.doe@customer.example',
        ServiceName: 'accounts',
        __hdx_time_bucket: '2026-12-05T09:30:00Z'
      },
      {
        series_0: '2',
        "arrayElement(LogAttributes, 'user.email')": 'li.wei@corp.example',
        ServiceName: 'accounts',
        __hdx_time_bucket: '2026-12-05T09:30:00Z'
      },
      {
        series_1: 7.5,
        "arrayElement(LogAttributes, 'user.email')": 'li.wei@corp.example',
        ServiceName: 'accounts',
        __hdx_time_bucket: '2026-12-05T09:30:00Z'
      },
      {
        series_1: 3,
        "arrayElement(LogAttributes, 'user.email')": 'omar@shop.example',
        ServiceName: 'accounts',
        __hdx_time_bucket: '2026-12-05T10:00:00Z'
      }
    ]
    const t = Date.UTC(2026, 11, 5, 9, 30)
    expect(byBucketAndGroup(rows)).toEqual([
      { ts_bucket: t, group: ['jane.doe@customer.example', 'accounts'], 'series_0.data': '1' },
      {
        ts_bucket: t,
        group: ['li.wei@corp.example', 'accounts'],
        'series_0.data': '2',
        'series_1.data': 7.5
      },
      { ts_bucket: t + 1_800_000, group: ['omar@shop.example', 'accounts'], 'series_1.data': 3 }
    ])
  })

  it('keeps a row of the default format as it is', () => {
    const row = { ts_bucket: 1_796_457_600_000, group: ['checkout'], 'series_0.data': '3' }
    expect(byBucketAndGroup([row])).toEqual([row])
  })
})
