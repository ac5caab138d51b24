/**
 * `obsdeploy export --out observability/`: onboarding in one command. Reads every kind from the live API
 * (list calls only), selects what the options ask for, and writes the files each kind's records go to
 * (manifests.ts): one per dashboard, with its alerts, and one per kind for the others.
 */
import path from 'node:path'
import picomatch from 'picomatch'
import { createApi } from '../api/client.js'
import type { LiveDashboard } from '../api/schemas.js'
import type { Config } from '../config/types.js'
import { KINDS, type AnyKind } from '../kinds/index.js'
import { listed, recordsOf, type LiveState } from '../kinds/kind.js'
import { ownershipTag } from '../kinds/ownership.js'
import { isRegistryKind, Registry, REGISTRY_HOME } from '../kinds/registry.js'
import { printable, type Logger } from '../log.js'
import { readLiveState } from '../live/read.js'
import { errorMessage } from '../error-message.js'
import { allOf, exportManifests, writtenKinds, type ExportedFile, type ExportInput } from './manifests.js'
import { outFolder, writeExported } from './write.js'

/** The kinds export writes, in the order of the plan. */
const WRITTEN = writtenKinds()

/** Where the command writes: the CLI passes its own io. */
export interface ExportIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
}

export interface ExportOptions {
  out?: string
  /** Keep the records of kinds with tags (dashboards, saved searches) with any of these tags; the others are left out. */
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
  const usage = usageProblem(options)
  if (usage !== undefined) {
    options.io.stderr(`obsdeploy export: ${usage}\n`)
    return 2
  }
  // The folder is checked before anything is read: a wrong --out costs no request.
  const folder = await outFolder(options.io.cwd, options.out!)
  if ('problem' in folder) {
    options.io.stderr(`obsdeploy export: ${folder.problem}\n`)
    return 2
  }
  const api = createApi(config, { log: options.log })
  try {
    const live = await readLiveState(api, { service: false })
    const files = exportManifests(selection(live, config, options))
    const kept: string[] = []
    for (const f of files) {
      // `what` names the server's resource: printable, as is the file named after it.
      const shown = printable(path.join(options.out!, f.name))
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
    const notWritten = kept.length > 0 ? `; ${kept.length} file(s) not written (see above)` : ''
    options.io.stderr(`exported ${counted(files, live)}, in ${api.stats.requests} request(s)${notWritten}\n`)
    return kept.length > 0 ? 1 : 0
  } catch (e) {
    options.io.stderr(`obsdeploy export: ${printable(errorMessage(e))}\n`)
    return 1
  } finally {
    await api.close()
  }
}

/** What is wrong with the options, before anything is done. */
function usageProblem(options: ExportOptions): string | undefined {
  if (!options.out) return '--out <folder> is required'
  const unknown = (options.kinds ?? []).filter(k => !WRITTEN.some(w => w.kind.kind === k))
  if (unknown.length > 0)
    return `--kind ${unknown.join(', ')}: one of ${WRITTEN.map(w => w.kind.kind).join(', ')}`
  return undefined
}

/**
 * The export's input: every live record of each kind, and those to write. A kind with tags is selected by them
 * (`--tag`; `--owned`: the stack's tag); one without is left out when selecting by tag, and is owned as the
 * stack's registry says. `--name` matches a record's name (a person's email).
 */
function selection(live: LiveState, config: Config<'export'>, options: ExportOptions): ExportInput {
  const tag = ownershipTag(config.stack)
  const registry = Registry.read(listed(live, REGISTRY_HOME) as LiveDashboard[], config.stack, tag)
  const nameMatch = options.names.length > 0 ? picomatch(options.names) : undefined
  const wanted = (kind: AnyKind) => (options.kinds ?? []).length === 0 || options.kinds!.includes(kind.kind)
  const owns = (kind: AnyKind, r: unknown) =>
    isRegistryKind(kind.kind) && registry.owns(kind.kind, kind.registryKey?.(r) ?? kind.liveId(r) ?? '')
  const chosen = ({ kind, writes }: (typeof WRITTEN)[number], r: unknown): boolean => {
    if (writes.skips?.(r) || (nameMatch && !nameMatch(kind.liveName(r)))) return false
    const tags = writes.tags?.(r)
    if (tags === undefined) return options.tags.length === 0 && (!options.owned || owns(kind, r))
    const tagged = options.tags.length === 0 || tags.some(t => options.tags.includes(t))
    return tagged && (!options.owned || tags.includes(tag))
  }
  const input: ExportInput = { ownershipTag: tag, registry, mode: config.mode }
  // Every live record, for names; a kind export never writes (alerts) is read to go with what carries it.
  for (const kind of KINDS) if (kind.exports) input[allOf(kind.exports.list)] = recordsOf(live, kind.kind)
  for (const w of WRITTEN)
    input[w.list] = wanted(w.kind) ? recordsOf(live, w.kind.kind)?.filter(r => chosen(w, r)) : []
  return input
}

/** `5 of 7 dashboard(s), and 3 file(s) of other kinds`: the kinds written one file each, counted. */
function counted(files: readonly ExportedFile[], live: LiveState): string {
  const each = WRITTEN.filter(w => 'each' in w.writes.to)
  const parts = each.map(({ kind, writes }) => {
    const all = (recordsOf(live, kind.kind) ?? []).filter(r => !writes.skips?.(r))
    return `${files.filter(f => f.kind === kind.kind).length} of ${all.length} ${kind.nouns[0]}(s)`
  })
  const others = files.filter(f => !each.some(w => w.kind.kind === f.kind)).length
  return `${parts.join(', ')}, and ${others} file(s) of other kinds`
}
