/**
 * `obsdeploy export --out observability/`: onboarding in one command. Reads every kind from the live API
 * (list calls only) and writes one manifest file per dashboard, with its alerts, and one per kind for
 * connections, sources, webhooks and saved searches (with their alerts).
 */
import path from 'node:path'
import picomatch from 'picomatch'
import { createApi } from '../api/client.js'
import type { Config } from '../config/types.js'
import { ownershipTag } from '../kinds/ownership.js'
import { isRegistryDashboard, Registry } from '../kinds/registry.js'
import { printable, type Logger } from '../log.js'
import { readLiveState } from '../live/read.js'
import { errorMessage } from '../error-message.js'
import { exportManifests } from './manifests.js'
import { outFolder, writeExported } from './write.js'

const EXPORTED_KINDS = ['Connection', 'Source', 'Webhook', 'SavedSearch', 'Dashboard', 'TeamMember'] as const

/** Where the command writes: the CLI passes its own io. */
export interface ExportIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
}

export interface ExportOptions {
  out?: string
  /** Keep dashboards and saved searches with any of these tags (the kinds without tags are left out). */
  tags: string[]
  /** Keep resources whose name matches any of these globs. */
  names: string[]
  /** Keep only resources this stack owns. */
  owned: boolean
  /** Keep only these kinds (none: every kind). */
  kinds?: string[]
  /** Replace files in the folder that export did not write, or that were edited since (write.ts). */
  force?: boolean
  io: ExportIo
  log: Logger
}

export async function exportCommand(config: Config<'export'>, options: ExportOptions): Promise<number> {
  if (!options.out) {
    options.io.stderr('obsdeploy export: --out <folder> is required\n')
    return 2
  }
  const unknown = (options.kinds ?? []).filter(
    k => !EXPORTED_KINDS.includes(k as (typeof EXPORTED_KINDS)[number])
  )
  if (unknown.length > 0) {
    options.io.stderr(`obsdeploy export: --kind ${unknown.join(', ')}: one of ${EXPORTED_KINDS.join(', ')}\n`)
    return 2
  }
  const wanted = (kind: (typeof EXPORTED_KINDS)[number]) =>
    (options.kinds ?? []).length === 0 || options.kinds!.includes(kind)
  // The folder is checked before anything is read: a wrong --out costs no request.
  const folder = await outFolder(options.io.cwd, options.out)
  if ('problem' in folder) {
    options.io.stderr(`obsdeploy export: ${folder.problem}\n`)
    return 2
  }
  const api = createApi(config, { log: options.log })
  try {
    const live = await readLiveState(api, { service: false })
    const tag = ownershipTag(config.stack)
    const registry = Registry.read(live.Dashboard, config.stack, tag)
    const nameMatch = options.names.length > 0 ? picomatch(options.names) : undefined
    const tagged = (tags: readonly string[]) =>
      (options.tags.length === 0 || tags.some(t => options.tags.includes(t))) &&
      (!options.owned || tags.includes(tag))
    const named = (name: string) => !nameMatch || nameMatch(name)
    // The kinds without tags: none when selecting by tag; owned ones are the registry's.
    // A record is named and owned by its name and id; a person by the email (--name matches it).
    const untagged = <T>(
      kind: 'Connection' | 'Source' | 'Webhook' | 'TeamMember',
      list: T[] | undefined,
      key: (r: T) => { name: string; id: string }
    ) =>
      list?.filter(r => {
        const { name, id } = key(r)
        return (
          wanted(kind) &&
          options.tags.length === 0 &&
          named(name) &&
          (!options.owned || registry.owns(kind, id))
        )
      })
    const asRecord = (r: { id: string; name: string }) => r
    const dashboards = live.Dashboard.filter(
      d => wanted('Dashboard') && !isRegistryDashboard(d) && tagged(d.tags) && named(d.name)
    )
    const files = exportManifests({
      dashboards,
      allDashboards: live.Dashboard,
      alerts: live.Alert,
      sources: untagged('Source', live.Source, asRecord) ?? [],
      webhooks: untagged('Webhook', live.Webhook, asRecord),
      connections: untagged('Connection', live.Connection, asRecord),
      savedSearches: live.SavedSearch?.filter(s => wanted('SavedSearch') && tagged(s.tags) && named(s.name)),
      teamMembers: untagged('TeamMember', live.TeamMember, m => ({ name: m.email, id: m.email })),
      ownershipTag: tag,
      registry,
      mode: config.mode,
      all: {
        sources: live.Source,
        webhooks: live.Webhook,
        connections: live.Connection,
        savedSearches: live.SavedSearch
      }
    })
    const kept: string[] = []
    for (const f of files) {
      // `what` names the server's resource: printable, as is the file named after it.
      const shown = printable(path.join(options.out, f.name))
      const outcome = await writeExported(folder.dir, f.name, f.text, Boolean(options.force))
      if (outcome.status === 'kept') {
        kept.push(f.name)
        options.io.stderr(`obsdeploy export: ${shown} ${outcome.why}\n`)
        continue
      }
      const leftOut = f.alertsLeftOut ? ` (${f.alertsLeftOut} left out: see the file's note)` : ''
      const same = outcome.status === 'unchanged' ? ' (unchanged)' : ''
      options.io.stdout(`${shown}: ${printable(f.what)}, ${f.alerts} alert(s)${leftOut}${same}\n`)
    }
    const exported = files.filter(f => f.kind === 'Dashboard').length
    const total = live.Dashboard.filter(d => !isRegistryDashboard(d)).length
    const notWritten = kept.length > 0 ? `; ${kept.length} file(s) not written (see above)` : ''
    options.io.stderr(
      `exported ${exported} of ${total} dashboard(s), and ${files.length - exported} file(s) of other kinds, in ${api.stats.requests} request(s)${notWritten}\n`
    )
    return kept.length > 0 ? 1 : 0
  } catch (e) {
    options.io.stderr(`obsdeploy export: ${printable(errorMessage(e))}\n`)
    return 1
  } finally {
    await api.close()
  }
}
