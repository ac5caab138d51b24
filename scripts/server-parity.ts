/**
 * Promise 1, "what validates offline, the server accepts", as a property: random manifests across every field and
 * variant of the language (mostly valid, now and then a value at or past one of the server's limits) are validated
 * offline; those that pass are planned and applied by the product's own code (the real kinds build the bodies, with
 * data sources and webhooks resolved against the emulator's seed), into the emulator's store of that mode, which
 * checks each request with the real server's rules (emulator/rules). A second manifest set for the same dashboards is
 * then applied over the first, so update bodies (ids carried, fields kept) are checked too.
 *
 * test/scenario/server-parity.test.ts runs a short fixed-seed sample of each mode; `npm run fuzz -- --parity` runs
 * thousands.
 */
import fc from 'fast-check'
import { stringify } from 'yaml'
import { externalAlert } from '../emulator/alert-body.js'
import { externalDashboard } from '../emulator/dashboard-output.js'
import * as records from '../emulator/records.js'
import { externalConnection, externalSource, externalWebhook } from '../emulator/records.js'
import { ResourceStore } from '../emulator/store.js'
import { patchService } from '../emulator/service-patch.js'
import {
  AGGREGATE_FUNCTIONS,
  ALERT_INTERVAL_MINUTES,
  METRIC_DATA_TYPES,
  NUMBER_FORMAT_OUTPUTS,
  NUMERIC_UNITS,
  PALETTE_TOKENS,
  QUANTILE_LEVELS,
  THRESHOLD_TYPES
} from '../emulator/rules/vocabulary.js'
import { loadDefaultSeed } from '../emulator/seed.js'
import type { ServiceRecord } from '../emulator/types.js'
import type { ObservabilityApi, RecordCollection } from '../src/api/client.js'
import {
  LiveAlert,
  LiveConnection,
  LiveDashboard,
  LiveSavedSearch,
  LiveService,
  LiveSource,
  LiveWebhook
} from '../src/api/schemas.js'
import { applyPlan } from '../src/apply/apply.js'
import { ownershipTag } from '../src/kinds/ownership.js'
import { readLiveState } from '../src/live/read.js'
import { silentLogger } from '../src/log.js'
import type { PlanSettings } from '../src/kinds/kind.js'
import { validateText, type ManifestSet } from '../src/manifest/load.js'
import { emptySpecs } from '../src/manifest/specs.js'
import { parseYamlFile } from '../src/manifest/yaml.js'
import { computePlan } from '../src/planner/planner.js'

export type Mode = 'self-hosted' | 'managed'
type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Obj = { [key: string]: Json }

// ---------------------------------------------------------------------------------------------------------
// Manifests, drawn from the server's value sets (the emulator's vocabulary), so a value the product's own vocabulary
// lacks shows up as a manifest refused offline in `npm run fuzz -- --parity` statistics rather than never being tried.

const SEED = loadDefaultSeed()
const SOURCE_NAMES = SEED.sources.map(s => s.name)
const SOURCE_IDS = SEED.sources.map(s => s.id)
const WEBHOOK_NAMES = SEED.webhooks.map(w => w.name)
const WEBHOOK_IDS = SEED.webhooks.map(w => w.id)
const AGG_FNS: readonly string[] = AGGREGATE_FUNCTIONS
const LEVELS = QUANTILE_LEVELS
const OUTPUTS = NUMBER_FORMAT_OUTPUTS
const UNITS = NUMERIC_UNITS
const METRIC_TYPES = METRIC_DATA_TYPES
const CONFIG_DISPLAY_TYPES = [
  'line',
  'stacked_bar',
  'table',
  'number',
  'pie',
  'bar',
  'search',
  'markdown',
  'heatmap',
  'event_patterns'
]
const TRACES = SEED.sources.find(s => s.kind === 'trace')!
/** Sources a search link-out may open (log and trace). */
const SEARCHABLE = SEED.sources.filter(s => s.kind === 'log' || s.kind === 'trace').map(s => s.name)
const LUCENE = [
  '',
  'level:error',
  'service:checkout AND duration:>100',
  'NOT level:info',
  '(level:warn OR level:error)'
]
const SQL = ["level = 'error'", "ServiceName IN ('cart', 'checkout')", '']

/**
 * Usually `valid`; about one time in 100, `odd`: a value at or past one of the server's limits. A case draws some 50
 * of these, so about half the cases have one odd value somewhere.
 */
