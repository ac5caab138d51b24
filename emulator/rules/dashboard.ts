/**
 * Dashboard request bodies (POST /dashboards, PUT /dashboards/{id}, POST /dashboards/validate) as the real server
 * checks them, rule by rule from HyperDX 2.36:
 * - packages/api/src/utils/zod.ts: the tile, series, config and select-item schemas and their refinements;
 * - packages/api/src/routers/external-api/v2/utils/dashboards.ts: the body shape (dashboardBodyBaseShape,
 *   buildDashboardBodySchema) and the checks the handler runs after the body passed (validateDashboardTiles);
 * - packages/common-utils/src/types.ts and dashboardValidation.ts: number formats, containers, filters, colours.
 * Managed mode adds what the cloud's OpenAPI document (ClickStack* schemas) leaves out or requires on top.
 * The definitions are ours; the limits, value sets, order of checks and messages are the server's.
 */
import {
  addIssue,
  backgroundChart,
  dashboardContainer,
  isRecord,
  isValidObjectId,
  numberFormat,
  numberTileColorRule,
  objectId,
  oneOf,
  paletteToken,
  parseWith,
  tags,
  z,
  type Parsed,
  type RuleMode
} from './common.js'
import { formulaProblems } from './formula.js'
import {
  AGGREGATE_FUNCTIONS,
  FILTER_WHERE_LANGUAGES,
  LIMITS,
  MANAGED_AGGREGATE_FUNCTIONS,
  MANAGED_WHERE_LANGUAGES,
  METRIC_DATA_TYPES,
  QUANTILE_LEVELS,
  WHERE_LANGUAGES
} from './vocabulary.js'
import type { Issue } from '../errors.js'

type Shape = z.ZodRawShape
type Json = Record<string, unknown>

/** Config keys the managed document does not declare on any tile config: the emulator refuses them there. */
const MANAGED_UNDECLARED_CONFIG_KEYS = ['formulas', 'showOperandSeries', 'seriesLimit'] as const

const text = (max: number) => z.string().max(max)

