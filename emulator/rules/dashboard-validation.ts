/**
 * A dashboard's containers and filters as HyperDX 2.36 checks them past their schemas
 * (packages/common-utils/src/dashboardValidation.ts): unique ids, tiles that point at containers and tabs that exist,
 * variable names, filter modes and the fields each mode allows. The v2 body (rules/dashboard.ts) runs them all; the web
 * UI's (rules/ui-dashboard.ts) the variable names and modes. The messages are the server's unless a comment says not.
 */
import type { Issue } from '../errors.js'
import { addIssue, z } from './common.js'

type Json = Record<string, unknown>

/** The managed cloud refuses an update whose filters share an id (the wording is the emulator's). */
export function checkFilterIdsUnique(filters: Json[], ctx: z.RefinementCtx): void {
  const seen = new Set<unknown>()
  filters.forEach((f, i) => {
    if (f.id === undefined) return
    if (seen.has(f.id)) addIssue(ctx, `Filter IDs must be unique: "${String(f.id)}"`, ['filters', i, 'id'])
    seen.add(f.id)
  })
}

/** dashboardValidation.ts validateDashboardContainersStructure: unique container ids, unique tab ids per container. */
export function checkContainers(
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
export function checkFilters(filters: Json[], ctx: z.RefinementCtx): void {
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

/** dashboardValidation.ts validateDashboardTileContainerRefs: each tile's containerId and tabId must resolve. */
export function containerRefIssues(
  containers: ReadonlyArray<{ id: string; tabs?: Array<{ id: string }> }>,
  tiles: ReadonlyArray<{ containerId?: string; tabId?: string }>
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