const mostly = <T>(valid: fc.Arbitrary<T>, odd: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof({ arbitrary: valid, weight: 99 }, { arbitrary: odd, weight: 1 })
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 })
const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/)
const label = fc.string({ minLength: 1, maxLength: 30 }).filter(s => s.trim() !== '' && !s.includes('${'))
const long = (n: number) => fc.constant('x'.repeat(n))

/** Drops the keys whose value is undefined. */
function obj(fields: Record<string, Json | undefined>): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v
  return out
}

const where = fc.oneof(
  fc.constantFrom(...LUCENE).map(w => ({ where: w })),
  fc.constantFrom(...LUCENE).map(w => ({ where: w, whereLanguage: 'lucene' })),
  fc.constantFrom(...SQL).map(w => ({ where: w, whereLanguage: 'sql' })),
  fc.constant({})
)

const numberFormat: fc.Arbitrary<Obj> = fc
  .record({
    output: mostly(fc.constantFrom<string | undefined>(...OUTPUTS), fc.constant(undefined)),
    numericUnit: maybe(mostly(fc.constantFrom(...UNITS), fc.constant('furlongs'))),
    mantissa: maybe(mostly(fc.integer({ min: 0, max: 6 }), fc.constant(1.5))),
    thousandSeparated: maybe(fc.boolean()),
    average: maybe(fc.boolean()),
    decimalBytes: maybe(fc.boolean()),
    factor: maybe(fc.double({ min: -1000, max: 1000, noNaN: true })),
    currencySymbol: maybe(fc.constantFrom('$', '€')),
    unit: maybe(fc.constantFrom('ms', 'req/s'))
  })
  .map(obj)

/** aggFn with its value and level as the rules want them, now and then not (managed: `increase` is odd). */
function aggregation(valueKey: 'field' | 'valueExpression', mode: Mode): fc.Arbitrary<Obj> {
  const usual = mode === 'managed' ? AGG_FNS.filter(fn => fn !== 'increase') : AGG_FNS
  return fc
    .record({
      aggFn: mostly(fc.constantFrom(...usual), fc.constant('increase')),
      value: word,
      level: mostly(fc.constantFrom(...LEVELS), fc.constantFrom(0.75, 1)),
      oddValue: mostly(fc.constant(false), fc.constant(true)),
      oddLevel: mostly(fc.constant(false), fc.constant(true))
    })
    .map(({ aggFn, value, level, oddValue, oddLevel }) =>
      obj({
        aggFn,
        [valueKey]: (aggFn === 'count') === oddValue ? value : undefined,
        level: (aggFn === 'quantile') !== oddLevel ? level : undefined
      })
    )
}

const metric = (typeKey: 'metricDataType' | 'metricType') =>
  fc
    .record({ metricName: maybe(word), type: maybe(fc.constantFrom(...METRIC_TYPES)) })
    .map(m => obj({ metricName: m.metricName, [typeKey]: m.type }))

/** A data source by name or by id. */
const sourceRef = fc.oneof(
  fc.constantFrom(...SOURCE_NAMES).map(source => ({ source }) as Obj),
  fc.constantFrom(...SOURCE_IDS).map(sourceId => ({ sourceId }) as Obj)
)

interface TileBody {
  body: Obj
  alertable: boolean
}

const seriesTile = (mode: Mode): fc.Arbitrary<TileBody> =>
  fc
    .record({
      type: fc.constantFrom('time', 'table', 'number', 'search', 'markdown'),
      source: mostly(sourceRef, fc.constant({} as Obj)),
      dataSource: maybe(fc.constantFrom('events', 'metrics')),
      groupBy: maybe(fc.uniqueArray(word, { minLength: 1, maxLength: 3 })),
      count: fc.integer({ min: 1, max: 3 }),
      displayType: maybe(fc.constantFrom('line', 'stacked_bar')),
      sortOrder: maybe(fc.constantFrom('asc', 'desc')),
      asRatio: maybe(fc.boolean()),
      fields: fc.uniqueArray(word, { maxLength: 4 }),
      content: mostly(fc.string({ maxLength: 80 }), long(100_001)),
      filter: where
    })
    .chain(t => {
      if (t.type === 'markdown')
        return fc.constant({ body: { series: [{ type: 'markdown', content: t.content }] }, alertable: false })
      if (t.type === 'search') {
        const search = obj({
          type: 'search',
          ...t.source,
          dataSource: t.dataSource,
          fields: t.fields,
          ...t.filter
        })
        return fc.constant({ body: { series: [search] }, alertable: false })
      }
      const n = t.type === 'number' ? 1 : t.count
      const one = fc
        .record({
          agg: aggregation('field', mode),
          filter: where,
          alias: maybe(label),
          metric: metric('metricDataType'),
          numberFormat: maybe(numberFormat)
        })
        .map(s =>
          obj({
            type: t.type,
            ...t.source,
            dataSource: t.dataSource,
            ...s.agg,
            ...s.filter,
            alias: s.alias,
            ...s.metric,
            numberFormat: s.numberFormat,
            groupBy: t.type === 'number' ? undefined : t.groupBy,
            displayType: t.type === 'time' ? t.displayType : undefined,
            sortOrder: t.type === 'table' ? t.sortOrder : undefined
          })
        )
      return fc.array(one, { minLength: n, maxLength: n }).map(series => {
        const ratio = t.type === 'time' && series.length === 2 ? t.asRatio : undefined
        return {
          body: obj({ asRatio: ratio, series }),
          alertable: t.type !== 'table'
        }
      })
    })

