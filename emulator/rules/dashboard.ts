/**
 * Dashboard request bodies (POST /dashboards, PUT /dashboards/{id}, POST /dashboards/validate) as the real server
 * checks them, rule by rule from HyperDX 2.36, one file per seam of the server:
 * - this file: the body shape (packages/api/src/routers/external-api/v2/utils/dashboards.ts dashboardBodyBaseShape,
 *   buildDashboardBodySchema) and its filters (common-utils types.ts DashboardFilterSchema);
 * - dashboard-tiles.ts: the tile, series, config and select-item schemas and their refinements (utils/zod.ts);
 * - dashboard-validation.ts: containers and filters past their schemas (common-utils dashboardValidation.ts);
 * - dashboard-handler.ts: what the handler checks after the body passed (validateDashboardTiles).
 * Managed mode adds what the cloud's OpenAPI document (ClickStack* schemas) leaves out or requires on top.
 * The definitions are ours; the limits, value sets, order of checks and messages are the server's.
 */
import {
  addIssue,
  dashboardContainer,
  objectId,
  oneOf,
  parseWith,
  tags,
  z,
  type Parsed,
  type RuleMode
} from './common.js'
import { text, tileSchemas, tileVocabulary, type TileVocabulary } from './dashboard-tiles.js'
import { checkContainers, checkFilterIdsUnique, checkFilters } from './dashboard-validation.js'
import { FILTER_WHERE_LANGUAGES, LIMITS } from './vocabulary.js'

type Shape = z.ZodRawShape
type Json = Record<string, unknown>

function build(mode: RuleMode) {
  const v = tileVocabulary(mode)
  const { tiles, tileWithId } = tileSchemas(v)
  const filterWithId = filterSchema(v)
  const filterWithoutId = filterWithId.omit({ id: true })
  const body = (filter: z.ZodTypeAny) =>
    z
      .object({
        name: text(1024),
        tiles,
        tags,
        savedQuery: z.string().nullable().optional(),
        savedQueryLanguage: v.language.nullable(),
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
        if (v.managed) checkFilterIdsUnique((data.filters ?? []) as Json[], ctx)
      })
  return { create: body(filterWithoutId), update: body(filterWithId), tileWithId }
}

/** A dashboard filter with its id (types.ts DashboardFilterSchema; managed: ClickStackFilter), strict. */
function filterSchema(v: TileVocabulary) {
  const filterShape: Shape = {
    id: z.string(),
    type: z.enum(['QUERY_EXPRESSION']),
    name: z.string().min(1),
    expression: z.string().min(1),
    sourceMetricType: v.metricType.optional(),
    where: z.string().optional(),
    whereLanguage: oneOf(FILTER_WHERE_LANGUAGES).optional(),
    appliesToSourceIds: z.array(z.string().min(1)).optional()
  }
  // The managed document's filters (ClickStackFilter, …Input) have no variable or broadcast settings; filters are
  // strict, so those keys are refused there.
  if (!v.managed) {
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
  if (v.managed) filterShape.id = z.string().regex(/^[0-9a-fA-F]{24}$/, 'Invalid ObjectId')
  return z.object(filterShape).strict()
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
