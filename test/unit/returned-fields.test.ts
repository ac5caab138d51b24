/**
 * Every property of the real GET response schemas (the published OpenAPI documents of both modes, plus
 * what HyperDX's converters return where those documents lag) has a declared treatment, and the treatment
 * is what the planner and the request bodies really do: a compared field changes the normal form, a
 * carried one goes back in the update as read and shows no change, an untouched one is never sent.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { LiveAlert, LiveDashboard, LiveRole, LiveService, LiveTile } from '../../src/api/schemas.js'
import type { Json } from '../../src/json.js'
import { alertKind } from '../../src/kinds/alert.js'
import { updateBody } from '../../src/kinds/dashboard/bodies.js'
import { tileAsSent } from '../../src/kinds/dashboard/carry.js'
import { dashboardKind } from '../../src/kinds/dashboard/index.js'
import type { DesiredDashboard } from '../../src/kinds/dashboard/desired.js'
import { flatTile } from '../../src/kinds/dashboard/tiles.js'
import type { PlanContext } from '../../src/kinds/kind.js'
import { References } from '../../src/kinds/references.js'
import { Registry } from '../../src/kinds/registry.js'
import {
  ALERT_FIELDS,
  DASHBOARD_FIELDS,
  ROLE_FIELDS,
  ROLE_PERMISSION_FIELDS,
  SELECT_ITEM_FIELDS,
  SERVICE_FIELDS,
  TILE_CONFIG_FIELDS,
  TILE_FIELDS,
  type FieldRule
} from '../../src/kinds/returned-fields.js'
import { roleKind } from '../../src/kinds/role.js'
import { patchBody, serviceSettingsKind } from '../../src/kinds/service-settings.js'
import { diffValues } from '../../src/plan/diff.js'

type Schema = {
  $ref?: string
  properties?: Record<string, Schema>
  items?: Schema
  allOf?: Schema[]
  oneOf?: Schema[]
  anyOf?: Schema[]
}
type Document = { components: { schemas: Record<string, Schema> } }

const load = (name: string): Document =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/openapi/${name}.openapi.json`, import.meta.url), 'utf8')
  ) as Document

/** The properties of a schema across $ref, allOf, oneOf and anyOf, each with the schemas that declare it. */
function properties(
  doc: Document,
  schema: Schema | undefined,
  out = new Map<string, Schema[]>()
): Map<string, Schema[]> {
  if (!schema) return out
  if (schema.$ref) return properties(doc, doc.components.schemas[schema.$ref.split('/').pop()!], out)
  for (const [name, value] of Object.entries(schema.properties ?? {}))
    out.set(name, [...(out.get(name) ?? []), value])
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
    properties(doc, part, out)
  return out
}
/** The properties of the object items of the arrays among `schemas`. */
function itemProperties(doc: Document, schemas: Schema[] | undefined): Map<string, Schema[]> {
  const out = new Map<string, Schema[]>()
  const visit = (s: Schema | undefined): void => {
    if (!s) return
    if (s.$ref) return visit(doc.components.schemas[s.$ref.split('/').pop()!])
    if (s.items) properties(doc, s.items, out)
    for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(part)
  }
  for (const s of schemas ?? []) visit(s)
  return out
}

interface Returned {
  dashboard: string[]
  tile: string[]
  config: string[]
  selectItem: string[]
  alert: string[]
  service?: string[]
}

function returnedBy(doc: Document, names: { dashboard: string; alert: string; service?: string }): Returned {
  const dashboard = properties(doc, { $ref: `#/components/schemas/${names.dashboard}` })
  const tile = itemProperties(doc, dashboard.get('tiles'))
  const config = new Map<string, Schema[]>()
  for (const s of tile.get('config') ?? []) properties(doc, s, config)
  const selectItem = itemProperties(doc, config.get('select'))
  return {
    dashboard: [...dashboard.keys()],
    tile: [...tile.keys()],
    config: [...config.keys()],
    selectItem: [...selectItem.keys()],
    alert: [...properties(doc, { $ref: `#/components/schemas/${names.alert}` }).keys()],
    service: names.service
      ? [...properties(doc, { $ref: `#/components/schemas/${names.service}` }).keys()]
      : undefined
  }
}

const SELF_HOSTED = returnedBy(load('self-hosted-v2'), {
  dashboard: 'DashboardResponse',
  alert: 'AlertResponse'
})
const MANAGED = returnedBy(load('managed-cloud'), {
  dashboard: 'ClickStackDashboardResponse',
  alert: 'ClickStackAlertResponse',
  service: 'Service'
})
/**
 * What HyperDX 2.36's converters return where the documents lag (read in
 * `utils/dashboards.ts` and `utils/externalApi.ts`): the managed document lacks formulas,
 * showOperandSeries, seriesLimit and channels; CONTRACT.md names engineVersion.
 */
