/**
 * Structure of each kind: field types, value sets with did-you-mean hints, unknown fields (at the key,
 * compared with the fields of the right union variant), missing required fields (at the parent mapping),
 * and the tile grid. Each error is checked with its file, line, column, field path and message.
 */
import { describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import { validateText, type ManifestSet } from '../../src/manifest/load.js'

/** One line per argument, so a test reads its own line numbers off the list. */
const lines = (...rows: string[]): string => `${rows.join('\n')}\n`

const place = (d: Diagnostic) => ({
  file: d.file,
  line: d.line,
  column: d.column,
  field: d.field,
  message: d.message
})
const errors = (set: ManifestSet) => set.diagnostics.filter(d => d.severity === 'error').map(place)
const validate = (text: string) => validateText('checkout.yaml', text, 'self-hosted')
const at = (line: number, column: number, field: string, message: string) => ({
  file: 'checkout.yaml',
  line,
  column,
  field,
  message
})

const AGG_FNS = 'avg, count, count_distinct, last_value, max, min, quantile, sum, any, none, increase'
const THRESHOLD_TYPES =
  'above, below, above_exclusive, below_or_equal, equal, not_equal, between, not_between'
const INTERVALS = '1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d'

/** A dashboard `D` whose first tile starts at line 4 (name), x at 5, y at 6, w at 7, h at 8. */
const dashboard = (...tileLines: string[]) => lines('kind: Dashboard', 'name: D', 'tiles:', ...tileLines)
const tile = (
  name: string,
  x: number | string,
  y: number | string,
  w: number | string,
  h: number | string
) => [`  - name: ${name}`, `    x: ${x}`, `    y: ${y}`, `    w: ${w}`, `    h: ${h}`]
const markdown = '    series: [{ type: markdown, content: hi }]'

describe('wrong types', () => {
  it('names the expected type and the value found, at the value', () => {
    const set = validate(
      lines(
        'kind: Dashboard',
        'name: 5',
        'tags: a',
        'tiles:',
        '  - name: T',
        '    x: "0"',
        '    y: 0.5',
        '    w: true',
        '    h: null',
        '    asRatio: "yes"',
        '    series: { type: time }'
      )
    )
    expect(errors(set)).toEqual([
      at(2, 7, 'name', 'must be a string, got 5: quote it to keep it as text, e.g. name: "5"'),
      at(3, 7, 'tags', 'must be a list, got "a"'),
      at(6, 8, 'tiles[0].x', 'must be a whole number between 0 and 23 (got "0")'),
      at(7, 8, 'tiles[0].y', 'must be a whole number of at least 0 (got 0.5)'),
      at(8, 8, 'tiles[0].w', 'must be a whole number between 1 and 24 (got true)'),
      at(9, 8, 'tiles[0].h', 'must be a whole number of at least 1 (got null)'),
      at(10, 14, 'tiles[0].asRatio', 'must be true or false, got "yes"'),
      at(11, 13, 'tiles[0].series', 'must be a list, got a mapping')
    ])
    expect(set.specs.Dashboard).toEqual([])
  })

  it('a number or true/false where text is wanted: suggests quotes, with the field and the value as written', () => {
    const set = validate(lines('kind: Dashboard', 'name: 12345', 'tags: [1.0, true]', 'savedQuery: 0x1F'))
    expect(errors(set)).toEqual([
      at(2, 7, 'name', 'must be a string, got 12345: quote it to keep it as text, e.g. name: "12345"'),
      at(3, 8, 'tags[0]', 'must be a string, got 1: quote it to keep it as text, e.g. - "1.0"'),
      at(3, 13, 'tags[1]', 'must be a string, got true: quote it to keep it as text, e.g. - "true"'),
      at(
        4,
        13,
        'savedQuery',
        'must be a string, got 31: quote it to keep it as text, e.g. savedQuery: "0x1F"'
      )
    ])
  })

  it('reports a quoted number as a string where a number is expected (threshold)', () => {
    const set = validate(
      lines(
        'kind: Alert',
        'name: A',
        'dashboard: D',
        'tile: T',
        'threshold: "10"',
        'thresholdType: above',
        'interval: 5m',
        'channel: webhook',
        'numConsecutiveWindows: 1.5'
      )
    )
    expect(errors(set)).toEqual(
      expect.arrayContaining([
        at(5, 12, 'threshold', 'must be a number, got "10"'),
        at(8, 10, 'channel', 'must be a mapping, got "webhook"'),
        at(9, 24, 'numConsecutiveWindows', 'must be a whole number of at least 1 (got 1.5)')
      ])
    )
  })

  it('reports an empty value as null, at the place right after the key', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name:', 'tiles:')))).toEqual([
      at(2, 6, 'name', 'must be a string, got null'),
      at(3, 7, 'tiles', 'must be a list, got null')
    ])
  })

  it('enforces string lengths: an empty name and a name over 1024 characters', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name: ""')))).toEqual([
      at(2, 7, 'name', 'must not be empty')
    ])
    expect(errors(validate(lines('kind: Dashboard', `name: ${'n'.repeat(1025)}`)))).toEqual([
      at(2, 7, 'name', 'must be at most 1024 characters')
    ])
    expect(validate(lines('kind: Dashboard', `name: ${'n'.repeat(1024)}`)).diagnostics).toEqual([])
  })

  it('enforces the tag limits: 32 characters each, 49 tags', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name: D', `tags: [ok, ${'t'.repeat(33)}]`)))).toEqual([
      at(3, 12, 'tags[1]', 'must be at most 32 characters')
    ])
    const tags = (n: number) => `tags: [${Array.from({ length: n }, (_, i) => `t${i}`).join(', ')}]`
    expect(validate(lines('kind: Dashboard', 'name: D', tags(49))).diagnostics).toEqual([])
    expect(errors(validate(lines('kind: Dashboard', 'name: D', tags(50))))).toEqual([
      at(3, 7, 'tags', "at most 49 tags (one of the server's 50 is the ownership tag)")
    ])
  })
})