function build(mode: RuleMode) {
  const managed = mode === 'managed'
  const aggFn = oneOf(managed ? MANAGED_AGGREGATE_FUNCTIONS : AGGREGATE_FUNCTIONS)
  const language = oneOf<string>(managed ? MANAGED_WHERE_LANGUAGES : WHERE_LANGUAGES).optional()
  /** Managed series and search configs list whereLanguage as required (ClickStack*ChartSeries, …SearchChartConfig). */
  const requiredLanguage = managed ? oneOf<string>(MANAGED_WHERE_LANGUAGES) : language
  const metricType = oneOf(METRIC_DATA_TYPES)
  /** Managed tiles declare x, y, w and h as integers (ClickStackTileInput); HyperDX takes any number. */
  const gridNumber = managed ? z.number().int() : z.number()

  // ---- The older `series` form (zod.ts chartSeriesSchema).
  const level = z.number().min(0).max(1).optional()
  const measure = {
    sourceId: objectId,
    aggFn,
    level,
    field: z.string().optional(),
    alias: z.string().optional(),
    where: z.string(),
    whereLanguage: requiredLanguage
  }
  const metric = {
    numberFormat: numberFormat.optional(),
    metricDataType: metricType.optional(),
    metricName: z.string().optional()
  }
  const groupBy = z.array(z.string()).max(10)
  const series = z.discriminatedUnion('type', [
    z.object({
      type: z.literal('time'),
      ...measure,
      groupBy,
      ...metric,
      displayType: z.union([z.literal('stacked_bar'), z.literal('line')]).optional()
    }),
    z.object({
      type: z.literal('table'),
      ...measure,
      groupBy,
      sortOrder: z.union([z.literal('desc'), z.literal('asc')]).optional(),
      ...metric
    }),
    z.object({
      type: z.literal('search'),
      sourceId: objectId,
      fields: z.array(z.string()),
      where: z.string(),
      whereLanguage: requiredLanguage
    }),
    z.object({ type: z.literal('number'), ...measure, ...metric }),
    z.object({ type: z.literal('markdown'), content: text(100000) })
  ])
  const seriesList = z
    .array(series)
    .min(1)
    .superRefine((list, ctx) => {
      if (list.some(s => s.type !== list[0]!.type)) addIssue(ctx, 'All series must have the same type')
    })

  // ---- The `config` form: select items (zod.ts externalDashboardSelectItemSchema).
  const quantileLevel = z.union(
    QUANTILE_LEVELS.map(l => z.literal(l)) as unknown as [z.ZodLiteral<number>, z.ZodLiteral<number>]
  )
  const selectItem = z
    .object({
      valueExpression: text(10000).optional(),
      alias: text(10000).optional(),
      aggFn,
      level: quantileLevel.optional(),
      where: text(10000).optional().default(''),
      whereLanguage: language,
      numberFormat: numberFormat.optional(),
      metricType: metricType.optional(),
      metricName: z.string().optional(),
      periodAggFn: z.enum(['delta']).optional()
    })
    .superRefine((item, ctx) => {
      if (item.level && item.aggFn !== 'quantile')
        addIssue(ctx, 'Level can only be used with quantile aggregation function')
      if (item.valueExpression && item.aggFn === 'count')
        addIssue(ctx, 'Value expression cannot be used with count aggregation function')
      else if (!item.valueExpression && item.aggFn !== 'count')
        addIssue(ctx, 'Value expression is required for non-count aggregation functions')
    })
  const selectList = z.array(selectItem)

  // onClick link-outs of table tiles (types.ts OnClick*Schema, zod.ts externalOnClickSchema).
  const target = z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('id'), id: objectId }),
    z.object({ mode: z.literal('template'), template: z.string().min(1).max(10000) })
  ])
  const linkFilters = z
    .array(
      z.object({
        kind: z.literal('expressionTemplate'),
        expression: z.string().min(1, 'Expression is required').max(10000),
        template: z.string().min(1, 'Template is required').max(10000)
      })
    )
    .max(50)
    .optional()
  const linkTo = (type: 'search' | 'dashboard') =>
    z.object({
      type: z.literal(type),
      target,
      whereTemplate: text(10000).optional(),
      whereLanguage: language,
      filters: linkFilters
    })
  const onClick = z.discriminatedUnion('type', [
    linkTo('search'),
    linkTo('dashboard'),
    z.object({ type: z.literal('external'), urlTemplate: z.string().min(1).max(10000) })
  ])

  const formulas = z
    .array(
      z.object({
        expression: text(1024),
        alias: z.string().optional(),
        numberFormat: numberFormat.optional()
      })
    )
    .max(10)
    .optional()
  const seriesLimit = z.number().int().nonnegative().optional()
  const withFormulas: Shape = managed ? {} : { formulas, showOperandSeries: z.boolean().optional() }
  const withSeriesLimit: Shape = managed ? {} : { seriesLimit }

  const timeBuilder = {
    sourceId: objectId,
    select: selectList.min(1).max(20),
    groupBy: text(10000).optional(),
    asRatio: z.boolean().optional(),
    alignDateRangeToGranularity: z.boolean().optional(),
    fillNulls: z.boolean().optional(),
    numberFormat: numberFormat.optional(),
    ...withFormulas
  }
  const categorical = (displayType: 'pie' | 'bar') =>
    z.object({
      displayType: z.literal(displayType),
      sourceId: objectId,
      select: selectList.length(1),
      groupBy: text(10000).optional(),
      orderBy: text(10000).optional(),
      numberFormat: numberFormat.optional(),
      limit: z.number().int().nonnegative().optional()
    })
  const filtered = { where: text(10000).optional().default(''), whereLanguage: language }
  const builder = z.discriminatedUnion('displayType', [
    z.object({
      displayType: z.literal('line'),
      ...timeBuilder,
      compareToPreviousPeriod: z.boolean().optional(),
      fitYAxisToData: z.boolean().optional(),
      ...withSeriesLimit
    }),
    z.object({ displayType: z.literal('stacked_bar'), ...timeBuilder, ...withSeriesLimit }),
    z.object({
      displayType: z.literal('table'),
      sourceId: objectId,
      select: selectList.min(1).max(20),
      groupBy: text(10000).optional(),
      having: text(10000).optional(),
      orderBy: text(10000).optional(),
      asRatio: z.boolean().optional(),
      numberFormat: numberFormat.optional(),
      groupByColumnsOnLeft: z.boolean().optional(),
      onClick: onClick.optional(),
      ...withFormulas
    }),
    z.object({
      displayType: z.literal('number'),
      sourceId: objectId,
      select: selectList.min(1).max(20),
      numberFormat: numberFormat.optional(),
      ...(managed ? {} : { formulas }),
      color: paletteToken.optional(),
      colorRules: z.array(numberTileColorRule).max(10).optional(),
      backgroundChart: backgroundChart.optional()
    }),
    categorical('pie'),
    categorical('bar'),
    z.object({
      displayType: z.literal('heatmap'),
      sourceId: objectId,
      select: z
        .array(
          z.object({
            valueExpression: z.string().min(1).max(10000),
            countExpression: text(10000).optional(),
            heatmapScaleType: z.enum(['log', 'linear']).optional()
          })
        )
        .length(1),
      ...filtered,
      numberFormat: numberFormat.optional()
    }),
    z.object({ displayType: z.literal('markdown'), markdown: text(50000).optional() }),
    z.object({
      displayType: z.literal('search'),
      sourceId: objectId,
      select: text(10000),
      ...filtered,
      whereLanguage: requiredLanguage
    }),
    z.object({
      displayType: z.literal('event_patterns'),
      sourceId: objectId,
      select: text(10000).optional().default(''),
      ...filtered
    })
  ])

  // Raw SQL tiles (configType 'sql'): a connection and a template instead of a source and select items.
  const rawBase = {
    configType: z.literal('sql'),
    connectionId: objectId,
    sqlTemplate: text(100000),
    sourceId: objectId.optional(),
    numberFormat: numberFormat.optional()
  }
  const rawTime = { fillNulls: z.boolean().optional(), alignDateRangeToGranularity: z.boolean().optional() }
  const raw = z.discriminatedUnion('displayType', [
    z.object({
      ...rawBase,
      displayType: z.literal('line'),
      compareToPreviousPeriod: z.boolean().optional(),
      ...rawTime,
      fitYAxisToData: z.boolean().optional(),
      ...withSeriesLimit
    }),
    z.object({ ...rawBase, displayType: z.literal('stacked_bar'), ...rawTime, ...withSeriesLimit }),
    z.object({ ...rawBase, displayType: z.literal('table'), onClick: onClick.optional() }),
    z.object({ ...rawBase, displayType: z.literal('number'), color: paletteToken.optional() }),
    z.object({ ...rawBase, displayType: z.literal('pie') }),
    z.object({ ...rawBase, displayType: z.literal('bar') })
  ])

  /** `configType: 'sql'` picks the raw union, anything else the builder union (zod.ts externalDashboardTileConfigSchema). */
  const variantOf = (value: unknown) => (isRecord(value) && value.configType === 'sql' ? raw : builder)
  const config = z
    .unknown()
    .superRefine((value, ctx) => {
      if (managed && isRecord(value)) {
        const extra = MANAGED_UNDECLARED_CONFIG_KEYS.filter(key => key in value)
        if (extra.length > 0)
          addIssue(ctx, `Unrecognized key(s) in object: ${extra.map(k => `'${k}'`).join(', ')}`)
      }
      const parsed = variantOf(value).safeParse(value)
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue(issue)
        return
      }
      const data = value as Json
      // On the raw input, so asRatio also fails on variants that do not declare it (pie, raw SQL).
      if ('asRatio' in data && data.asRatio && (!Array.isArray(data.select) || data.select.length !== 2))
        addIssue(ctx, 'asRatio can only be used with exactly two select items')
      if ('configType' in data) return
      const list = !managed && Array.isArray(data.formulas) ? (data.formulas as Json[]) : []
      if (list.length > 0) {
        const count = Array.isArray(data.select) ? data.select.length : 0
        list.forEach((formula, k) => {
          const problems = formulaProblems(String(formula.expression ?? ''), count)
          if (problems.length > 0) addIssue(ctx, problems.join('; '), ['formulas', k, 'expression'])
        })
        if (data.asRatio)
          addIssue(
            ctx,
            'formulas cannot be combined with asRatio; express the ratio as a formula instead (e.g. "A / B")',
            ['formulas']
          )
        if (data.displayType === 'number' && list.length > 1)
          addIssue(ctx, 'Number charts support a single formula', ['formulas'])
      }
      if (
        data.displayType === 'number' &&
        list.length === 0 &&
        Array.isArray(data.select) &&
        data.select.length !== 1
      )
        addIssue(
          ctx,
          'Number tiles support a single select item unless formulas are used (extra items are formula operands)',
          ['select']
        )
    })
    // Re-parsed through the variant: unknown keys are stripped and defaults filled in, as the server stores them.
    .transform(value => variantOf(value).parse(value) as Json)

  // ---- Tiles (zod.ts externalDashboardTileSchema, …WithOptionalId, externalDashboardTileListSchema).
  const containerRef = z.string().min(1).max(LIMITS.containerIdMax).optional()
  const tileBase = z
    .object({
      name: z.string(),
      x: gridNumber.min(0).max(23),
      y: gridNumber.min(0),
      w: gridNumber.min(1).max(24),
      h: gridNumber.min(1),
      asRatio: z.boolean().optional(),
      series: seriesList.optional(),
      config: config.optional(),
      containerId: containerRef,
      tabId: containerRef
    })
    .superRefine((t, ctx) => {
      if (t.series && t.config) addIssue(ctx, 'Tile cannot have both series and config')
      else if (!t.series && !t.config) addIssue(ctx, 'Tile must have either series or config')
      if (t.asRatio != undefined && t.config)
        addIssue(
          ctx,
          'asRatio property is not supported when using config property. Specify config.asRatio instead.'
        )
    })
  const tile = tileBase.and(z.object({ id: z.string().max(36).optional() }))
  /** zod.ts externalDashboardTileSchemaWithId: what an MCP tile patch is checked against. */
  const tileWithId = tileBase.and(z.object({ id: z.string().max(36) }))
  const tiles = z
    .array(tile)
    .max(LIMITS.maxTiles)
    .superRefine((list, ctx) => {
      const seen = new Set<string>()
      list.forEach((t, i) => {
        if (!t.id) return
        if (seen.has(t.id))
          addIssue(ctx, `Duplicate tile ID: ${t.id}. Omit the ID to generate a unique one.`, [i, 'id'])
        seen.add(t.id)
      })
    })

  // ---- Dashboard-level fields (udash dashboardBodyBaseShape; types.ts DashboardContainerSchema, DashboardFilterSchema).
  const filterShape: Shape = {
    id: z.string(),
    type: z.enum(['QUERY_EXPRESSION']),
    name: z.string().min(1),
    expression: z.string().min(1),
    sourceMetricType: metricType.optional(),
    where: z.string().optional(),
    whereLanguage: oneOf(FILTER_WHERE_LANGUAGES).optional(),
    appliesToSourceIds: z.array(z.string().min(1)).optional()
  }
  // The managed document's filters (ClickStackFilter, …Input) have no variable or broadcast settings; filters are
  // strict, so those keys are refused there.
  if (!managed) {
    filterShape.isBroadcastEnabled = z.boolean().optional()
    filterShape.isVariableEnabled = z.boolean().optional()
    filterShape.variableName = z
      .string()
      .max(LIMITS.variableNameMax)
      .regex(/^[a-zA-Z][a-zA-Z0-9_]*$/)
      .optional()
  }
  filterShape.sourceId = objectId
  // The cloud wants every filter of an update to carry an id shaped like an ObjectId, each once (TF
  // dashboard_tile_ids.go); the server then keeps only ids of existing filters.
  if (managed) filterShape.id = z.string().regex(/^[0-9a-fA-F]{24}$/, 'Invalid ObjectId')
  const filterWithId = z.object(filterShape).strict()
  const filterWithoutId = filterWithId.omit({ id: true })

  const body = (filter: z.ZodTypeAny) =>
    z
      .object({
        name: text(1024),
        tiles,
        tags,
        savedQuery: z.string().nullable().optional(),
        savedQueryLanguage: language.nullable(),
        savedFilterValues: z
          .array(z.object({ type: z.literal('sql').optional().default('sql'), condition: text(10000) }))
          .optional(),
        containers: z.array(dashboardContainer).max(LIMITS.maxContainers).optional(),
        filters: z.array(filter).optional()
      })
      .superRefine((data, ctx) => {
        if (data.savedQuery != null && data.savedQueryLanguage === null)
          addIssue(ctx, 'savedQueryLanguage cannot be null when savedQuery is provided', [
            'savedQueryLanguage'
          ])
        checkContainers(data.containers ?? [], ctx)
        checkFilters((data.filters ?? []) as Json[], ctx)
        if (managed) checkFilterIdsUnique((data.filters ?? []) as Json[], ctx)
      })
  return { create: body(filterWithoutId), update: body(filterWithId), tileWithId }
}