const FROM_SOURCE: Returned = {
  dashboard: [
    'id',
    'name',
    'tiles',
    'tags',
    'filters',
    'savedQuery',
    'savedQueryLanguage',
    'savedFilterValues',
    'containers'
  ],
  tile: ['id', 'x', 'y', 'w', 'h', 'name', 'config', 'containerId', 'tabId'],
  config: [
    'formulas',
    'showOperandSeries',
    'seriesLimit',
    'limit',
    'configType',
    'connectionId',
    'sqlTemplate'
  ],
  selectItem: ['valueExpression', 'countExpression', 'heatmapScaleType', 'periodAggFn'],
  alert: ['channels', 'silenced', 'executionErrors', 'scheduleStartAt', 'scheduleOffsetMinutes'],
  service: ['engineVersion']
}

const TABLES: Array<[keyof Returned, Readonly<Record<string, FieldRule>>]> = [
  ['dashboard', DASHBOARD_FIELDS],
  ['tile', TILE_FIELDS],
  ['config', TILE_CONFIG_FIELDS],
  ['selectItem', SELECT_ITEM_FIELDS],
  ['alert', ALERT_FIELDS],
  ['service', SERVICE_FIELDS]
]

describe('every field the servers return has a declared treatment', () => {
  it.each([
    ['the self-hosted OpenAPI', SELF_HOSTED],
    ['the managed OpenAPI', MANAGED],
    ['the HyperDX source', FROM_SOURCE]
  ])('%s', (_what, returned) => {
    for (const [part, table] of TABLES) {
      const names = returned[part] ?? []
      if (part !== 'service') expect(names.length).toBeGreaterThan(part === 'selectItem' ? 2 : 4)
      const missing = names.filter(name => !table[name])
      expect({ part, missing }).toEqual({ part, missing: [] })
    }
  })

  it('the walk reaches every part (tile configs of every display type, select items, the service)', () => {
    expect(SELF_HOSTED.config).toEqual(
      expect.arrayContaining(['markdown', 'onClick', 'colorRules', 'sqlTemplate', 'formulas'])
    )
    expect(SELF_HOSTED.selectItem).toEqual(expect.arrayContaining(['aggFn', 'level', 'heatmapScaleType']))
    expect(MANAGED.service).toEqual(expect.arrayContaining(['ipAccessList', 'tags', 'currentScaling']))
  })
})

// ---------------------------------------------------------------------------------------------------
// The treatments are real.

/** Values a UI could set, each different from the default the normal form drops. */
const UI_VALUES: Record<string, unknown> = {
  displayType: 'table',
  sourceId: 'other-source',
  select: [{ aggFn: 'max', valueExpression: 'duration' }, { aggFn: 'count' }],
  asRatio: true,
  fillNulls: false,
  alignDateRangeToGranularity: false,
  fitYAxisToData: true,
  compareToPreviousPeriod: true,
  groupByColumnsOnLeft: true,
  showOperandSeries: false,
  whereLanguage: 'sql',
  formulas: [{ expression: 'A / B' }],
  numberFormat: { output: 'percent' },
  seriesLimit: 5,
  limit: 5,
  colorRules: [{ operator: 'gt', value: 1, color: 'chart-red' }],
  onClick: { type: 'external', urlTemplate: 'https://example.com' },
  backgroundChart: { type: 'line' }
}
const BASE_CONFIG = {
  displayType: 'line',
  sourceId: 'logs',
  select: [{ aggFn: 'count' }, { aggFn: 'count', where: 'level:error' }]
}
const liveTile = (config: Record<string, unknown>): LiveTile => ({
  id: 't1',
  name: 'T',
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config
})