const selectItem = (mode: Mode): fc.Arbitrary<Obj> =>
  fc
    .record({
      agg: aggregation('valueExpression', mode),
      filter: where,
      alias: maybe(mostly(label, long(10_001))),
      metric: metric('metricType'),
      periodAggFn: maybe(fc.constant('delta')),
      numberFormat: maybe(numberFormat)
    })
    .map(s =>
      obj({
        ...s.agg,
        ...s.filter,
        alias: s.alias,
        ...s.metric,
        periodAggFn: s.periodAggFn,
        numberFormat: s.numberFormat
      })
    )

const configTile = (mode: Mode): fc.Arbitrary<TileBody> =>
  fc
    .record({
      // The builder display types the manifest language has (heatmap and event_patterns come with issue 15).
      displayType: fc.constantFrom(...CONFIG_DISPLAY_TYPES),
      source: mostly(sourceRef, fc.constant({} as Obj)),
      select: fc.array(selectItem(mode), { minLength: 1, maxLength: 3 }),
      groupBy: maybe(fc.oneof(word, fc.uniqueArray(word, { minLength: 1, maxLength: 3 }))),
      asRatio: maybe(fc.boolean()),
      flags: fc.record({
        alignDateRangeToGranularity: maybe(fc.boolean()),
        fillNulls: maybe(fc.boolean()),
        fitYAxisToData: maybe(fc.boolean()),
        compareToPreviousPeriod: maybe(fc.boolean()),
        groupByColumnsOnLeft: maybe(fc.boolean())
      }),
      numberFormat: maybe(numberFormat),
      // Managed mode has no seriesLimit: there it is the odd value.
      seriesLimit:
        mode === 'managed'
          ? mostly(fc.constant(undefined), fc.integer({ min: 0, max: 50 }))
          : maybe(mostly(fc.integer({ min: 0, max: 50 }), fc.constant(-1))),
      limit: maybe(fc.integer({ min: 0, max: 50 })),
      having: maybe(fc.constantFrom('count() > 10', '')),
      orderBy: maybe(fc.constantFrom('count() DESC', 'service')),
      searchSelect: fc.oneof(
        fc.constantFrom('', 'level, service'),
        fc.uniqueArray(word, { minLength: 1, maxLength: 3 })
      ),
      filter: where,
      markdown: mostly(fc.string({ maxLength: 80 }), long(50_001)),
      // Formulas over the select items (self-hosted only: the managed API has none, so there they are odd).
      formula: mode === 'managed' ? mostly(fc.constant(false), fc.constant(true)) : maybe(fc.boolean()),
      formulaRef: mostly(fc.constant(0), fc.constant(25)),
      showOperandSeries: maybe(fc.boolean()),
      color: maybe(mostly(fc.constantFrom(...PALETTE_TOKENS), fc.constant('#ff0000'))),
      colorRules: maybe(
        fc.array(
          fc.oneof(
            fc.record({
              operator: fc.constantFrom('gt', 'gte', 'lt', 'lte'),
              value: fc.integer({ min: -5, max: 500 }),
              color: fc.constantFrom(...PALETTE_TOKENS)
            }),
            fc.record({
              operator: fc.constant('between'),
              value: mostly(
                fc.tuple(fc.integer(), fc.integer()),
                fc.constant([1] as unknown as [number, number])
              ),
              color: fc.constantFrom(...PALETTE_TOKENS)
            }),
            fc.record({
              operator: fc.constantFrom('eq', 'neq'),
              value: fc.oneof(fc.integer(), word),
              color: fc.constantFrom(...PALETTE_TOKENS),
              label: maybe(mostly(word, long(41)))
            })
          ),
          { maxLength: 3 }
        )
      ),
      backgroundChart: maybe(
        fc
          .record({ type: fc.constantFrom('line', 'area'), color: maybe(fc.constantFrom(...PALETTE_TOKENS)) })
          .map(obj)
      ),
      onClick: maybe(
        fc.oneof(
          fc.constant({ type: 'external', urlTemplate: 'https://runbooks.example.com/{{service}}' } as Obj),
          fc.constant({
            type: 'dashboard',
            target: { mode: 'template', template: '{{service}} overview' }
          } as Obj),
          fc.constantFrom(...SEARCHABLE).map(
            source =>
              ({
                type: 'search',
                target: { mode: 'id', source },
                whereTemplate: 'service:{{service}}'
              }) as Obj
          )
        )
      ),
      heatmap: fc.record({
        valueExpression: mostly(word, fc.constant('')),
        countExpression: maybe(fc.constant('count()')),
        heatmapScaleType: maybe(fc.constantFrom('log', 'linear'))
      })
    })
    .map(c => {
      const d = c.displayType
      if (d === 'markdown')
        return { body: { config: { displayType: d, markdown: c.markdown } }, alertable: false }
      // A heatmap reads a trace source (a plan error otherwise, not a request the server would see).
      if (d === 'heatmap')
        return {
          body: {
            config: obj({
              displayType: d,
              source: TRACES.name,
              select: [obj(c.heatmap)],
              ...c.filter,
              numberFormat: c.numberFormat
            })
          },
          alertable: false
        }
      if (d === 'event_patterns')
        return {
          body: { config: obj({ displayType: d, ...c.source, select: 'Body', ...c.filter }) },
          alertable: false
        }
      if (d === 'search')
        return {
          body: { config: obj({ displayType: d, ...c.source, select: c.searchSelect, ...c.filter }) },
          alertable: false
        }
      const time = d === 'line' || d === 'stacked_bar'
      const formulas = c.formula === true && d !== 'pie' && d !== 'bar'
      const single = (d === 'number' && !formulas) || d === 'pie' || d === 'bar'
      const select = single ? c.select.slice(0, 1) : c.select
      const letter = String.fromCharCode(65 + Math.min(select.length - 1 + c.formulaRef, 25))
      const config = obj({
        displayType: d,
        ...c.source,
        select,
        groupBy: d === 'number' ? undefined : c.groupBy,
        asRatio: (time || d === 'table') && select.length === 2 && !formulas ? c.asRatio : undefined,
        formulas: formulas ? [{ expression: `A + ${letter}` }] : undefined,
        showOperandSeries: formulas && d !== 'number' ? c.showOperandSeries : undefined,
        color: d === 'number' ? c.color : undefined,
        colorRules: d === 'number' ? (c.colorRules as Json | undefined) : undefined,
        backgroundChart: d === 'number' ? c.backgroundChart : undefined,
        onClick: d === 'table' ? c.onClick : undefined,
        alignDateRangeToGranularity: time ? c.flags.alignDateRangeToGranularity : undefined,
        fillNulls: time ? c.flags.fillNulls : undefined,
        fitYAxisToData: d === 'line' ? c.flags.fitYAxisToData : undefined,
        compareToPreviousPeriod: d === 'line' ? c.flags.compareToPreviousPeriod : undefined,
        groupByColumnsOnLeft: d === 'table' ? c.flags.groupByColumnsOnLeft : undefined,
        seriesLimit: time ? c.seriesLimit : undefined,
        having: d === 'table' ? c.having : undefined,
        orderBy: d === 'table' || d === 'pie' || d === 'bar' ? c.orderBy : undefined,
        limit: d === 'pie' || d === 'bar' ? c.limit : undefined,
        numberFormat: c.numberFormat
      })
      return { body: { config }, alertable: time || d === 'number' }
    })

