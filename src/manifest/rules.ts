/**
 * Rules that the schemas cannot express: fields that must agree inside a tile, alerts that must point at
 * a tile that exists and can carry them, names that must be unique across files. Several of them exist
 * because the server would silently rewrite the value (FACTS.md), which would show as a change on every
 * plan forever.
 *
 * One file per kind of rule, and this module the entry that names them all: `dashboard-rules.ts` (and the
 * tiles' own, `tile-rules.ts`), `alert-rules.ts`, `service-rules.ts`, `query-rules.ts` (the Lucene of every
 * filter), and `cross-document-rules.ts` (what spans documents and files). Each reports through
 * `rule-report.ts`.
 */
import type { ParsedDocument } from './yaml.js'

export { checkAlert } from './alert-rules.js'
export {
  alertView,
  checkAcrossDocuments,
  dashboardView,
  type AlertView,
  type DashboardView
} from './cross-document-rules.js'
export {
  checkDashboard,
  OWNERSHIP_TAG_PREFIX,
  PREVIEW_TAG_PREFIXES,
  variableNameOf
} from './dashboard-rules.js'
export { checkFilters } from './query-rules.js'
export { checkServiceSettings, isIpOrCidr, SERVICE_NAME_PATTERN } from './service-rules.js'
export { tileDisplayType } from './tile-rules.js'

export interface Located<T> {
  spec: T
  doc: ParsedDocument
}