describe('value sets', () => {
  it('lists the allowed values and suggests the closest one', () => {
    const set = validate(
      lines(
        'kind: Alert',
        'name: A',
        'dashboard: D',
        'tile: T',
        'threshold: 1',
        'thresholdType: abov',
        'interval: 1H',
        'channel: { type: email, webhook: x }'
      )
    )
    expect(errors(set)).toEqual(
      expect.arrayContaining([
        at(6, 16, 'thresholdType', `must be one of ${THRESHOLD_TYPES}, got "abov" (did you mean "above"?)`),
        at(7, 11, 'interval', `must be one of ${INTERVALS}, got "1H" (did you mean "1h"?)`),
        at(8, 18, 'channel.type', 'must be one of webhook, got "email"')
      ])
    )
  })

  it('gives no hint for a value of another type', () => {
    const set = validate(
      lines(
        'kind: Alert',
        'name: A',
        'dashboard: D',
        'tile: T',
        'threshold: 1',
        'thresholdType: 5',
        'interval: 5'
      )
    )
    expect(errors(set)).toEqual(
      expect.arrayContaining([
        at(6, 16, 'thresholdType', `must be one of ${THRESHOLD_TYPES}, got 5`),
        at(7, 11, 'interval', `must be one of ${INTERVALS}, got 5`)
      ])
    )
  })

  it('checks the aggregation function of a series with a hint', () => {
    const set = validate(
      dashboard(
        ...tile('T', 0, 0, 6, 3),
        '    series:',
        '      - type: time',
        '        aggFn: cnt',
        '        source: Logs'
      )
    )
    expect(errors(set)).toEqual([
      at(11, 16, 'tiles[0].series[0].aggFn', `must be one of ${AGG_FNS}, got "cnt" (did you mean "count"?)`)
    ])
  })

  it('checks the series type (the union tag) with a hint', () => {
    const set = validate(
      dashboard(
        ...tile('T', 0, 0, 6, 3),
        '    series:',
        '      - type: tme',
        '        aggFn: count',
        '        source: Logs'
      )
    )
    expect(errors(set)).toEqual([
      at(
        10,
        15,
        'tiles[0].series[0].type',
        'must be one of time, table, number, search, markdown, got "tme" (did you mean "time"?)'
      )
    ])
  })

  it('checks the config display type (the union tag) with a hint', () => {
    const set = validate(
      dashboard(...tile('T', 0, 0, 6, 3), '    config:', '      displayType: tabel', '      source: Logs')
    )
    expect(errors(set)).toEqual([
      at(
        10,
        20,
        'tiles[0].config.displayType',
        'must be one of line, stacked_bar, table, number, pie, bar, search, markdown, heatmap, event_patterns, got "tabel" (did you mean "table"?)'
      )
    ])
  })

  it('checks the release channel of ServiceSettings with a hint', () => {
    const set = validateText('svc.yaml', lines('kind: ServiceSettings', 'releaseChannel: fst'), 'managed')
    expect(errors(set)).toEqual([
      {
        file: 'svc.yaml',
        line: 2,
        column: 17,
        field: 'releaseChannel',
        message: 'must be one of slow, default, fast, got "fst" (did you mean "fast"?)'
      }
    ])
  })
})