/** The managed cloud refuses an update whose filters share an id (the wording is the emulator's). */
function checkFilterIdsUnique(filters: Json[], ctx: z.RefinementCtx): void {
  const seen = new Set<unknown>()
  filters.forEach((f, i) => {
    if (f.id === undefined) return
    if (seen.has(f.id)) addIssue(ctx, `Filter IDs must be unique: "${String(f.id)}"`, ['filters', i, 'id'])
    seen.add(f.id)
  })
}

/** dashboardValidation.ts validateDashboardContainersStructure: unique container ids, unique tab ids per container. */
function checkContainers(
  containers: Array<{ id: string; tabs?: Array<{ id: string }> }>,
  ctx: z.RefinementCtx
): void {
  const ids = new Set<string>()
  containers.forEach((c, i) => {
    if (ids.has(c.id)) addIssue(ctx, `Container IDs must be unique: "${c.id}"`, ['containers', i, 'id'])
    ids.add(c.id)
    const tabIds = new Set<string>()
    c.tabs?.forEach((tab, j) => {
      if (tabIds.has(tab.id))
        addIssue(ctx, `Duplicate tab id "${tab.id}" in container "${c.id}"`, [
          'containers',
          i,
          'tabs',
          j,
          'id'
        ])
      tabIds.add(tab.id)
    })
  })
}

