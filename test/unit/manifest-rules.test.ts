/**
 * Rules beyond structure: unique names, alerts that point at a tile that exists and can carry them,
 * thresholdMax, ServiceSettings, the reserved ownership tag, the series and config rules, and Lucene
 * filters checked offline with the column inside the expression.
 */
import { describe, expect, it, jest } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import { validateText, type ManifestSet } from '../../src/manifest/load.js'
import { Tile } from '../../src/manifest/schema.js'
import { lines, oneTile } from '../support/manifest-text.js'

const place = (d: Diagnostic) => ({
  file: d.file,
  line: d.line,
  column: d.column,
  field: d.field,
  message: d.message
})
const errors = (set: ManifestSet) => set.diagnostics.filter(d => d.severity === 'error').map(place)
const at = (line: number, column: number, field: string, message: string, file = 'm.yaml') => ({
  file,
  line,
  column,
  field,
  message
})
const validate = (text: string, mode: 'self-hosted' | 'managed' = 'self-hosted') =>
  validateText('m.yaml', text, mode)

/**
 * Dashboard "Checkout" (lines 1-26) with a line tile "Errors", a table tile "Table" and a number tile
 * "Requests"; alerts written after it start at line 27 with `---`.
 */
const CHECKOUT = lines(
  'kind: Dashboard',
  'name: Checkout',
  'tiles:',
  '  - name: Errors',
  '    x: 0',
  '    y: 0',
  '    w: 6',
  '    h: 3',
  '    series: [{ type: time, source: Logs, aggFn: count }]',
  '  - name: Table',
  '    x: 6',
  '    y: 0',
  '    w: 6',
  '    h: 3',
  '    config:',
  '      displayType: table',
  '      source: Logs',
  '      select: [{ aggFn: count }]',
  '  - name: Requests',
  '    x: 12',
  '    y: 0',
  '    w: 6',
  '    h: 3',
  '    series:',
  '      - { type: number, source: Logs, aggFn: count }',
  '# end of dashboard'
)