const place = fc
  .record({
    x: fc.integer({ min: 0, max: 23 }),
    y: fc.integer({ min: 0, max: 60 }),
    w: fc.integer({ min: 1, max: 24 }),
    h: fc.integer({ min: 1, max: 12 }),
    odd: mostly(fc.constant(false), fc.constant(true))
  })
  // Inside the 24-column grid, unless odd.
  .map(p => ({ x: p.x, y: p.y, w: p.odd ? p.w : Math.min(p.w, 24 - p.x), h: p.h }))

/** A dashboard and alerts on it; `renamedFrom` renames a dashboard of the first set (same id, tiles and all). */
function dashboardDocs(name: string, mode: Mode, renamedFrom?: string): fc.Arbitrary<Obj[]> {
  return fc
    .record({
      apiVersion: maybe(fc.constant('obsdeploy/v1')),
      adopt: maybe(fc.boolean()),
      tags: maybe(fc.uniqueArray(fc.constantFrom('payments', 'sre', 'team-a', '', 'beta'), { maxLength: 3 })),
      tiles: fc.array(fc.tuple(place, fc.oneof(seriesTile(mode), configTile(mode))), {
        minLength: 1,
        maxLength: 4
      }),
      // Dashboard level: containers with tabs (tiles placed in them), filters, the saved query and filter values.
      containers: maybe(
        fc.uniqueArray(
          fc
            .record({
              title: fc.constantFrom('Overview', 'Details', 'Errors'),
              collapsed: maybe(fc.boolean()),
              collapsible: maybe(fc.boolean()),
              bordered: maybe(fc.boolean()),
              tabs: maybe(
                fc.uniqueArray(
                  fc.constantFrom('One', 'Two', 'Three').map(title => ({ title })),
                  { maxLength: 3, selector: t => t.title }
                )
              )
            })
            .map(c => obj(c as Record<string, Json | undefined>)),
          { maxLength: 2, selector: c => c.title }
        )
      ),
      placement: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
      filters: maybe(
        fc.array(
          fc.record({
            name: fc.constantFrom('Service', 'Level', 'Env'),
            expression: fc.constantFrom('ServiceName', 'SeverityText'),
            source: fc.constantFrom(...SOURCE_NAMES),
            where: maybe(fc.constantFrom('service:*', '')),
            appliesToSources: maybe(
              fc.uniqueArray(fc.constantFrom(...SOURCE_NAMES), { minLength: 1, maxLength: 2 })
            ),
            // Managed filters have no broadcast or variable settings: there these are odd.
            variable:
              mode === 'managed'
                ? mostly(fc.constant(undefined), fc.constant(true))
                : maybe(mostly(fc.boolean(), fc.constant(false))),
            broadcast: mode === 'managed' ? fc.constant(undefined) : maybe(fc.boolean())
          }),
          { maxLength: 2 }
        )
      ),
      savedQuery: maybe(
        fc.oneof(
          fc.constantFrom(...LUCENE.filter(Boolean)).map(q => ({ savedQuery: q }) as Obj),
          fc
            .constantFrom(...SQL.filter(Boolean))
            .map(q => ({ savedQuery: q, savedQueryLanguage: 'sql' }) as Obj)
        )
      ),
      savedFilterValues: maybe(
        fc.array(
          fc.constantFrom("ServiceName IN ('cart')", 'x = 1').map(condition => ({ condition })),
          { maxLength: 2 }
        )
      ),
      alerts: fc.array(
        fc.record({
          tile: fc.nat(),
          thresholdType: fc.constantFrom(...THRESHOLD_TYPES),
          threshold: fc.integer({ min: -100, max: 1000 }),
          span: fc.integer({ min: 0, max: 100 }),
          interval: fc.constantFrom('1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d'),
          channel: fc.oneof(
            fc.constantFrom(...WEBHOOK_NAMES).map(webhook => ({ type: 'webhook', webhook })),
            fc.constantFrom(...WEBHOOK_IDS).map(webhookId => ({ type: 'webhook', webhookId }))
          ),
          message: maybe(label),
          note: maybe(mostly(label, long(4097))),
          numConsecutiveWindows: maybe(fc.integer({ min: 1, max: 5 })),
          anyTile: mostly(fc.constant(false), fc.constant(true)),
          // An offset below the interval (now and then at it), or a start date (with no offset).
          schedule: maybe(
            fc.oneof(
              fc.record({
                offset: fc.nat({ max: 1439 }),
                odd: mostly(fc.constant(false), fc.constant(true))
              }),
              fc.integer({ min: 1, max: 300 }).map(days => ({ startAt: days }))
            )
          )
        }),
        { maxLength: 2 }
      )
    })
    .map(d => {
      const containers = (d.containers ?? []) as Obj[]
      const tiles = d.tiles.map(([p, t], i) => {
        const container = containers[d.placement[i]! % (containers.length + 1)]
        const tabs = (container?.tabs ?? []) as Obj[]
        const tab = tabs[d.placement[i]! % (tabs.length + 1)]
        return obj({ name: `T${i}`, ...p, container: container?.title, tab: tab?.title, ...t.body })
      })
      const alertable = d.tiles.flatMap(([, t], i) => (t.alertable ? [i] : []))
      const filters = d.filters?.map(f =>
        obj({
          name: f.name,
          expression: f.expression,
          source: f.source,
          where: f.where,
          appliesToSources: f.broadcast === false ? undefined : f.appliesToSources,
          isVariableEnabled: f.variable,
          isBroadcastEnabled: f.variable === true ? f.broadcast : undefined
        })
      )
      // Variable names are derived from the filter names: keep one variable per name.
      const seen = new Set<Json>()
      for (const f of filters ?? []) {
        if (f.isVariableEnabled !== true) continue
        if (seen.has(f.name!)) f.isVariableEnabled = false
        seen.add(f.name!)
        if (f.isVariableEnabled === false) delete f.isBroadcastEnabled
      }
      const docs: Obj[] = [
        obj({
          apiVersion: d.apiVersion,
          kind: 'Dashboard',
          name,
          renamedFrom,
          adopt: d.adopt,
          tags: d.tags,
          filters,
          ...d.savedQuery,
          savedFilterValues: d.savedFilterValues,
          containers: d.containers,
          tiles
        })
      ]
      d.alerts.forEach((a, k) => {
        const pool = a.anyTile ? d.tiles.map((_, i) => i) : alertable
        if (pool.length === 0) return
        const tile = pool[a.tile % pool.length]!
        const ranged = a.thresholdType.includes('between')
        docs.push(
          obj({
            kind: 'Alert',
            name: `${name} alert ${k}`,
            dashboard: name,
            tile: `T${tile}`,
            source: 'tile',
            threshold: a.threshold,
            thresholdMax: ranged ? a.threshold + a.span : undefined,
            thresholdType: a.thresholdType,
            interval: a.interval,
            channel: a.channel,
            message: a.message,
            note: a.note,
            numConsecutiveWindows: a.numConsecutiveWindows,
            ...schedule(a.schedule, a.interval)
          })
        )
      })
      return docs
    })
}