/** The filter's variable name: explicit, or derived from its display name (filters.ts deriveVariableName). */
function variableNameOf(filter: Json): string | undefined {
  const explicit = typeof filter.variableName === 'string' ? filter.variableName.trim() : ''
  if (explicit) return explicit
  const derived = String(filter.name)
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_]+/g, '')
  const name = /^[0-9_]/.test(derived) ? `v${derived}` : derived
  return name || undefined
}

const broadcasts = (f: Json) => f.isBroadcastEnabled !== false
const isVariable = (f: Json) => f.isVariableEnabled === true
const at = (i: number, key: string) => ['filters', i, key]

/** dashboardValidation.ts: variable names, filter modes and field gating, in the server's order. */
function checkFilters(filters: Json[], ctx: z.RefinementCtx): void {
  checkFilterVariableNames(filters, ctx)
  checkFilterModes(filters, ctx)
  checkFilterFieldGating(filters, ctx)
}

/** validateDashboardFilterVariableNames: a variable filter has a name (explicit or derived), unique. */
export function checkFilterVariableNames(filters: Json[], ctx: z.RefinementCtx): void {
  const names = new Set<string>()
  filters.forEach((f, i) => {
    if (!isVariable(f)) return
    const name = variableNameOf(f)
    if (!name)
      return addIssue(ctx, `Variable name is required for filter "${String(f.name)}"`, at(i, 'variableName'))
    if (names.has(name))
      return addIssue(ctx, `Variable names must be unique: "${name}"`, at(i, 'variableName'))
    names.add(name)
  })
}

