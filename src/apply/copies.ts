/**
 * Copies an apply's creates may leave. Two ways a create makes two records of one name:
 * - a slow server commits a create after the client gave up on it (its response is lost), after the apply re-read
 *   and found nothing, so the apply created it again (kinds/create-once.ts);
 * - another apply of the same stack ran at the same time and created it too (the workflow's `concurrency:` setting
 *   prevents that; the server has no lock to offer).
 * After the operations, the apply re-reads each kind it created records of (one list call each) and looks, for
 * each record it created, for another of the same name that carries this stack's ownership tag and that the plan
 * did not read. A copy left by this run's own lost response, that nothing else uses yet, is deleted, and the
 * outcome says so; any other copy is reported as an error, naming both ids (the next plan deletes the copy with
 * prune, as "a copy").
 * The stack's registry dashboard (kinds/registry.ts) too: an apply that created it looks for another one of the
 * stack. It deletes none (the other apply may still be writing to its own); the error names them all, and the next
 * plan merges them into the kept one and deletes the others with prune.
 */
import type { ObservabilityApi } from '../api/client.js'
import { KINDS_BY_NAME, type AnyKind } from '../kinds/index.js'
import { recordsOf, type CopyCheck, type LiveState, type PlanSettings } from '../kinds/kind.js'
import { isRegistryDashboard, REGISTRY_HOME, type RegistryWriter } from '../kinds/registry.js'
import type { Change, ResourceKind } from '../plan/types.js'
import type { ApplyOutcome } from './types.js'

type Live = Record<string, unknown>

const tagged = (r: Live, tag: string) => Array.isArray(r.tags) && r.tags.includes(tag)

export interface CopiesInput {
  api: ObservabilityApi
  kinds: ReadonlyMap<ResourceKind, AnyKind>
  outcomes: readonly ApplyOutcome[]
  /** The live state the plan read: what existed before this apply. */
  before: LiveState
  settings: Pick<PlanSettings, 'ownershipTag'>
  /** `<what>:<name>` of the creates whose response was lost. */
  lostResponses: ReadonlySet<string>
  /** The apply's registry writer: whether it created the stack's registry dashboard. */
  registry?: Pick<RegistryWriter, 'made'>
}

export interface CopiesFound {
  /** Copies of this run's own lost responses, deleted. */
  removed: Array<{ outcome: ApplyOutcome; id: string }>
  /** Copies left: another apply's, or one that could not be told apart or deleted. */
  left: Array<{ outcome: ApplyOutcome; ids: string[]; why: string }>
  /** The ids of the stack's registry dashboards (lowest first), when this run created one and there are more. */
  registries?: { ids: string[]; why: string }
}

export async function findCopies(input: CopiesInput): Promise<CopiesFound> {
  const found: CopiesFound = { removed: [], left: [] }
  // One list call per kind, shared by the registry's look below.
  const lists = new Map<ResourceKind, Promise<Live[]>>()
  const list = (kind: ResourceKind): Promise<Live[]> => {
    let read = lists.get(kind)
    if (!read) {
      read = input.kinds
        .get(kind)!
        .live!.read(input.api, { service: false })
        .then(r => (r ?? []) as Live[])
      lists.set(kind, read)
    }
    return read
  }
  const created = input.outcomes.filter(
    o => o.action === 'create' && (o.status === 'applied' || o.status === 'adopted') && o.id !== undefined
  )
  const kinds = [...new Set(created.map(o => o.kind))].filter(
    k => input.kinds.get(k)?.copies && input.kinds.get(k)?.live
  )
  for (const kindName of kinds)
    await findCopiesOfKind(
      input,
      created.filter(o => o.kind === kindName),
      kindName,
      await list(kindName),
      found
    )
  const registries = await findRegistryCopies(input, list)
  if (registries) found.registries = registries
  return found
}

/** The copies of one kind's creates, given its list read now: this run's own deleted, the others added to `left`. */
async function findCopiesOfKind(
  input: CopiesInput,
  created: readonly ApplyOutcome[],
  kindName: ResourceKind,
  now: Live[],
  found: CopiesFound
): Promise<void> {
  const { what, isCopy, remove, inUse: usedBy } = input.kinds.get(kindName)!.copies as CopyCheck<Live>
  const before = new Set(
    ((recordsOf(input.before, kindName) as Live[] | undefined) ?? []).map(r => String(r.id))
  )
  // What uses a copy (alerts on a dashboard) is read only when a copy of this run's own could be deleted, which is
  // rare: most applies find none.
  let used: Promise<(id: string) => boolean> | undefined
  const inUse = async (id: string): Promise<boolean> =>
    usedBy !== undefined && (await (used ??= usedBy(input.api)))(id)
  for (const outcome of created) {
    const made = now.find(r => String(r.id) === outcome.id)
    if (!made) continue
    const copies = now.filter(
      r =>
        String(r.id) !== outcome.id &&
        !before.has(String(r.id)) &&
        isCopy(r, made, input.settings.ownershipTag)
    )
    if (copies.length === 0) continue
    const ours = input.lostResponses.has(`${what}:${outcome.name}`)
    const kept: string[] = []
    for (const copy of copies) {
      const id = String(copy.id)
      if (!ours || (await inUse(id))) {
        kept.push(id)
        continue
      }
      try {
        await remove(input.api, id)
        found.removed.push({ outcome, id })
      } catch {
        kept.push(id)
      }
    }
    if (kept.length > 0)
      found.left.push({
        outcome,
        ids: kept,
        why: ours
          ? 'a create whose response was lost and that committed late, or another apply of this stack at the same time'
          : 'another apply of this stack ran at the same time'
      })
  }
}

/** The stack's registry dashboards, when this run created one and finds more than one now. */
async function findRegistryCopies(
  input: CopiesInput,
  list: (kind: ResourceKind) => Promise<Live[]>
): Promise<CopiesFound['registries']> {
  const made = input.registry?.made
  if (!made || !input.kinds.get(REGISTRY_HOME)?.live) return undefined
  const tag = input.settings.ownershipTag
  const ids = (await list(REGISTRY_HOME))
    .filter(d => isRegistryDashboard(d as { tags: string[] }) && tagged(d, tag))
    .map(d => String(d.id))
    .sort((a, b) => (a < b ? -1 : 1))
  if (ids.length <= 1) return undefined
  return {
    ids,
    why:
      made === 'lost'
        ? 'a create of it whose response was lost and that committed late, or another apply of this stack at the same time'
        : 'another apply of this stack created one at the same time'
  }
}

/** The lists findCopies reads again at an apply's end when `changes` are applied: one per kind it creates records of. */
export function copiesRereads(
  changes: ReadonlyArray<Pick<Change, 'kind' | 'action'>>,
  kinds: ReadonlyMap<ResourceKind, AnyKind> = KINDS_BY_NAME
): number {
  return new Set(changes.filter(c => c.action === 'create' && kinds.get(c.kind)?.copies).map(c => c.kind))
    .size
}