/** An alert's schedule: an offset below its interval (odd: at it), or a start date some days ahead. */
function schedule(
  s: { offset: number; odd: boolean } | { startAt: number } | undefined,
  interval: string
): Obj {
  if (s === undefined) return {}
  if ('startAt' in s)
    return {
      scheduleStartAt: new Date(Date.now() + s.startAt * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')
    }
  const minutes = ALERT_INTERVAL_MINUTES[interval as keyof typeof ALERT_INTERVAL_MINUTES]
  return { scheduleOffsetMinutes: s.odd ? minutes : s.offset % minutes }
}

const serviceSettings: fc.Arbitrary<Obj> = fc
  .record({
    name: maybe(mostly(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ]{0,30}$/), fc.constant('prod-eu'))),
    releaseChannel: maybe(fc.constantFrom('slow', 'default', 'fast')),
    ipAccessList: maybe(
      fc.uniqueArray(
        fc.record({
          source: mostly(
            fc.constantFrom('10.0.0.0/8', '203.0.113.7', '2001:db8::/32', '198.51.100.0/24'),
            fc.constant('10.0.0.300')
          ),
          description: maybe(label)
        }),
        { maxLength: 3, selector: e => e.source }
      )
    ),
    privateEndpointIds: maybe(
      fc.uniqueArray(fc.constantFrom('vpce-0emu0000000000001', 'vpce-0emu0000000000002'))
    ),
    endpoints: maybe(fc.boolean().map(enabled => [{ protocol: 'mysql', enabled }])),
    transparentDataEncryptionKeyId: maybe(fc.constantFrom('emu-tde-key-0002'))
  })
  .map(s => obj({ kind: 'ServiceSettings', ...(s as Record<string, Json | undefined>) }))