/** validateDashboardFilterModes: a filter broadcasts, is a variable, or both. */
export function checkFilterModes(filters: Json[], ctx: z.RefinementCtx): void {
  filters.forEach((f, i) => {
    if (!broadcasts(f) && !isVariable(f))
      addIssue(
        ctx,
        `Filter "${String(f.name)}" must broadcast its value, be available as a variable, or both`,
        at(i, 'isBroadcastEnabled')
      )
  })
}

/** validateDashboardFilterFieldGating: variableName and appliesToSourceIds only in the mode that uses them. */
function checkFilterFieldGating(filters: Json[], ctx: z.RefinementCtx): void {
  filters.forEach((f, i) => {
    if (f.variableName !== undefined && !isVariable(f))
      addIssue(
        ctx,
        `Filter "${String(f.name)}" sets variableName but is not available as a variable; set isVariableEnabled to true or drop variableName`,
        at(i, 'variableName')
      )
    if (Array.isArray(f.appliesToSourceIds) && f.appliesToSourceIds.length > 0 && !broadcasts(f))
      addIssue(
        ctx,
        `Filter "${String(f.name)}" sets appliesToSourceIds but does not broadcast its value; set isBroadcastEnabled to true or drop appliesToSourceIds`,
        at(i, 'appliesToSourceIds')
      )
  })
}

