/**
 * `server-validation`: each dashboard the plan creates or updates is sent to the server's dry run
 * (`POST .../dashboards/validate`, which saves nothing), so a refusal that only the server knows shows in the
 * plan, at the manifest's line, before any request of the apply ran. One request per dashboard, paced like
 * every other. A server without the route is a warning, as the ClickHouse Terraform provider treats it
 * (`dashboard_resource.go` ValidateConfig): the dashboards are then checked by the server at apply only.
 */
import type { ObservabilityApi } from '../api/client.js'
import { ApiError } from '../api/errors.js'
import type { LiveDashboard } from '../api/schemas.js'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import { createBody, updateBody, type BodyOptions } from '../kinds/dashboard/bodies.js'
import type { DesiredDashboard } from '../kinds/dashboard/desired.js'
import type { DashboardFacts, PlannedChange, PlanSettings } from '../kinds/kind.js'
import { placeholderTokens } from '../kinds/references.js'
import type { Logger } from '../log.js'
import { formatPath, type PathSegment } from '../manifest/path.js'

const WRITES = new Set(['create', 'update', 'replace'])

export async function validateOnServer(
  api: ObservabilityApi,
  planned: readonly PlannedChange[],
  options: { settings: PlanSettings; dashboards: DashboardFacts; log: Logger }
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = []
  const bodyOptions: BodyOptions = {
    tag: options.settings.ownershipTag,
    mode: options.settings.mode,
    idOf: name => options.dashboards.desired.get(name)?.liveId
  }
  for (const pc of planned) {
    const { change } = pc
    if (!writesDashboard(pc)) continue
    const d = pc.desired!.value as DesiredDashboard
    if (namesWhatThisRunCreates(d)) {
      options.log.debug(`${change.address}: not validated on the server: it names what this run creates`)
      continue
    }
    const live = change.action === 'update' ? (pc.live as LiveDashboard | undefined) : undefined
    const body = dryRunBody(live ? updateBody(d, live, bodyOptions) : createBody(d, bodyOptions))
    let verdict
    try {
      verdict = await api.validateDashboard(body)
    } catch (e) {
      out.push(unavailable(e))
      // The route is absent or failing: the other dashboards would fare no better, and cost a request each.
      break
    }
    if (verdict.valid) continue
    const errors = verdict.errors ?? []
    if (errors.length === 0)
      out.push(refusal(d, '', 'the server reports this dashboard invalid without saying why'))
    for (const e of errors) out.push(refusal(d, e.path, e.message))
  }
  return out
}

/** The changes validateOnServer sends to the dry run, a request each: an apply sends them before its first write. */
export const sentToDryRun = (pc: PlannedChange): boolean =>
  writesDashboard(pc) && !namesWhatThisRunCreates(pc.desired!.value as DesiredDashboard)

const writesDashboard = ({ change, desired }: PlannedChange): boolean =>
  change.kind === 'Dashboard' && desired !== undefined && !change.deferred && WRITES.has(change.action)

/**
 * A body naming a source or connection this run creates has no id for it yet: the apply's write checks it. Those
 * names are in the tiles and the filters (a link-out to a dashboard not yet created is left out of the body).
 */
const namesWhatThisRunCreates = (d: DesiredDashboard): boolean =>
  placeholderTokens([d.tiles.map(t => t.body), d.filters]).length > 0

/**
 * The body as the dry run takes it: it checks a dashboard as a create does, whose schema refuses filter ids (TF
 * `dashboard_tile_ids.go` stripServerIDs); tile ids pass.
 */
function dryRunBody(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.filters)) return body
  const filters = (body.filters as Array<Record<string, unknown>>).map(({ id: _id, ...rest }) => rest)
  return { ...body, filters }
}

/**
 * A finding at the manifest's line: the server's path (`tiles.0.config.select.1`) names the request's fields,
 * whose tiles and filters are the manifest's, in its order; a field the manifest writes otherwise (a series) points
 * at the nearest one it has.
 */
function refusal(d: DesiredDashboard, serverPath: string, message: string): Diagnostic {
  const path: PathSegment[] = serverPath
    .split('.')
    .filter(p => p !== '')
    .map(p => (/^\d+$/.test(p) ? Number(p) : p))
  const field = path.length > 0 ? formatPath(path) : undefined
  return diagnostic('plan', 'error', `the server's validation refuses it: ${message}`, {
    ...d.located.doc.locate(path.length > 0 ? path : ['name']),
    ...(field ? { field } : {})
  })
}

function unavailable(e: unknown): Diagnostic {
  const absent = e instanceof ApiError && e.status === 404
  return diagnostic(
    'plan',
    'warning',
    absent
      ? 'dashboards were not validated on the server: it has no dashboards/validate route, so they are checked when the apply writes them (server-validation: false skips the attempt)'
      : `dashboards were not validated on the server (the apply still checks them): ${errorMessage(e)}`
  )
}
