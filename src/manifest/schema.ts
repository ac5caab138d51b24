/**
 * The manifest language as zod schemas: structure, types and value sets. Rules that span fields or
 * documents (a tile's series must agree, an alert's tile must exist) live in `rules.ts`, so these
 * schemas stay plain structure and export cleanly to JSON Schema for editors.
 *
 * Each kind's schema is in its own file (`dashboard-schema.ts` with the tiles' `series-schema.ts` and
 * `tile-config-schema.ts`, `alert-schema.ts`, `service-settings-schema.ts`, `resources-schema.ts`), what several
 * share in `schema-fields.ts`; this module names them all, and says which schema validates a manifest of a kind.
 */
import { z } from 'zod'
import { Alert, selfHostedAlert, type AlertChannel } from './alert-schema.js'
import { Container, Dashboard, DashboardFilter, Tile } from './dashboard-schema.js'
import { once } from './once.js'
import { resourceSchemas } from './resources-schema.js'
import { roleSchema } from './role-schema.js'
import type { Series } from './series-schema.js'
import { serviceSettings } from './service-settings-schema.js'
import type {
  AnyTileConfig,
  OnClick,
  RawSqlTileConfig,
  SelectItem,
  TileConfig
} from './tile-config-schema.js'

export { Alert, AlertChannel, EmailChannel, WebhookChannel } from './alert-schema.js'
export { Container, Dashboard, DashboardFilter, Tile } from './dashboard-schema.js'
export { NumberFormat } from './schema-fields.js'
export {
  MarkdownSeries,
  NumberSeries,
  SearchSeries,
  Series,
  TableSeries,
  TimeSeries
} from './series-schema.js'
export {
  AnyTileConfig,
  ColorRule,
  Formula,
  HeatmapItem,
  LinkTarget,
  OnClick,
  RawSqlTileConfig,
  SelectItem,
  TileConfig
} from './tile-config-schema.js'

/**
 * The schema of each kind, built on first use: a run builds the schemas of the kinds its manifests hold
 * (dashboards' and alerts' are built with this module, since nearly every repository has them).
 */
const KIND_SCHEMAS = {
  Connection: () => resourceSchemas().Connection,
  Source: () => resourceSchemas().Source,
  SavedSearch: () => resourceSchemas().SavedSearch,
  Webhook: () => resourceSchemas().Webhook,
  TeamMember: () => resourceSchemas().TeamMember,
  Role: roleSchema,
  Dashboard: () => Dashboard,
  Alert: () => Alert,
  ServiceSettings: serviceSettings
} as const

export type KindSchema = ReturnType<(typeof KIND_SCHEMAS)[keyof typeof KIND_SCHEMAS]>

/** The schema a manifest of `kind` is validated with (self-hosted alerts take webhook channels only). */
export function kindSchema(kind: keyof typeof KIND_SCHEMAS, mode: 'self-hosted' | 'managed'): KindSchema {
  const schema = kind === 'Alert' && mode === 'self-hosted' ? selfHostedAlert() : KIND_SCHEMAS[kind]()
  // A self-hosted alert parses to an Alert with fewer channel types.
  return schema as KindSchema
}

export type DashboardSpec = z.infer<typeof Dashboard>
export type TileSpec = z.infer<typeof Tile>
export type SeriesSpec = z.infer<typeof Series>
export type TileConfigSpec = z.infer<typeof TileConfig>
export type RawSqlTileConfigSpec = z.infer<typeof RawSqlTileConfig>
export type AnyTileConfigSpec = z.infer<typeof AnyTileConfig>
export type AlertChannelSpec = z.infer<typeof AlertChannel>
export type SelectItemSpec = z.infer<typeof SelectItem>
export type OnClickSpec = z.infer<typeof OnClick>
export type DashboardFilterSpec = z.infer<typeof DashboardFilter>
export type ContainerSpec = z.infer<typeof Container>
export type AlertSpec = z.infer<typeof Alert>
export type ServiceSettingsSpec = z.infer<ReturnType<typeof serviceSettings>>

/** One schema for editors: any of the kinds, by `kind` (built when asked for: only `npm run schema` needs it). */
export const manifestSchema = once('Manifest schema', () =>
  z.discriminatedUnion('kind', [
    KIND_SCHEMAS.Connection(),
    KIND_SCHEMAS.Source(),
    KIND_SCHEMAS.SavedSearch(),
    KIND_SCHEMAS.Webhook(),
    Dashboard,
    Alert,
    serviceSettings(),
    KIND_SCHEMAS.TeamMember(),
    KIND_SCHEMAS.Role()
  ])
)