const built = new Map<RuleMode, ReturnType<typeof build>>()
function schemas(mode: RuleMode): ReturnType<typeof build> {
  let s = built.get(mode)
  if (!s) built.set(mode, (s = build(mode)))
  return s
}

/** A dashboard body as the server parsed it: unknown keys stripped, defaults filled in. */
export interface DashboardBody extends Json {
  name: string
  tiles: Array<Json & { id?: string; config?: Json; series?: Json[]; containerId?: string; tabId?: string }>
  tags?: string[]
  filters?: Json[]
  containers?: Array<Json & { id: string; tabs?: Array<{ id: string }> }>
}

/** Body validation (the `Body validation failed: …` answers). `validate` uses the create rules. */
export function parseDashboardBody(
  body: unknown,
  op: 'create' | 'update',
  mode: RuleMode
): Parsed<DashboardBody> {
  const s = schemas(mode)
  return parseWith(op === 'update' ? s.update : s.create, body) as Parsed<DashboardBody>
}

/** An MCP tile patch's merged tile, checked as a v2 tile with an id (self-hosted rules): the zod result as is. */
export function parseTileWithId(tile: unknown) {
  return schemas('self-hosted').tileWithId.safeParse(tile)
}

/** What the handler checks look up: the team's sources, dashboards and connections, and the dashboard being updated. */
export interface DashboardContext {
  sources: ReadonlyArray<{ id: string; kind: string; connection?: unknown }>
  dashboardIds: ReadonlySet<string>
  /** The team's connections; without them, the ones its sources use (a caller that has no connections). */
  connectionIds?: ReadonlySet<string>
  /** PUT only: the stored dashboard. */
  existing?: { tiles: ReadonlyArray<{ id: string; config: Json }>; containers?: ReadonlyArray<Json> }
}

/**
 * The checks the server runs after the body passed (udash validateDashboardTiles), in its order; the first failure is
 * the answer, a 400 `{message}` without the "Body validation failed" prefix. undefined when the body is accepted.
 */
