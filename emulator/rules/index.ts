/**
 * The request rules of the real servers, one file per resource: what a body must look like (zod, v3 API, so the
 * messages are the server's) and what the handler checks after that (references to sources, tiles, webhooks). The
 * routes call these; tests may too. A new resource (webhooks, sources, connections, saved searches) is a new file
 * here with a `parse…Body` function and, where the server looks things up, a `…HandlerProblem` function.
 */
export type { Parsed, RuleMode } from './common.js'
export { parseAlertBody, alertHandlerProblem, type AlertBody, type AlertContext } from './alert.js'
export { parseChartQuery, type ChartQuery } from './charts.js'
export { parseDashboardBody, type DashboardBody } from './dashboard.js'
export { dashboardHandlerProblem, type DashboardContext } from './dashboard-handler.js'
export { parseServicePatch, type ServicePatch } from './service.js'
export { parseConnectionBody, type ConnectionBody } from './connection.js'
export { parseSavedSearchBody, savedSearchHandlerProblem, type SavedSearchBody } from './saved-search.js'
export { externalGranularities, parseSourceBody, sourceHandlerProblem, type SourceBody } from './source.js'
export { parseWebhookBody, webhookUrlProblem, type WebhookBody } from './webhook.js'
export { parseRoleBody, type RoleCreateBody, type RolePermissionBody, type RoleUpdateBody } from './role.js'