describe('unknown fields', () => {
  it('reports an unknown field at the key with a did-you-mean hint', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name: D', 'tag: [a]')))).toEqual([
      at(3, 1, 'tag', 'unknown field "tag" (did you mean "tags"?)')
    ])
  })

  it('lists the known fields when nothing is close', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name: D', 'zzzzzzzz: 1')))).toEqual([
      at(
        3,
        1,
        'zzzzzzzz',
        'unknown field "zzzzzzzz"; known fields: apiVersion, kind, name, tags, tiles, filters, savedQuery, savedQueryLanguage, savedFilterValues, containers, id, adopt, renamedFrom'
      )
    ])
  })

  it('compares a misspelled key in a `time` series with the fields of a time series', () => {
    const set = validate(
      dashboard(
        ...tile('T', 0, 0, 6, 3),
        '    series:',
        '      - type: time',
        '        source: Logs',
        '        aggFn: count',
        '        grupBy: [service]',
        '        displayTyp: line'
      )
    )
    expect(errors(set)).toEqual([
      at(13, 9, 'tiles[0].series[0].grupBy', 'unknown field "grupBy" (did you mean "groupBy"?)'),
      at(14, 9, 'tiles[0].series[0].displayTyp', 'unknown field "displayTyp" (did you mean "displayType"?)')
    ])
  })

  it('compares a misspelled key in a `markdown` series with the markdown fields, and says content is required', () => {
    const set = validate(
      dashboard(...tile('T', 0, 0, 6, 3), '    series:', '      - type: markdown', '        contnt: hi')
    )
    expect(errors(set)).toEqual([
      at(10, 9, 'tiles[0].series[0].content', 'is required'),
      at(11, 9, 'tiles[0].series[0].contnt', 'unknown field "contnt" (did you mean "content"?)')
    ])
  })

  it('finds unknown keys in flow mappings at their column: config select items and groupBy', () => {
    const set = validate(
      dashboard(
        ...tile('T', 0, 0, 6, 3),
        '    config:',
        '      displayType: line',
        '      source: Logs',
        '      select: [{ aggFn: count, valueExpresion: x }]',
        '      grupBy: a'
      )
    )
    expect(errors(set)).toEqual([
      at(
        12,
        32,
        'tiles[0].config.select[0].valueExpresion',
        'unknown field "valueExpresion" (did you mean "valueExpression"?)'
      ),
      at(13, 7, 'tiles[0].config.grupBy', 'unknown field "grupBy" (did you mean "groupBy"?)')
    ])
  })

  it('reports an unknown key in an alert channel with the channel fields as candidates', () => {
    const set = validate(
      lines(
        'kind: Alert',
        'name: A',
        'dashboard: D',
        'tile: T',
        'threshold: 1',
        'thresholdType: above',
        'interval: 5m',
        'channel: { type: webhook, webhok: x }'
      )
    )
    expect(errors(set)).toContainEqual(
      at(8, 27, 'channel.webhok', 'unknown field "webhok" (did you mean "webhook"?)')
    )
  })

  it('reports every unknown field of a mapping, each at its own key', () => {
    const set = validate(lines('kind: Dashboard', 'name: D', 'nmae: x', 'tilez: []'))
    expect(errors(set)).toEqual([
      at(3, 1, 'nmae', 'unknown field "nmae" (did you mean "name"?)'),
      at(4, 1, 'tilez', 'unknown field "tilez" (did you mean "tiles"?)')
    ])
  })
})