/** Two manifest sets for the same dashboards: the first is applied, then the second over it. */
export interface ParityCase {
  mode: Mode
  first: Obj[]
  second: Obj[]
}

export function parityCase(mode: Mode): fc.Arbitrary<ParityCase> {
  const stack = (names: string[], renames: boolean[] = []): fc.Arbitrary<Obj[]> =>
    fc
      .tuple(
        fc.tuple(
          ...names.map((name, i) =>
            renames[i] ? dashboardDocs(`${name} renamed`, mode, name) : dashboardDocs(name, mode)
          )
        ),
        mode === 'managed' ? maybe(serviceSettings) : fc.constant(undefined)
      )
      .map(([dashboards, service]) => [...dashboards.flat(), ...(service ? [service] : [])])
  return fc
    .uniqueArray(fc.constantFrom('Checkout', 'Payments', 'Search', 'Platform'), {
      minLength: 1,
      maxLength: 2
    })
    .chain(names =>
      fc.tuple(
        stack(names),
        fc
          .array(fc.boolean(), { minLength: names.length, maxLength: names.length })
          .chain(renames => stack(names, renames))
      )
    )
    .map(([first, second]) => ({ mode, first, second }))
}

// ---------------------------------------------------------------------------------------------------------
// Plan and apply through the product's code into the emulator's store.

