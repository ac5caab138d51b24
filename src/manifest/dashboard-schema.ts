/** The Dashboard kind: its tiles (in either form), filters and containers, and what pairs it with a live one. */
import { z } from 'zod'
import { atLeast, between, dataSourceRef, apiVersion, text } from './schema-fields.js'
import { Series } from './series-schema.js'
import { AnyTileConfig } from './tile-config-schema.js'
import { userTags } from './user-tags.js'
import {
  DASHBOARD_FILTER_TYPES,
  LIMITS,
  METRIC_DATA_TYPES,
  QUERY_LANGUAGES,
  WHERE_LANGUAGES
} from './vocabulary.js'

export const Tile = z.strictObject({
  name: text(1024).describe(
    'Tiles are matched by name, which keeps their ids and alerts; a name may repeat only on tiles pinned with `id`.'
  ),
  id: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Pin this tile to the live tile of this id (export writes it where a name repeats): matched by it first, then by name.'
    ),
  x: between(0, LIMITS.gridColumns - 1).describe('Column of the left edge, 0-23 (the grid is 24 wide).'),
  y: atLeast(0).describe('Row of the top edge, from 0.'),
  w: between(1, LIMITS.gridColumns).describe('Width in columns, 1-24; x + w is at most 24.'),
  h: atLeast(1).describe('Height in rows, at least 1.'),
  asRatio: z.boolean().optional().describe('Series form only: show series[0] / series[1].'),
  series: z
    .array(Series)
    .min(1, { error: 'needs at least one series' })
    .optional()
    .describe("CONTRACT.md's tile form: a list of series of one type (or use `config`)."),
  config: AnyTileConfig.optional().describe(
    "The server's tile form, by displayType (or use `series`); `configType: sql` for a raw-SQL tile."
  ),
  container: z
    .string()
    .min(1)
    .optional()
    .describe("The dashboard's container (group) the tile is in, by title."),
  tab: z.string().min(1).optional().describe("The container's tab the tile is on, by title.")
})

/** common-utils DashboardFilterSchema (the API's sourceId by name): a filter at the top of the dashboard. */
export const DashboardFilter = z
  .strictObject({
    type: z.enum(DASHBOARD_FILTER_TYPES).optional().describe('QUERY_EXPRESSION (the default and only type).'),
    name: z.string().min(1, { error: 'must not be empty' }).describe('Its name on the dashboard.'),
    expression: z
      .string()
      .min(1, { error: 'must not be empty' })
      .describe('The expression whose values the filter offers, e.g. ServiceName.'),
    ...dataSourceRef,
    sourceMetricType: z
      .enum(METRIC_DATA_TYPES)
      .optional()
      .describe('For a metric source: the metric type the values come from.'),
    where: z.string().optional().describe('Narrows the values offered.'),
    whereLanguage: z.enum(WHERE_LANGUAGES).optional().describe('Language of `where`: lucene or sql.'),
    appliesToSources: z
      .array(z.string().min(1))
      .optional()
      .describe('The data sources, by name, whose tiles the filter applies to (default: all).'),
    appliesToSourceIds: z
      .array(z.string().min(1))
      .optional()
      .describe('The same by id, when you do not want name resolution.'),
    isBroadcastEnabled: z
      .boolean()
      .optional()
      .describe('Apply the selected value to matching tiles (default true; self-hosted only).'),
    isVariableEnabled: z
      .boolean()
      .optional()
      .describe('Offer the value to tile queries as $variableName (default false; self-hosted only).'),
    variableName: z
      .string()
      .max(LIMITS.variableName, { error: `must be at most ${LIMITS.variableName} characters` })
      .regex(/^[a-zA-Z][a-zA-Z0-9_]*$/, {
        error: 'must start with a letter and hold only letters, digits and _'
      })
      .optional()
      .describe('The variable name (default: derived from `name`); needs isVariableEnabled.')
  })
  .describe('A dashboard filter.')

/** common-utils DashboardContainerSchema without its id: tiles refer to a container and its tabs by title. */
export const Container = z
  .strictObject({
    title: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(LIMITS.containerTitle, { error: `must be at most ${LIMITS.containerTitle} characters` })
      .describe('Its title, unique in the dashboard: tiles name it in `container`.'),
    collapsed: z.boolean().optional().describe('Shown collapsed (default false).'),
    collapsible: z.boolean().optional().describe('Can be collapsed.'),
    bordered: z.boolean().optional().describe('Drawn with a border.'),
    tabs: z
      .array(
        z
          .strictObject({
            title: z
              .string()
              .min(1, { error: 'must not be empty' })
              .max(LIMITS.containerTitle, { error: `must be at most ${LIMITS.containerTitle} characters` })
              .describe('Its title, unique in the container: tiles name it in `tab`.')
          })
          .describe('A tab.')
      )
      .max(LIMITS.containerTabs, { error: `at most ${LIMITS.containerTabs} tabs` })
      .optional()
      .describe('Tabs (two or more show a tab bar).')
  })
  .describe('A group of tiles, with optional tabs.')

export const Dashboard = z.strictObject({
  apiVersion,
  kind: z.literal('Dashboard').describe('A dashboard: tiles, and the filters and layout around them.'),
  name: text(LIMITS.dashboardName).describe('Its name (1-1024 characters); how the plan finds it again.'),
  tags: userTags()
    .optional()
    .describe('Tags (at most 49 of at most 32 characters; the ownership tag is added).'),
  tiles: z
    .array(Tile)
    .max(LIMITS.tiles, { error: `at most ${LIMITS.tiles} tiles` })
    .optional()
    .describe('The tiles (at most 500), each placed on the 24-column grid.'),
  filters: z.array(DashboardFilter).optional().describe('Filters at the top of the dashboard.'),
  savedQuery: z.string().optional().describe('The query the dashboard opens with.'),
  savedQueryLanguage: z
    .enum(QUERY_LANGUAGES)
    .optional()
    .describe('Language of savedQuery: lucene (the default with a query), sql or promql (self-hosted only).'),
  savedFilterValues: z
    .array(
      z
        .strictObject({
          type: z.literal('sql').optional().describe('sql (the default and only type).'),
          condition: z
            .string()
            .max(LIMITS.expression, { error: `must be at most ${LIMITS.expression} characters` })
            .describe("A SQL condition, e.g. ServiceName IN ('cart')")
        })
        .describe('A saved filter value.')
    )
    .optional()
    .describe('Filter values the dashboard opens with.'),
  containers: z
    .array(Container)
    .max(LIMITS.containers, { error: `at most ${LIMITS.containers} containers` })
    .optional()
    .describe('Groups of tiles (collapsible sections, with optional tabs).'),
  id: z.string().min(1).optional().describe('Pin this manifest to an existing dashboard id (adopts it).'),
  adopt: z.boolean().optional().describe('Take ownership of an existing dashboard of the same name.'),
  renamedFrom: text(LIMITS.dashboardName)
    .optional()
    .describe('The previous name, so a rename keeps the dashboard id.')
})