describe('tile config: compared keys show as changes, carried keys go back as read', () => {
  it.each(Object.entries(TILE_CONFIG_FIELDS))('%s', (key, rule) => {
    const value = UI_VALUES[key] ?? `set in the UI (${key})`
    const live = liveTile({ ...BASE_CONFIG, [key]: value })
    const sent = tileAsSent({ name: 'T', x: 0, y: 0, w: 6, h: 3, config: { ...BASE_CONFIG } }, live)
    const changed = diffValues(flatTile(live) as Json, flatTile(sent) as Json).map(
      f => f.path.split(/[.[]/)[0]
    )
    if (rule.treatment === 'compared') {
      expect(changed).toContain(key)
    } else {
      expect(rule.treatment).toBe('carried')
      expect((sent.config as Record<string, unknown>)[key]).toEqual(value)
      expect(changed).toEqual([])
    }
  })

  it('a key no table lists (a newer server) is carried, unless the update changes the display type', () => {
    const live = liveTile({ ...BASE_CONFIG, futureSetting: { on: true } })
    const same = tileAsSent({ name: 'T', x: 0, y: 0, w: 6, h: 3, config: { ...BASE_CONFIG } }, live)
    expect((same.config as Record<string, unknown>).futureSetting).toEqual({ on: true })
    expect(diffValues(flatTile(live) as Json, flatTile(same) as Json)).toEqual([])
    const other = tileAsSent(
      { name: 'T', x: 0, y: 0, w: 6, h: 3, config: { ...BASE_CONFIG, displayType: 'stacked_bar' } },
      live
    )
    expect((other.config as Record<string, unknown>).futureSetting).toBeUndefined()
    expect(diffValues(flatTile(live) as Json, flatTile(other) as Json).map(f => f.path)).toContain(
      'futureSetting'
    )
  })

  it('a series tile with such a key is sent in the config form it is stored in, carrying it', () => {
    const live = liveTile({
      displayType: 'line',
      sourceId: 'logs',
      select: [{ aggFn: 'count', where: 'level:error', whereLanguage: 'lucene' }],
      groupBy: 'service',
      asRatio: false,
      fillNulls: true,
      futureSetting: 'x'
    })
    const series = [
      { type: 'time', sourceId: 'logs', aggFn: 'count', where: 'level:error', groupBy: ['service'] }
    ]
    const sent = tileAsSent({ name: 'T', x: 0, y: 0, w: 6, h: 3, series }, live)
    expect(sent.series).toBeUndefined()
    expect(sent.config).toMatchObject({ displayType: 'line', groupBy: 'service', futureSetting: 'x' })
    expect(diffValues(flatTile(live) as Json, flatTile(sent) as Json)).toEqual([])
    // Without one it stays in the form the manifest wrote.
    const plain = liveTile({ ...(live.config as Record<string, unknown>), futureSetting: undefined })
    expect(tileAsSent({ name: 'T', x: 0, y: 0, w: 6, h: 3, series }, plain).series).toEqual(series)
  })
})

describe('tile and dashboard: compared fields are in the normal form, and an update sends what the manifest says', () => {
  const desired: DesiredDashboard = {
    spec: { kind: 'Dashboard', name: 'D', tiles: [] },
    located: undefined as never,
    tiles: [
      {
        spec: { name: 'T', x: 0, y: 0, w: 6, h: 3 },
        body: { name: 'T', x: 0, y: 0, w: 6, h: 3, config: BASE_CONFIG }
      }
    ],
    filters: [],
    waitsFor: new Set(),
    linksLater: false
  }
  const live: LiveDashboard = {
    id: 'd1',
    name: 'D',
    tags: ['obsdeploy:shop'],
    tiles: [{ ...liveTile(BASE_CONFIG), containerId: 'c1', tabId: 'tab1' }],
    filters: [
      { id: 'f1', type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: 'logs' }
    ],
    savedQuery: 'service:cart',
    savedQueryLanguage: 'lucene',
    savedFilterValues: [{ type: 'sql', condition: 'x IN (1)' }],
    containers: [{ id: 'c1', title: 'Main', collapsed: false, tabs: [{ id: 'tab1', title: 'One' }] }]
  }
  const body = updateBody(desired, live, { tag: 'obsdeploy:shop', mode: 'self-hosted' })
  const ctx = { settings: { ownershipTag: 'obsdeploy:shop' } } as unknown as PlanContext
  const normal = (d: LiveDashboard) => dashboardKind.normalLive(d, ctx)
  /** Another value of each dashboard field. */
  const other: Record<string, unknown> = {
    name: 'E',
    tiles: [],
    tags: ['obsdeploy:shop', 'extra'],
    filters: [],
    savedQuery: 'service:other',
    savedQueryLanguage: 'sql',
    savedFilterValues: [],
    containers: [{ id: 'c1', title: 'Renamed', collapsed: false }]
  }

  it.each(Object.entries(DASHBOARD_FIELDS))('dashboard %s', (key, rule) => {
    if (rule.treatment === 'identity') return expect(body).not.toHaveProperty(key)
    expect(rule.treatment).toBe('compared')
    // The update says what the manifest says (here: none of these settings), also where a PUT would keep them.
    expect(body).toHaveProperty(key)
    expect(normal({ ...live, [key]: other[key] } as LiveDashboard)).not.toEqual(normal(live))
  })

  it('the update clears what the manifest does not set, keeping no filter, query or container', () => {
    expect(body).toMatchObject({
      filters: [],
      savedQuery: null,
      savedQueryLanguage: null,
      savedFilterValues: [],
      containers: []
    })
    expect((body.tiles as Array<Record<string, unknown>>)[0]).not.toHaveProperty('containerId')
  })

  it.each(Object.entries(TILE_FIELDS).filter(([k]) => !['series', 'asRatio', 'config'].includes(k)))(
    'tile %s',
    (key, rule) => {
      const sent = (body.tiles as Array<Record<string, unknown>>)[0]!
      const before = live.tiles[0]! as Record<string, unknown>
      const withTile = (tile: Record<string, unknown>): LiveDashboard => ({
        ...live,
        tiles: [tile as LiveTile]
      })
      if (rule.treatment === 'identity') return expect(sent[key]).toEqual(before[key])
      expect(rule.treatment).toBe('compared')
      // Tiles are keyed by name in the dashboard's normal form; containers and tabs by title.
      const changed = key === 'name' ? 'U' : key === 'containerId' || key === 'tabId' ? undefined : 7
      expect(normal(withTile({ ...before, [key]: changed }))).not.toEqual(normal(live))
    }
  )
})

describe('alerts: compared fields change the normal form, untouched ones never do', () => {
  const ctx = {
    settings: { mode: 'self-hosted' },
    live: { Dashboard: [], Alert: [], Source: [], Webhook: [] },
    dashboards: { desired: new Map(), live: new Map() },
    refs: new References(() => {})
  } as unknown as PlanContext
  const base: LiveAlert = {
    id: 'a1',
    name: 'A',
    message: 'm',
    note: 'n',
    threshold: 1,
    thresholdMax: 2,
    thresholdType: 'between',
    interval: '5m',
    source: 'tile',
    numConsecutiveWindows: 2,
    channel: { type: 'webhook', webhookId: 'w1' },
    channels: [{ type: 'webhook', webhookId: 'w1' }],
    dashboardId: 'd1',
    tileId: 't1'
  }
  const normal = (a: LiveAlert) => alertKind.normalLive(a, ctx)
  const changed: Record<string, unknown> = {
    channel: { type: 'webhook', webhookId: 'w2' },
    channels: [
      { type: 'webhook', webhookId: 'w1' },
      { type: 'webhook', webhookId: 'w2' }
    ],
    source: 'saved_search',
    interval: '1h',
    thresholdType: 'above'
  }

  it.each(Object.entries(ALERT_FIELDS).filter(([, r]) => r.treatment === 'compared'))(
    '%s is compared',
    key => {
      // `channel` mirrors `channels[0]`; alone (the managed response has no `channels`) it is compared too.
      const from = key === 'channel' ? { ...base, channels: undefined } : base
      expect(
        normal({ ...from, [key]: changed[key] ?? (typeof base[key] === 'number' ? 99 : 'other') })
      ).not.toEqual(normal(from))
    }
  )

  it('none is carried: an alert request is built from the manifest alone, with nothing sent back as read', () => {
    // Carrying an alert field would take what tile configs have (carry.ts): sent back, and noted on the plan.
    expect(Object.values(ALERT_FIELDS).map(r => r.treatment)).not.toContain('carried')
  })

  it.each(Object.entries(ALERT_FIELDS).filter(([, r]) => r.treatment === 'untouched'))(
    '%s is never compared',
    key => {
      expect(normal({ ...base, [key]: 'changed by the server' })).toEqual(normal(base))
    }
  )
})

describe('the service: the PATCH sends compared fields only', () => {
  const live = {
    id: 's',
    name: 'Prod',
    releaseChannel: 'default',
    ipAccessList: [],
    privateEndpointIds: [],
    endpoints: []
  } as LiveService
  it('sends nothing but the fields a manifest declares', () => {
    const body = patchBody(
      {
        kind: 'ServiceSettings',
        name: 'Other',
        releaseChannel: 'fast',
        ipAccessList: [{ source: '10.0.0.0/8' }],
        privateEndpointIds: ['pe'],
        endpoints: [{ protocol: 'mysql', enabled: true }],
        transparentDataEncryptionKeyId: 'k'
      },
      live
    )
    for (const key of Object.keys(body)) expect(SERVICE_FIELDS[key]?.treatment).toBe('compared')
    expect(Object.keys(body).sort()).toEqual(
      Object.entries(SERVICE_FIELDS)
        .filter(([, r]) => r.treatment === 'compared')
        .map(([k]) => k)
        .sort()
    )
    expect(serviceSettingsKind.kind).toBe('ServiceSettings')
  })
})

describe("a plan's words on tile settings the manifest cannot express", () => {
  const tileSpec = (name: string) => ({ name, x: 0, y: 0, w: 6, h: 3 })
  const refine = (sent: Record<string, unknown>) => {
    const desired: DesiredDashboard = {
      spec: { kind: 'Dashboard', name: 'D', tiles: [] },
      located: undefined as never,
      tiles: ['Kept', 'Plain'].map(name => ({
        spec: tileSpec(name),
        body: { ...tileSpec(name), config: sent }
      })),
      filters: [],
      waitsFor: new Set(),
      linksLater: false
    }
    const live: LiveDashboard = {
      id: 'd1',
      name: 'D',
      tags: ['obsdeploy:shop'],
      tiles: [
        { ...liveTile({ ...BASE_CONFIG, futureSetting: 'x' }), name: 'Kept' },
        { ...liveTile(BASE_CONFIG), id: 't2', name: 'Plain' }
      ]
    }
    const reported: string[] = []
    const ctx = {
      settings: { ownershipTag: 'obsdeploy:shop' },
      live: { Source: [], Alert: [], Dashboard: [live] },
      report: (d: { message: string }) => reported.push(d.message)
    } as unknown as PlanContext
    const change = { action: 'update', notes: [] as string[] }
    dashboardKind.refine(
      {
        change: change as never,
        desired: {
          name: 'D',
          address: 'Dashboard/D',
          source: { file: 'd.yaml', line: 1, column: 1 },
          value: desired
        },
        live
      },
      ctx
    )
    return { notes: change.notes, reported }
  }

  it('names the settings an update keeps, only of the tiles that hold one', () => {
    const { notes, reported } = refine(BASE_CONFIG)
    expect(notes).toEqual([])
    expect(reported).toEqual([expect.stringContaining('tiles["Kept"].futureSetting')])
    expect(reported.join()).not.toContain('Plain')
  })

  it('says why an update removes one: the change of what it depends on', () => {
    const { notes, reported } = refine({ ...BASE_CONFIG, displayType: 'stacked_bar' })
    expect(notes).toEqual([
      expect.stringMatching(
        /^tile "Kept": futureSetting .* is removed by this update, because the update changes the tile's displayType$/
      )
    ])
    expect(reported).toEqual([])
  })
})

describe('roles (managed ClickStackRole): every returned field declared, and the treatment real', () => {
  const doc = load('managed-cloud')
  const role = properties(doc, { $ref: '#/components/schemas/ClickStackRole' })
  const permission = itemProperties(doc, role.get('permissions'))
  const ctx = {
    settings: { ownershipTag: 'obsdeploy:shop', mode: 'managed' },
    manifests: { specs: { Role: [] } },
    registry: Registry.empty('shop', 'obsdeploy:shop')
  } as unknown as PlanContext
  const base: LiveRole = {
    id: 'r1',
    name: 'Editor',
    description: 'Edits',
    isPredefined: false,
    permissions: [{ action: 'read', subject: 'Dashboard', inverted: false, integration: 'mongodb' }],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z'
  }
  const normal = (r: LiveRole) => roleKind.normalLive(r, ctx)
  const changed: Record<string, unknown> = {
    name: 'Other',
    description: 'Other',
    permissions: [],
    isPredefined: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z'
  }
  const changedRule: Record<string, unknown> = {
    action: 'manage',
    subject: 'all',
    inverted: true,
    integration: 'clickhouse',
    conditions: { name: 'Prod' },
    fields: ['a']
  }

  it('the schema declares no field without a treatment', () => {
    expect([...role.keys()].length).toBeGreaterThan(4)
    expect([...role.keys()].filter(f => !ROLE_FIELDS[f])).toEqual([])
    expect([...permission.keys()]).toEqual(expect.arrayContaining(['action', 'subject', 'conditions']))
    expect([...permission.keys()].filter(f => !ROLE_PERMISSION_FIELDS[f])).toEqual([])
  })

  it.each(Object.entries(ROLE_FIELDS).filter(([, r]) => r.treatment !== 'identity'))(
    'role %s',
    (key, rule) => {
      const other = normal({ ...base, [key]: changed[key] } as LiveRole)
      if (rule.treatment === 'compared') expect(other).not.toEqual(normal(base))
      else expect(other).toEqual(normal(base))
    }
  )

  it.each(Object.keys(ROLE_PERMISSION_FIELDS))('permission %s is compared', key => {
    const rule = { ...base.permissions[0]!, [key]: changedRule[key] }
    expect(normal({ ...base, permissions: [rule] } as LiveRole)).not.toEqual(normal(base))
  })
})