/** The ObservabilityApi of one emulator store, in process: each write goes through the emulator's request rules. */
function storeApi(mode: Mode, store: ResourceStore, service: { record: ServiceRecord }): ObservabilityApi {
  const copy = <T>(value: T): unknown => structuredClone(value)
  // What the routes answer: the stored records as the server returns them.
  const written = (d: Parameters<typeof externalDashboard>[0]) =>
    LiveDashboard.parse(copy(externalDashboard(d)))
  const alert = (a: Parameters<typeof externalAlert>[0]) => LiveAlert.parse(copy(externalAlert(a)))
  const api: ObservabilityApi = {
    mode,
    stats: { requests: 0, retries: 0, rateLimited: 0 },
    // In process: nothing is on a wire to cancel.
    withSignal: () => api,
    listDashboards: async () => [...store.dashboards.values()].map(written),
    getDashboard: async id => written(store.getDashboard(id)),
    createDashboard: async body => written(store.createDashboard(copy(body))),
    updateDashboard: async (id, body) => written(store.updateDashboard(id, copy(body))),
    // The parity runs compare v2 writes; the MCP patch path is checked by the scenario tests.
    canPatchDashboards: async () => false,
    patchDashboard: async () => {
      throw new Error('not offered in process')
    },
    deleteDashboard: async id => {
      store.deleteDashboard(id)
      return 'deleted'
    },
    validateDashboard: async () => ({ valid: true, errors: [] }),
    listAlerts: async () => [...store.alerts.values()].map(alert),
    getAlert: async id => alert(store.getAlert(id)),
    createAlert: async body => ({ id: store.createAlert(copy(body)).id }),
    updateAlert: async (id, body) => ({ id: store.updateAlert(id, copy(body)).id }),
    deleteAlert: async id => {
      store.deleteAlert(id)
      return 'deleted'
    },
    listSources: async () => store.sources.map(s => LiveSource.parse(copy(externalSource(s)))),
    listWebhooks: async () => store.webhooks.map(w => LiveWebhook.parse(copy(externalWebhook(w)))),
    listConnections: async () =>
      mode === 'managed'
        ? undefined
        : store.connections.map(c => LiveConnection.parse(copy(externalConnection(c)))),
    listSavedSearches: async () => [...store.savedSearches.values()].map(s => LiveSavedSearch.parse(copy(s))),
    createRecord: async (collection, body) => ({ id: recordWrite(store, collection, 'create', copy(body)) }),
    updateRecord: async (collection, id, body) => ({
      id: recordWrite(store, collection, 'update', copy(body), id)
    }),
    deleteRecord: async (collection, id) => {
      recordWrite(store, collection, 'delete', undefined, id)
      return 'deleted'
    },
    // The parity runs compare the resources' writes; team members are checked by their own scenarios.
    listTeam: async () => undefined,
    inviteTeamMember: async () => {
      throw new Error('not offered in process')
    },
    deleteTeamInvitation: async () => 'absent',
    deleteTeamMember: async () => 'absent',
    // Roles are checked by their own scenarios (the emulator's managed roles routes).
    listRoles: async () => undefined,
    querySeries: async () => [],
    getService: async () => ({ service: LiveService.parse(copy(service.record)) }),
    patchService: async body => {
      service.record = patchService(service.record, copy(body))
      return { service: LiveService.parse(copy(service.record)) }
    },
    close: async () => {}
  }
  return api
}