describe('missing required fields', () => {
  it('points at the parent mapping and says "is required"', () => {
    const set = validate(
      lines('kind: Dashboard', 'name: D', 'tiles:', '  - series: [{ type: markdown, content: hi }]')
    )
    expect(errors(set)).toEqual([
      at(4, 5, 'tiles[0].name', 'is required'),
      at(4, 5, 'tiles[0].x', 'is required'),
      at(4, 5, 'tiles[0].y', 'is required'),
      at(4, 5, 'tiles[0].w', 'is required'),
      at(4, 5, 'tiles[0].h', 'is required')
    ])
  })

  it('points at the document for a missing top-level field', () => {
    expect(errors(validate(lines('# a comment', 'kind: Dashboard', 'tags: [a]')))).toEqual([
      at(2, 1, 'name', 'is required')
    ])
  })

  it('reports each missing field of an alert', () => {
    const set = validate(lines('kind: Alert', 'name: A'))
    expect(errors(set)).toContainEqual(at(1, 1, 'threshold', 'is required'))
    expect(errors(set)).toContainEqual(
      at(1, 1, 'dashboard', 'is required (a tile alert: the dashboard, by name)')
    )
    expect(errors(set)).toContainEqual(
      at(1, 1, 'tile', 'is required (a tile alert: the tile, by name; or `tileId`, by its pin)')
    )
    expect(errors(set)).toContainEqual(at(1, 1, 'channel', 'is required (or `channels`, a list)'))
  })

  it('asks for the series type, listing the types, when it is missing', () => {
    const set = validate(
      dashboard(...tile('T', 0, 0, 6, 3), '    series:', '      - source: Logs', '        aggFn: count')
    )
    expect(errors(set)).toEqual([
      at(10, 9, 'tiles[0].series[0].type', 'is required: one of time, table, number, search, markdown')
    ])
  })

  // issues.ts only says "is required" for zod's invalid_type issue; a missing enum field (thresholdType,
  // interval, aggFn) arrives as invalid_value and reads "must be one of ..., got nothing".
  it('says "is required" for a missing field that takes one of a set of values', () => {
    const set = validate(lines('kind: Alert', 'name: A'))
    for (const field of ['interval', 'thresholdType']) {
      const found = errors(set).find(e => e.field === field)
      expect(found).toMatchObject({ line: 1, column: 1, message: expect.stringMatching(/^is required/) })
    }
  })
})

describe('tile grid', () => {
  it('refuses x < 0, y < 0, w < 1 and h < 1 at each value', () => {
    const set = validate(dashboard(...tile('T', -1, -1, 0, 0), markdown))
    expect(errors(set)).toEqual([
      at(5, 8, 'tiles[0].x', 'must be between 0 and 23'),
      at(6, 8, 'tiles[0].y', 'must be at least 0'),
      at(7, 8, 'tiles[0].w', 'must be between 1 and 24'),
      at(8, 8, 'tiles[0].h', 'must be at least 1')
    ])
  })

  it('refuses x > 23 and w > 24', () => {
    const set = validate(dashboard(...tile('T', 24, 0, 25, 1), markdown))
    expect(errors(set)).toEqual([
      at(5, 8, 'tiles[0].x', 'must be between 0 and 23'),
      at(7, 8, 'tiles[0].w', 'must be between 1 and 24')
    ])
  })

  it('accepts the edges of the grid: x 23 with w 1, x 0 with w 24, any y >= 0, h 1', () => {
    const set = validate(
      dashboard(...tile('A', 23, 0, 1, 1), markdown, ...tile('B', 0, 1000, 24, 1), markdown)
    )
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard).toHaveLength(1)
  })

  it('refuses a tile that extends past the 24-column grid, at its w', () => {
    const set = validate(dashboard(...tile('T', 20, 0, 6, 3), markdown))
    expect(errors(set)).toEqual([at(7, 8, 'tiles[0].w', 'tile extends past the 24-column grid (x + w = 26)')])
  })

  it('accepts x + w = 24 exactly', () => {
    expect(validate(dashboard(...tile('T', 18, 0, 6, 3), markdown)).diagnostics).toEqual([])
  })
})