/** An alert document starting with `---`; `kind` is on the line after it. */
function alert(fields: Record<string, string> = {}): string {
  const all: Record<string, string> = {
    kind: 'Alert',
    name: 'Checkout errors',
    dashboard: 'Checkout',
    tile: 'Errors',
    threshold: '10',
    thresholdType: 'above',
    interval: '5m',
    channel: '{ type: webhook, webhook: ops }',
    ...fields
  }
  return lines(
    '---',
    ...Object.entries(all)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}`)
  )
}

describe('each tile is parsed once', () => {
  it('the tile rules of a dashboard that passed its schema use its typed tiles; a failing one parses each tile', () => {
    const parses = jest.spyOn(Tile, 'safeParse')
    try {
      // Valid: the dashboard's own parse typed its tiles, and their rules still run (a tile needs a form).
      const formless = CHECKOUT.replace(
        '    series:\n      - { type: number, source: Logs, aggFn: count }\n',
        ''
      )
      expect(errors(validate(formless)).map(e => [e.field, e.message])).toEqual([
        ['tiles[2]', expect.stringMatching(/series|config/)]
      ])
      expect(parses).not.toHaveBeenCalled()
      // A schema error elsewhere in the dashboard: each tile is parsed alone, so its rules still run.
      const broken = validate(formless.replace('name: Checkout', 'name: Checkout\ncolour: red'))
      expect(errors(broken).map(e => e.field)).toEqual(['colour', 'tiles[2]'])
      expect(parses).toHaveBeenCalledTimes(3)
    } finally {
      parses.mockRestore()
    }
  })
})

describe('unique names', () => {
  it('reports a second dashboard of the same name at its name, saying where the first is', () => {
    const set = validate(
      lines('kind: Dashboard', 'name: Checkout', '---', 'kind: Dashboard', 'name: Checkout')
    )
    expect(errors(set)).toEqual([
      at(
        5,
        7,
        'name',
        'duplicate dashboard name "Checkout" (also at m.yaml:2): same-named dashboards need an `id:` pin each (the id of its live dashboard) to tell them apart; pin every one of them, or rename one'
      )
    ])
  })

  const TWINS = lines(
    'kind: Dashboard',
    'name: Checkout',
    'id: a1',
    '---',
    'kind: Dashboard',
    'name: Checkout',
    'id: a2'
  )

  it('accepts same-named dashboards when each is pinned to its own live dashboard by `id:`', () => {
    expect(validate(TWINS).diagnostics).toEqual([])
  })

  it('refuses same-named dashboards when one has no pin (suggesting pins), or both pin one id', () => {
    expect(errors(validate(TWINS.replace('id: a2\n', '')))).toEqual([
      at(
        6,
        7,
        'name',
        'duplicate dashboard name "Checkout" (also at m.yaml:2): same-named dashboards need an `id:` pin each (the id of its live dashboard) to tell them apart; pin every one of them, or rename one'
      )
    ])
    expect(errors(validate(TWINS.replace('id: a2', 'id: a1')))).toEqual([
      at(7, 5, 'id', 'dashboard id "a1" is pinned twice (also at m.yaml:3)')
    ])
  })

  it('refuses an alert or a link-out naming pinned twins: a name cannot say which of them', () => {
    const alertOn = TWINS + alert().replace('tile: Errors', 'tile: T')
    expect(errors(validate(alertOn))).toEqual([
      at(
        11,
        12,
        'dashboard',
        '2 dashboards are named "Checkout" (m.yaml:2, m.yaml:6): an alert names its dashboard by name, so it cannot tell which; rename one of them to put alerts on it'
      )
    ])
    const linked = lines(
      TWINS + '---',
      'kind: Dashboard',
      'name: Links',
      'tiles:',
      '  - name: T',
      '    x: 0',
      '    y: 0',
      '    w: 6',
      '    h: 3',
      '    config:',
      '      displayType: table',
      '      source: Logs',
      '      select: [{ aggFn: count }]',
      '      onClick: { type: dashboard, target: { mode: id, dashboard: Checkout } }'
    )
    expect(errors(validate(linked))).toEqual([
      expect.objectContaining({
        line: 21,
        field: 'tiles[0].config.onClick.target.dashboard',
        message:
          '2 dashboards are named "Checkout" (m.yaml:2, m.yaml:6): a link names its dashboard by name, so it cannot tell which; link to one by `id:`, or rename one of them'
      })
    ])
  })

  it('reports a second alert of the same name at its name, saying where the first is', () => {
    const set = validate(CHECKOUT + alert() + alert({ tile: 'Requests' }))
    // the second alert: `---` at 36, kind 37, name 38
    expect(errors(set)).toEqual([
      at(38, 7, 'name', 'duplicate alert name "Checkout errors" (also at m.yaml:29)')
    ])
  })

  it('reports a duplicate tile name in a dashboard, naming the first tile', () => {
    const set = validate(
      lines(
        'kind: Dashboard',
        'name: D',
        'tiles:',
        '  - { name: Same, x: 0, y: 0, w: 6, h: 3, series: [{ type: markdown, content: a }] }',
        '  - { name: Other, x: 6, y: 0, w: 6, h: 3, series: [{ type: markdown, content: b }] }',
        '  - { name: Same, x: 12, y: 0, w: 6, h: 3, series: [{ type: markdown, content: c }] }'
      )
    )
    expect(errors(set)).toEqual([
      at(
        6,
        13,
        'tiles[2].name',
        'duplicate tile name "Same" (also tiles[0], line 4): same-named tiles need an `id:` pin each (the id of its live tile) to tell them apart; pin every one of them, or rename one'
      )
    ])
  })

  it('allows a repeated tile name where every tile of it is pinned, and a pin only once', () => {
    const md = (c: string) => `series: [{ type: markdown, content: ${c} }]`
    const pinned = validate(
      lines(
        'kind: Dashboard',
        'name: D',
        'tiles:',
        `  - { name: Same, id: aaaaaa, x: 0, y: 0, w: 6, h: 3, ${md('a')} }`,
        `  - { name: Same, id: bbbbbb, x: 6, y: 0, w: 6, h: 3, ${md('b')} }`
      )
    )
    expect(pinned.diagnostics).toEqual([])
    const half = validate(
      lines(
        'kind: Dashboard',
        'name: D',
        'tiles:',
        `  - { name: Same, id: aaaaaa, x: 0, y: 0, w: 6, h: 3, ${md('a')} }`,
        `  - { name: Same, x: 6, y: 0, w: 6, h: 3, ${md('b')} }`,
        `  - { name: Other, id: aaaaaa, x: 12, y: 0, w: 6, h: 3, ${md('c')} }`
      )
    )
    expect(errors(half).map(e => [e.line, e.field, e.message.split(':')[0]])).toEqual([
      [5, 'tiles[1].name', 'duplicate tile name "Same" (also tiles[0], line 4)'],
      [6, 'tiles[2].id', 'tile id "aaaaaa" is pinned twice (also tiles[0], line 4)']
    ])
  })

  it('allows the same tile name in two different dashboards', () => {
    const tileYaml = '  - { name: Errors, x: 0, y: 0, w: 6, h: 3, series: [{ type: markdown, content: a }] }'
    const set = validate(
      lines(
        'kind: Dashboard',
        'name: A',
        'tiles:',
        tileYaml,
        '---',
        'kind: Dashboard',
        'name: B',
        'tiles:',
        tileYaml
      )
    )
    expect(set.diagnostics).toEqual([])
  })

  it('reports a dashboard id pinned twice', () => {
    const set = validate(
      lines('kind: Dashboard', 'name: A', 'id: abc', '---', 'kind: Dashboard', 'name: B', 'id: abc')
    )
    expect(errors(set)).toEqual([at(7, 5, 'id', 'dashboard id "abc" is pinned twice (also at m.yaml:3)')])
  })

  it('reports renamedFrom that is still the name of another manifest', () => {
    const set = validate(
      lines('kind: Dashboard', 'name: Old', '---', 'kind: Dashboard', 'name: New', 'renamedFrom: Old')
    )
    expect(errors(set)).toEqual([
      at(6, 14, 'renamedFrom', '"Old" is still the name of another manifest (m.yaml:2)')
    ])
  })
})

describe('alert references', () => {
  it('accepts an alert on a line tile and on a number tile', () => {
    const set = validate(CHECKOUT + alert() + alert({ name: 'Traffic', tile: 'Requests' }))
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Alert.map(a => a.spec.name)).toEqual(['Checkout errors', 'Traffic'])
  })

  it('reports a dashboard that is not in the manifests at the alert, with did-you-mean', () => {
    const set = validate(CHECKOUT + alert({ dashboard: 'Chekout' }))
    expect(errors(set)).toEqual([
      at(30, 12, 'dashboard', 'no dashboard named "Chekout" in the manifests (did you mean "Checkout"?)')
    ])
  })

  it('gives no hint when no dashboard name is close', () => {
    const set = validate(CHECKOUT + alert({ dashboard: 'Payments overview' }))
    expect(errors(set)).toEqual([
      at(30, 12, 'dashboard', 'no dashboard named "Payments overview" in the manifests')
    ])
  })

  it('an alert names one of two same-named tiles by its pin; the name alone is ambiguous, naming both', () => {
    const twoCpu = lines(
      'kind: Dashboard',
      'name: Runtime',
      'tiles:',
      '  - { name: CPU, id: aaaaaa, x: 0, y: 0, w: 6, h: 3, series: [{ type: time, source: Logs, aggFn: count }] }',
      '  - { name: CPU, id: bbbbbb, x: 6, y: 0, w: 6, h: 3, series: [{ type: time, source: Logs, aggFn: count }] }'
    )
    const on = (fields: Record<string, string>) =>
      validate(twoCpu + alert({ dashboard: 'Runtime', ...fields }))
    expect(on({ tile: 'CPU', tileId: 'bbbbbb' }).diagnostics).toEqual([])
    const byPin = on({ tile: '', tileId: 'bbbbbb' })
    expect(byPin.diagnostics).toEqual([])
    expect(byPin.specs.Alert[0]!.spec).toMatchObject({ tileId: 'bbbbbb' })
    expect(errors(on({ tile: 'CPU' })).map(e => [e.field, e.message])).toEqual([
      [
        'tile',
        'dashboard "Runtime" has 2 tiles named "CPU" (tiles[0] at m.yaml:4; tiles[1] at m.yaml:5): name the one by its pin, `tileId: aaaaaa`'
      ]
    ])
    expect(errors(on({ tile: 'CPU', tileId: 'cccccc' })).map(e => [e.field, e.message])).toEqual([
      ['tileId', 'dashboard "Runtime" has no tile pinned with `id: cccccc`']
    ])
    expect(errors(on({ tile: 'Heap', tileId: 'aaaaaa' })).map(e => [e.field, e.message])).toEqual([
      ['tile', 'the tile pinned with id "aaaaaa" is named "CPU" (tiles[0] at m.yaml:4), not "Heap"']
    ])
  })

  it('reports a tile that is not in that dashboard, with did-you-mean', () => {
    const set = validate(CHECKOUT + alert({ tile: 'Eror' }))
    expect(errors(set)).toEqual([
      at(31, 7, 'tile', 'dashboard "Checkout" has no tile named "Eror" (did you mean "Errors"?)')
    ])
  })

  it('refuses an alert on a table tile: alerts need a line, stacked_bar or number tile', () => {
    const set = validate(CHECKOUT + alert({ tile: 'Table' }))
    expect(errors(set)).toEqual([
      at(31, 7, 'tile', 'tile "Table" is a table tile; alerts need a line, stacked_bar or number tile')
    ])
  })

  it('finds the dashboard of an alert that is written before it', () => {
    const set = validate(alert().slice('---\n'.length) + '---\n' + CHECKOUT)
    expect(set.diagnostics).toEqual([])
  })

  it('refuses a channel with both webhook and webhookId, and one with neither', () => {
    const both = validate(CHECKOUT + alert({ channel: '{ type: webhook, webhook: ops, webhookId: x }' }))
    expect(errors(both)).toEqual([at(35, 52, 'channel.webhookId', 'use `webhook` or `webhookId`, not both')])
    const neither = validate(CHECKOUT + alert({ channel: '{ type: webhook }' }))
    expect(errors(neither)).toEqual([at(35, 10, 'channel', 'needs `webhook` (by name) or `webhookId`')])
  })

  it('a saved_search alert names its saved search, not a dashboard and tile', () => {
    const set = validate(CHECKOUT + alert({ source: 'saved_search' }))
    expect(errors(set)).toEqual([
      at(
        30,
        12,
        'dashboard',
        'only tile alerts have a dashboard and tile (this one is source: saved_search)'
      ),
      at(31, 7, 'tile', 'only tile alerts have a dashboard and tile (this one is source: saved_search)'),
      at(36, 9, 'savedSearch', 'a saved_search alert needs `savedSearch` (by name) or `savedSearchId`')
    ])
  })

  it('a saved_search alert watches a saved search of the manifests, by name', () => {
    const search = lines('---', 'kind: SavedSearch', 'name: Errors', 'source: Logs')
    const ok = alert({
      source: 'saved_search',
      dashboard: '',
      tile: '',
      savedSearch: 'Errors',
      groupBy: 'service'
    })
    expect(validate(CHECKOUT + search + ok).diagnostics).toEqual([])
    const typo = alert({ source: 'saved_search', dashboard: '', tile: '', savedSearch: 'Erors' })
    expect(errors(validate(CHECKOUT + search + typo))).toEqual([
      at(39, 14, 'savedSearch', 'no SavedSearch named "Erors" in the manifests (did you mean "Errors"?)')
    ])
  })

  it('groupBy belongs to saved_search alerts', () => {
    const set = validate(CHECKOUT + alert({ groupBy: 'service' }))
    expect(errors(set)).toEqual([
      at(36, 10, 'groupBy', 'only saved_search alerts have this (set `source: saved_search`)')
    ])
  })
})

describe('thresholdMax', () => {
  it('is required for between, pointing at thresholdType', () => {
    const set = validate(CHECKOUT + alert({ thresholdType: 'between' }))
    expect(errors(set)).toEqual([at(33, 16, 'thresholdMax', 'is required when thresholdType is between')])
  })

  it('is required for not_between', () => {
    const set = validate(CHECKOUT + alert({ thresholdType: 'not_between' }))
    expect(errors(set)).toEqual([at(33, 16, 'thresholdMax', 'is required when thresholdType is not_between')])
  })

  it('must be >= threshold', () => {
    const set = validate(CHECKOUT + alert({ thresholdType: 'between', thresholdMax: '5' }))
    expect(errors(set)).toEqual([at(36, 15, 'thresholdMax', 'must be >= threshold (10)')])
  })

  it('may equal threshold', () => {
    expect(
      validate(CHECKOUT + alert({ thresholdType: 'not_between', thresholdMax: '10' })).diagnostics
    ).toEqual([])
  })

  it('is not allowed for other threshold types', () => {
    for (const type of ['above', 'below', 'above_exclusive', 'below_or_equal', 'equal', 'not_equal']) {
      const set = validate(CHECKOUT + alert({ thresholdType: type, thresholdMax: '50' }))
      expect(errors(set)).toEqual([
        at(36, 15, 'thresholdMax', `only applies to between and not_between, not ${type}`)
      ])
    }
  })

  it('still checks thresholdMax when another field of the alert is wrong', () => {
    const set = validate(CHECKOUT + alert({ thresholdType: 'between', interval: '2m' }))
    expect(errors(set)).toEqual([
      at(33, 16, 'thresholdMax', 'is required when thresholdType is between'),
      at(
        34,
        11,
        'interval',
        'must be one of 1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d, got "2m" (did you mean "1m"?)'
      )
    ])
  })
})

describe('ServiceSettings', () => {
  const NAME_RULE =
    "must be 1-50 characters of letters, digits and whitespace, not only whitespace (the cloud API's rule)"
  const service = (...body: string[]) => lines('kind: ServiceSettings', ...body)

  it('accepts a name of 50 letters, digits and spaces', () => {
    const name = `Analytics prod 1 ${'x'.repeat(33)}`
    expect(name).toHaveLength(50)
    const set = validate(service(`name: ${name}`), 'managed')
    expect(set.diagnostics).toEqual([])
    expect(set.specs.ServiceSettings[0]!.spec.name).toBe(name)
  })

  it('refuses a name of 51 characters', () => {
    expect(errors(validate(service(`name: ${'a'.repeat(51)}`), 'managed'))).toEqual([
      at(2, 7, 'name', 'must be at most 50 characters (letters, digits and whitespace)')
    ])
  })

  it('refuses punctuation in the name', () => {
    for (const [name, odd] of [
      ['prod-1', '-'],
      ['analytics_prod', '_'],
      ['prod.eu', '.'],
      ['prod!', '!']
    ]) {
      expect(errors(validate(service(`name: ${name}`), 'managed'))).toEqual([
        at(2, 7, 'name', `${NAME_RULE}; "${odd}" is not allowed`)
      ])
    }
  })

  it('refuses an empty or blank name', () => {
    expect(errors(validate(service('name: ""'), 'managed'))).toEqual([
      at(2, 7, 'name', 'must be 1-50 letters, digits and whitespace')
    ])
    expect(errors(validate(service('name: "   "'), 'managed'))).toEqual([at(2, 7, 'name', NAME_RULE)])
  })

  it('refuses sources in the IP access list that are not an address or CIDR, at each source', () => {
    const set = validate(
      service(
        'ipAccessList:',
        '  - source: 10.0.0.0/33',
        '  - source: 999.1.1.1',
        '  - source: office',
        '  - source: 10.0.0.0/8/8',
        '  - source: "2001:db8::/129"',
        '  - source: 10.0.0.0/8',
        '  - source: 203.0.113.7',
        '  - source: "2001:db8::/32"',
        '  - source: "::1"'
      ),
      'managed'
    )
    expect(errors(set)).toEqual([
      at(3, 13, 'ipAccessList[0].source', '"10.0.0.0/33" is not an IPv4/IPv6 address or CIDR'),
      at(4, 13, 'ipAccessList[1].source', '"999.1.1.1" is not an IPv4/IPv6 address or CIDR'),
      at(5, 13, 'ipAccessList[2].source', '"office" is not an IPv4/IPv6 address or CIDR'),
      at(6, 13, 'ipAccessList[3].source', '"10.0.0.0/8/8" is not an IPv4/IPv6 address or CIDR'),
      at(7, 13, 'ipAccessList[4].source', '"2001:db8::/129" is not an IPv4/IPv6 address or CIDR')
    ])
  })

  it('refuses a duplicate source in the IP access list', () => {
    const set = validate(
      service('ipAccessList:', '  - source: 10.0.0.0/8', '  - source: 10.0.0.0/8'),
      'managed'
    )
    expect(errors(set)).toEqual([at(4, 13, 'ipAccessList[1].source', 'duplicate source "10.0.0.0/8"')])
  })

  it('allows only one ServiceSettings, reporting the second at its kind with the place of the first', () => {
    const set = validate(service('name: a') + '---\n' + service('name: b'), 'managed')
    expect(errors(set)).toEqual([
      at(4, 7, 'kind', 'only one ServiceSettings is allowed (the first is at m.yaml:1)')
    ])
  })

  it('refuses ServiceSettings in self-hosted mode, at its kind', () => {
    expect(errors(validate(service('name: a'), 'self-hosted'))).toEqual([
      at(1, 7, 'kind', 'ServiceSettings belongs to managed mode (`mode: managed`); this run is self-hosted')
    ])
  })

  it('refuses a protocol other than mysql', () => {
    const set = validate(service('endpoints:', '  - { protocol: http, enabled: true }'), 'managed')
    expect(errors(set)).toEqual([at(3, 17, 'endpoints[0].protocol', 'must be one of mysql, got "http"')])
  })
})

describe('tags', () => {
  it('reserves the obsdeploy: prefix for the ownership tag', () => {
    const set = validate(lines('kind: Dashboard', 'name: D', 'tags:', '  - payments', '  - "obsdeploy:shop"'))
    expect(errors(set)).toEqual([
      at(5, 5, 'tags[1]', 'tags starting with "obsdeploy:" are reserved for the ownership tag')
    ])
  })

  it("reserves the live preview's tag prefixes: a dashboard so tagged would be taken for a preview copy", () => {
    const set = validate(
      lines(
        'kind: Dashboard',
        'name: D',
        'tags:',
        '  - "obsdeploy-preview:shop"',
        '  - "obsdeploy-pr:7"',
        '  - "obsdeploy-at:x"'
      )
    )
    expect(errors(set)).toEqual([
      at(
        4,
        5,
        'tags[0]',
        'tags starting with "obsdeploy-preview:" are reserved for the live preview\'s copies'
      ),
      at(5, 5, 'tags[1]', 'tags starting with "obsdeploy-pr:" are reserved for the live preview\'s copies'),
      at(6, 5, 'tags[2]', 'tags starting with "obsdeploy-at:" are reserved for the live preview\'s copies')
    ])
  })

  it('refuses a duplicate tag', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name: D', 'tags: [a, b, a]')))).toEqual([
      at(3, 14, 'tags[2]', 'duplicate tag "a"')
    ])
  })
})

describe('series rules', () => {
  it('refuses mixed series types in a tile, at the odd type', () => {
    const set = validate(
      oneTile(
        '    series:',
        '      - { type: time, source: Logs, aggFn: count }',
        '      - { type: table, source: Logs, aggFn: count }'
      )
    )
    expect(errors(set)).toEqual([
      at(
        11,
        17,
        'tiles[0].series[1].type',
        'all series of a tile must have the same type (series[0] is time)'
      )
    ])
  })

  it('refuses a second series on a number tile', () => {
    const set = validate(
      oneTile(
        '    series:',
        '      - { type: number, source: Logs, aggFn: count }',
        '      - { type: number, source: Logs, aggFn: count }'
      )
    )
    expect(errors(set)).toEqual([
      at(11, 9, 'tiles[0].series[1]', 'a number tile shows only its first series; the server drops the rest')
    ])
  })

  // In flow mappings the place is the value: `duration` starts at column 58.
  it('refuses a `field` on count', () => {
    const set = validate(
      oneTile('    series:', '      - { type: time, source: Logs, aggFn: count, field: duration }')
    )
    expect(errors(set)).toEqual([at(10, 58, 'tiles[0].series[0].field', 'count takes no value expression')])
  })

  it('requires a `field` for avg, at aggFn', () => {
    const set = validate(
      oneTile('    series:', '      - type: time', '        source: Logs', '        aggFn: avg')
    )
    expect(errors(set)).toEqual([
      at(12, 16, 'tiles[0].series[0].aggFn', 'avg needs a value expression in `field`')
    ])
  })

  it('requires a level for quantile, and refuses a level elsewhere', () => {
    const quantile = validate(
      oneTile('    series:', '      - { type: time, source: Logs, aggFn: quantile, field: duration }')
    )
    expect(errors(quantile)).toEqual([
      at(10, 44, 'tiles[0].series[0].aggFn', 'quantile needs `level` (e.g. 0.95)')
    ])
    const avg = validate(
      oneTile('    series:', '      - { type: time, source: Logs, aggFn: avg, field: duration, level: 0.5 }')
    )
    expect(errors(avg)).toEqual([at(10, 73, 'tiles[0].series[0].level', 'level only applies to quantile')])
  })

  it('refuses series with different data sources', () => {
    const set = validate(
      oneTile(
        '    series:',
        '      - { type: time, source: Logs, aggFn: count }',
        '      - { type: time, source: Traces, aggFn: count }'
      )
    )
    expect(errors(set)).toEqual([
      at(
        11,
        9,
        'tiles[0].series[1]',
        'all series of a tile must use the same data source (the server keeps only the first one)'
      )
    ])
  })

  it('refuses series with different groupBy', () => {
    const set = validate(
      oneTile(
        '    series:',
        '      - { type: time, source: Logs, aggFn: count, groupBy: [service] }',
        '      - { type: time, source: Logs, aggFn: count, groupBy: [host] }'
      )
    )
    expect(errors(set)).toEqual([
      at(
        11,
        60,
        'tiles[0].series[1].groupBy',
        'all series of a tile must have the same groupBy (the tile has one grouping)'
      )
    ])
  })

  it('refuses asRatio on a tile that is not a time tile', () => {
    const set = validate(
      oneTile(
        '    asRatio: true',
        '    series:',
        '      - { type: table, source: Logs, aggFn: count }',
        '      - { type: table, source: Logs, aggFn: count }'
      )
    )
    expect(errors(set)).toEqual([
      at(
        9,
        14,
        'tiles[0].asRatio',
        'asRatio needs a time tile with exactly two series (the server stores false otherwise)'
      )
    ])
  })

  it('refuses asRatio on a time tile with one series, and accepts it with two', () => {
    const one = validate(
      oneTile('    asRatio: true', '    series:', '      - { type: time, source: Logs, aggFn: count }')
    )
    expect(errors(one).map(e => e.field)).toEqual(['tiles[0].asRatio'])
    const two = validate(
      oneTile(
        '    asRatio: true',
        '    series:',
        '      - { type: time, source: Logs, aggFn: count, where: "level:error" }',
        '      - { type: time, source: Logs, aggFn: count }'
      )
    )
    expect(two.diagnostics).toEqual([])
  })

  it('refuses source together with sourceId', () => {
    const set = validate(
      oneTile('    series:', '      - { type: time, source: Logs, sourceId: abc, aggFn: count }')
    )
    expect(errors(set)).toEqual([
      at(10, 47, 'tiles[0].series[0].sourceId', 'use `source` or `sourceId`, not both')
    ])
  })

  it('refuses a tile with both forms and a tile with neither', () => {
    const both = validate(
      oneTile(
        '    series: [{ type: markdown, content: x }]',
        '    config: { displayType: markdown, markdown: x }'
      )
    )
    expect(errors(both)).toEqual([at(4, 5, 'tiles[0]', 'has both `series` and `config`; use one form')])
    const neither = validate(oneTile())
    expect(errors(neither)).toEqual([
      at(4, 5, 'tiles[0]', 'needs `series` (list of series) or `config` (a display type)')
    ])
  })

  it('requires at least one series', () => {
    expect(errors(validate(oneTile('    series: []')))).toEqual([
      at(9, 13, 'tiles[0].series', 'needs at least one series')
    ])
  })
})

describe('config rules', () => {
  it('requires a data source, at the config', () => {
    const set = validate(
      oneTile('    config:', '      displayType: line', '      select: [{ aggFn: count }]')
    )
    expect(errors(set)).toEqual([
      at(10, 7, 'tiles[0].config', 'needs a data source: `source` (by name) or `sourceId`')
    ])
  })

  it('needs no data source on a markdown config', () => {
    expect(validate(oneTile('    config: { displayType: markdown, markdown: "# hi" }')).diagnostics).toEqual(
      []
    )
  })

  it('requires a value expression for sum in a select item', () => {
    const set = validate(
      oneTile(
        '    config:',
        '      displayType: line',
        '      source: Logs',
        '      select: [{ aggFn: sum }]'
      )
    )
    expect(errors(set)).toEqual([
      at(12, 25, 'tiles[0].config.select[0].aggFn', 'sum needs a value expression in `valueExpression`')
    ])
  })

  // HyperDX's runtime dashboard templates: a metric's name and type, no value expression (metric-item.ts).
  it('takes a metric select item without a value expression: gauge, sum, histogram, in either form', () => {
    const config = validate(
      oneTile(
        '    config:',
        '      displayType: line',
        '      source: Metrics',
        '      select:',
        '        - { aggFn: avg, metricName: nodejs.eventloop.delay.p99, metricType: gauge }',
        '        - { aggFn: sum, metricName: jvm.cpu.time, metricType: sum, alias: cpu }',
        '        - { aggFn: quantile, level: 0.95, metricName: http.server.duration, metricType: histogram }'
      )
    )
    expect(config.diagnostics).toEqual([])
    const series = validate(
      oneTile(
        '    series:',
        '      - { type: number, source: Metrics, aggFn: avg, metricName: go.memory.used, metricDataType: sum }'
      )
    )
    expect(series.diagnostics).toEqual([])
  })

  it('still wants a value expression, or both the metric name and type, when one of the two is missing', () => {
    const set = validate(
      oneTile(
        '    config:',
        '      displayType: line',
        '      source: Metrics',
        '      select:',
        '        - { aggFn: avg, metricName: nodejs.eventloop.delay.p99 }',
        '        - { aggFn: avg, metricName: "", metricType: gauge }',
        '        - { aggFn: avg }'
      )
    )
    const either =
      "avg needs a value expression in `valueExpression`, or both `metricName` and `metricType` (a metric's own value)"
    expect(errors(set)).toEqual([
      at(13, 20, 'tiles[0].config.select[0].aggFn', either),
      at(14, 20, 'tiles[0].config.select[1].aggFn', either),
      at(15, 20, 'tiles[0].config.select[2].aggFn', 'avg needs a value expression in `valueExpression`')
    ])
    const series = validate(
      oneTile('    series:', '      - { type: time, source: Metrics, aggFn: avg, metricDataType: gauge }')
    )
    expect(errors(series)).toEqual([
      at(
        10,
        47,
        'tiles[0].series[0].aggFn',
        "avg needs a value expression in `field`, or both `metricName` and `metricDataType` (a metric's own value)"
      )
    ])
  })

  it('wants asRatio inside config, and exactly two select items for it', () => {
    const outside = validate(
      oneTile(
        '    asRatio: true',
        '    config:',
        '      displayType: line',
        '      source: Logs',
        '      select: [{ aggFn: count }]'
      )
    )
    expect(errors(outside)).toEqual([
      at(9, 14, 'tiles[0].asRatio', 'with `config`, set asRatio inside config')
    ])
    const inside = validate(
      oneTile(
        '    config:',
        '      displayType: line',
        '      source: Logs',
        '      asRatio: true',
        '      select: [{ aggFn: count }]'
      )
    )
    expect(errors(inside)).toEqual([
      at(
        12,
        16,
        'tiles[0].config.asRatio',
        'asRatio needs exactly two select items (the server stores false otherwise)'
      )
    ])
  })
})

describe('Lucene filters', () => {
  const where = (value: string) =>
    oneTile(
      '    series:',
      '      - type: time',
      '        source: Logs',
      '        aggFn: count',
      `        where: ${value}`
    )
  const MESSAGE = 'Lucene syntax error at column 13 of the expression: unexpected end of input'

  it('points at the column inside a plain one-line where', () => {
    // `where: ` ends at column 15; the expression starts at 16, and its 13th character is at 28.
    expect(errors(validate(where('level:(error')))).toEqual([at(13, 28, 'tiles[0].series[0].where', MESSAGE)])
  })

  it('counts the opening quote of a single- or double-quoted where', () => {
    expect(errors(validate(where("'level:(error'")))).toEqual([
      at(13, 29, 'tiles[0].series[0].where', MESSAGE)
    ])
    expect(errors(validate(where('"level:(error"')))).toEqual([
      at(13, 29, 'tiles[0].series[0].where', MESSAGE)
    ])
  })

  it('points at an unexpected token in the middle of the expression', () => {
    const [error] = errors(validate(where("'level:error AND )'")))
    expect(error).toMatchObject({ line: 13, field: 'tiles[0].series[0].where' })
    expect(error!.message).toMatch(/^Lucene syntax error at column 17 of the expression: unexpected "\)"/)
    expect(error!.column).toBe(16 + 1 + 16)
  })

  it('points at the start of a multi-line where', () => {
    const set = validate(where('>').replace('>\n', '>\n          level:(error\n          AND x\n'))
    expect(errors(set)).toEqual([
      at(
        13,
        16,
        'tiles[0].series[0].where',
        'Lucene syntax error at column 20 of the expression: unexpected end of input'
      )
    ])
  })

  it('checks the where of config select items too', () => {
    const set = validate(
      oneTile(
        '    config:',
        '      displayType: line',
        '      source: Logs',
        '      select:',
        "        - { aggFn: count, where: 'a:(b' }"
      )
    )
    expect(errors(set)).toEqual([
      at(
        13,
        39,
        'tiles[0].config.select[0].where',
        'Lucene syntax error at column 5 of the expression: unexpected end of input'
      )
    ])
  })

  it('does not check a where written in SQL', () => {
    expect(validate(where("'level = ('\n        whereLanguage: sql")).diagnostics).toEqual([])
  })

  it('accepts valid expressions', () => {
    for (const expr of [
      "'level:error'",
      "'service:checkout AND duration:>500'",
      '"NOT level:debug"',
      "'a:b OR (c:d AND e:f)'"
    ]) {
      expect(validate(where(expr)).diagnostics).toEqual([])
    }
  })

  // checkFilters adds the source offset of the scalar to the offset in the *parsed* value, so any escape
  // before the error (`''` in single quotes, `\"` in double quotes) shifts the column left by one per escape.
  it('points at the right column when the quoted where contains an escaped quote', () => {
    // `where: 'it''s AND )'`: the `)` is at column 27 of the line; the error says column 26.
    const line = "        where: 'it''s AND )'"
    const [error] = errors(validate(where("'it''s AND )'")))
    expect(error!.column).toBe(line.indexOf(')') + 1)
  })
})