/** A connection, source, webhook or saved search write, through the emulator's request rules; the record's id. */
function recordWrite(
  store: ResourceStore,
  collection: RecordCollection,
  op: 'create' | 'update' | 'delete',
  body: unknown,
  id = ''
): string {
  const r = store.records
  const calls = {
    connections: [records.createConnection, records.updateConnection, records.deleteConnection],
    sources: [records.createSource, records.updateSource, records.deleteSource],
    webhooks: [records.createWebhook, records.updateWebhook, records.deleteWebhook],
    'saved-searches': [records.createSavedSearch, records.updateSavedSearch, records.deleteSavedSearch]
  } as const
  if (collection === 'roles') throw new Error('roles are not part of the parity runs')
  const [create, update, remove] = calls[collection]
  if (op === 'create') return (create as (s: typeof r, b: unknown) => { id: string })(r, body).id
  if (op === 'update')
    return (update as (s: typeof r, i: string, b: unknown) => { id: string })(r, id, body).id
  ;(remove as (s: typeof r, i: string) => void)(r, id)
  return id
}

export interface ParityOutcome {
  /** How many of the two manifest sets validated offline (and were then accepted). */
  appliedSets: 0 | 1 | 2
  requests: number
}

/** A fresh emulator store of one mode, seeded like the emulator, and the product's API over it. */
function target(mode: Mode) {
  const seed = structuredClone(SEED)
  const store = new ResourceStore(
    { dashboards: [], alerts: [], sources: seed.sources, webhooks: seed.webhooks, events: [] },
    seed.team.id,
    () => {},
    mode
  )
  const api = storeApi(mode, store, { record: seed.services[0]! })
  const settings: PlanSettings = {
    stack: 'parity',
    ownershipTag: ownershipTag('parity'),
    prune: false,
    mode,
    serviceGate: { open: true, reason: 'the parity property applies service settings' },
    servicePath: mode === 'managed' ? '/v1/organizations/o/services/s' : undefined
  }
  return { api, settings }
}

/** Plans and applies a manifest set with the product's code; the refusals, each with the emulator's text. */
async function applyInto(
  t: ReturnType<typeof target>,
  manifests: ManifestSet
): Promise<{ refused: string[]; requests: number }> {
  const { api, settings } = t
  const live = await readLiveState(api, {
    service: settings.mode === 'managed' && manifests.specs.ServiceSettings.length > 0
  })
  const { plan, planned, dashboards, registry } = computePlan({
    command: 'apply',
    settings,
    manifests,
    live,
    now: new Date(0)
  })
  const planErrors = plan.diagnostics.filter(d => d.severity === 'error')
  if (planErrors.length > 0) throw new Error(`the plan has errors: ${JSON.stringify(planErrors)}`)
  const result = await applyPlan({
    api,
    planned,
    dashboards,
    registry,
    settings,
    concurrency: 1,
    log: silentLogger
  })
  const refused = result.outcomes
    .filter(o => o.status !== 'applied')
    .map(o => `${o.address} (${o.action}): ${o.message ?? o.status}`)
  return { refused, requests: result.outcomes.length }
}

const yamlText = (docs: Obj[]) => docs.map(d => stringify(d, { lineWidth: 0 })).join('---\n')

/**
 * Validates each manifest set offline; a set that passes is planned and applied into the emulator's store. Throws, with
 * the emulator's 400 text and the manifest, when a request built from a valid manifest is refused.
 */
export async function checkParity(c: ParityCase): Promise<ParityOutcome> {
  const t = target(c.mode)
  let appliedSets: ParityOutcome['appliedSets'] = 0
  let requests = 0
  for (const docs of [c.first, c.second]) {
    const text = yamlText(docs)
    const manifests = validateText('parity.yaml', text, c.mode)
    if (manifests.diagnostics.some(d => d.severity === 'error')) break
    const applied = await applyInto(t, manifests)
    if (applied.refused.length > 0)
      throw new Error(
        `the emulator (${c.mode}) refused what validated offline:\n${applied.refused.join('\n')}\n--- manifests:\n${text}`
      )
    requests += applied.requests
    appliedSets = (appliedSets + 1) as ParityOutcome['appliedSets']
  }
  return { appliedSets, requests }
}

/**
 * What the emulator answers to a manifest that skipped offline validation: its documents go to the product's body
 * code as they are. Shows that a rule validation enforces is one the server (the emulator) enforces too.
 */
export async function applyUnchecked(mode: Mode, text: string): Promise<string[]> {
  const manifests: ManifestSet = {
    files: ['unchecked.yaml'],
    specs: emptySpecs(),
    diagnostics: []
  }
  for (const doc of parseYamlFile('unchecked.yaml', text).documents) {
    const kind = (doc.value as { kind?: string }).kind
    const located = { spec: doc.value, doc } as never
    if (kind === 'Dashboard' || kind === 'Alert' || kind === 'ServiceSettings')
      manifests.specs[kind].push(located)
  }
  return (await applyInto(target(mode), manifests)).refused
}