export function dashboardHandlerProblem(body: DashboardBody, ctx: DashboardContext): string | undefined {
  const containers = body.containers ?? (ctx.existing?.containers as DashboardBody['containers']) ?? []
  const refs = containerRefIssues(containers, body.tiles)
  if (refs.length > 0) return refs.map(issue => `${issue.path}: ${issue.message}`).join('; ')

  const configs = body.tiles.map(t => (t.config ?? {}) as Json)
  const isRaw = (c: Json) => c.configType === 'sql'
  const sourceById = new Map(ctx.sources.map(s => [s.id, s]))
  const linkTarget = (c: Json, type: string): string | undefined => {
    const link = c.onClick as Json | undefined
    const target = link?.target as Json | undefined
    return link?.type === type && target?.mode === 'id' ? String(target.id) : undefined
  }

  const referenced = new Set<string>()
  body.tiles.forEach((t, i) => {
    for (const s of t.series ?? []) if (typeof s.sourceId === 'string') referenced.add(s.sourceId)
    const c = configs[i]!
    if (typeof c.sourceId === 'string' && c.sourceId) referenced.add(c.sourceId)
    const search = linkTarget(c, 'search')
    if (search) referenced.add(search)
  })
  for (const f of body.filters ?? []) if (typeof f.sourceId === 'string') referenced.add(f.sourceId)
  const missingSources = [...referenced].filter(id => !sourceById.has(id))
  if (missingSources.length > 0)
    return `Could not find the following source IDs: ${missingSources.join(', ')}`

  const connections = ctx.connectionIds ?? new Set(ctx.sources.map(s => String(s.connection)))
  const missingConnections = [...new Set(configs.filter(isRaw).map(c => String(c.connectionId)))].filter(
    id => !connections.has(id)
  )
  if (missingConnections.length > 0)
    return `Could not find the following connection IDs: ${missingConnections.join(', ')}`

  const mismatched = configs
    .filter(c => isRaw(c) && typeof c.sourceId === 'string' && c.sourceId)
    .filter(c => {
      const source = sourceById.get(String(c.sourceId))
      return source !== undefined && String(source.connection) !== c.connectionId
    })
    .map(c => String(c.sourceId))
  if (mismatched.length > 0)
    return `The following source IDs do not match the specified connections: ${mismatched.join(', ')}`

  // On PUT only the heatmap and formula tiles that are new or changed are checked against their source's kind.
  const before = new Map((ctx.existing?.tiles ?? []).map(t => [t.id, t.config]))
  const kindNotIn = (ids: Iterable<string>, kinds: string[]) =>
    [...new Set(ids)].filter(id => {
      const source = sourceById.get(id)
      return source !== undefined && !kinds.includes(source.kind)
    })
  const changed = (i: number, same: (old: Json, now: Json) => boolean): boolean => {
    const id = body.tiles[i]!.id
    const old = ctx.existing && id !== undefined ? before.get(id) : undefined
    return old === undefined || isRaw(old) || !same(old, configs[i]!)
  }
  const heatmaps = configs
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !isRaw(c) && c.displayType === 'heatmap')
    .filter(({ i }) =>
      changed(i, (old, now) => old.displayType === 'heatmap' && old.sourceId === now.sourceId)
    )
    .map(({ c }) => String(c.sourceId))
  const notTrace = kindNotIn(heatmaps, ['trace'])
  if (notTrace.length > 0)
    return `Heatmap tiles require a Trace source. The following source IDs are not Trace sources: ${notTrace.join(', ')}`
  const withFormulas = configs
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !isRaw(c) && Array.isArray(c.formulas) && c.formulas.length > 0 && c.sourceId)
    .filter(({ i }) =>
      changed(
        i,
        (old, now) =>
          JSON.stringify(old.formulas) === JSON.stringify(now.formulas) && old.sourceId === now.sourceId
      )
    )
    .map(({ c }) => String(c.sourceId))
  const notFormulaCapable = kindNotIn(withFormulas, ['metric', 'log', 'trace'])
  if (notFormulaCapable.length > 0)
    return `Tiles with formulas require a Metric, Log, or Trace source. The following source IDs are not formula-capable: ${notFormulaCapable.join(', ')}`

  const dashboards = [...new Set(configs.map(c => linkTarget(c, 'dashboard')).filter(id => id !== undefined))]
  const missingDashboards = dashboards.filter(id => !ctx.dashboardIds.has(id))
  if (missingDashboards.length > 0)
    return `Could not find the following onClick dashboard IDs: ${missingDashboards.join(', ')}`
  const searches = [...new Set(configs.map(c => linkTarget(c, 'search')).filter(id => id !== undefined))]
  const notSearchable = searches.filter(id => !['log', 'trace'].includes(sourceById.get(id)?.kind ?? ''))
  if (notSearchable.length > 0)
    return `The following onClick search source IDs are not log or trace sources: ${notSearchable.join(', ')}`
  return undefined
}

/** dashboardValidation.ts validateDashboardTileContainerRefs: each tile's containerId and tabId must resolve. */
function containerRefIssues(
  containers: NonNullable<DashboardBody['containers']>,
  tiles: DashboardBody['tiles']
): Issue[] {
  const byId = new Map(containers.map(c => [c.id, c]))
  const issues: Issue[] = []
  tiles.forEach((t, i) => {
    if (t.containerId !== undefined && !byId.has(t.containerId))
      issues.push({
        path: `tiles.${i}.containerId`,
        message: `Tile references unknown containerId "${t.containerId}"`
      })
    if (t.tabId === undefined) return
    if (t.containerId === undefined) {
      issues.push({ path: `tiles.${i}.tabId`, message: 'tabId requires containerId to be set' })
      return
    }
    const container = byId.get(t.containerId)
    if (container && !container.tabs?.some(tab => tab.id === t.tabId))
      issues.push({
        path: `tiles.${i}.tabId`,
        message: `Tile references unknown tabId "${t.tabId}" in container "${t.containerId}"`
      })
  })
  return issues
}

export { isValidObjectId }
