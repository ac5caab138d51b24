/**
 * Which live dashboard each manifest means. Identity: an `id:` pin, then this stack's own dashboard of
 * the same name, then the one named in `renamedFrom`, then (only with `adopt: true`) an unowned one of
 * the same name. A name taken by a dashboard this stack does not own is a plan error, never overwritten,
 * unless another stack of the same repository owns it (the `stacks` layout): then each keeps its own.
 * Nothing is paired by guesswork: a dashboard that looks renamed only gets a note.
 */
import type { LiveDashboard } from '../../api/schemas.js'
import { diagnostic } from '../../diagnostics.js'
import { formatPath, type PathSegment } from '../../manifest/path.js'
import type { Desired, Pairing, PlanContext } from '../kind.js'
import { isOwnershipTag } from '../ownership.js'
import { extraRegistryWhy, isRegistryDashboard } from '../registry.js'
import type { DesiredDashboard } from './desired.js'
import { settleDashboardLinks } from './links.js'

export function pairDashboards(
  desired: Desired<DesiredDashboard>[],
  ctx: PlanContext
): Pairing<DesiredDashboard, LiveDashboard> {
  // A registry dashboard (registry.ts) is bookkeeping, not a dashboard any manifest manages.
  const all = ctx.live.Dashboard.filter(d => !isRegistryDashboard(d)).sort((a, b) => a.id.localeCompare(b.id))
  const owned = all.filter(d => d.tags.includes(ctx.settings.ownershipTag))
  const pairing = new DashboardPairing(ctx, all, owned)
  // 1. Pinned ids, all of them first: a pin wins over a name match, whatever the file order.
  for (const d of desired) if (d.value.spec.id !== undefined) pairing.pairPinned(d, d.value.spec.id)
  // 2. This stack's dashboard of the same name.
  const pending: Desired<DesiredDashboard>[] = []
  for (const d of desired) if (d.value.spec.id === undefined && !pairing.pairOwned(d)) pending.push(d)
  // 3. renamedFrom; 4. adopt; otherwise create, unless the name is taken by a dashboard we do not own.
  for (const d of pending) if (!pairing.pairRenamed(d)) pairing.pairUnowned(d)
  const result: Pairing<DesiredDashboard, LiveDashboard> = {
    pairs: pairing.pairs,
    orphans: owned.filter(d => !pairing.isTaken(d))
  }
  settleDashboardLinks(result, ctx)
  hintRenames(result)
  // The stack's extra registry dashboards (registry.ts) go like any orphan: named in the plan, deleted with prune.
  const { extras, dashboard: kept } = ctx.registry
  if (kept && extras.length > 0) {
    result.orphans.push(...extras)
    result.why = new Map(extras.map(e => [e, extraRegistryWhy(kept)]))
  }
  return result
}

/** One run of pairDashboards: the live dashboards taken so far and the pairs made. */
class DashboardPairing {
  readonly pairs: Pairing<DesiredDashboard, LiveDashboard>['pairs'] = []
  private readonly used = new Set<string>()
  private readonly tag: string
  private readonly siblings: Set<string>
  private readonly byId: Map<string, LiveDashboard>
  // Indexed by name: pairing stays linear in the number of dashboards.
  private readonly ownedByName: Map<string, LiveDashboard[]>
  private readonly allByName: Map<string, LiveDashboard[]>

  constructor(
    private readonly ctx: PlanContext,
    all: LiveDashboard[],
    owned: LiveDashboard[]
  ) {
    this.tag = ctx.settings.ownershipTag
    this.siblings = new Set(ctx.settings.siblingTags)
    this.byId = new Map(all.map(d => [d.id, d]))
    this.ownedByName = byName(owned)
    this.allByName = byName(all)
  }

  isTaken(live: LiveDashboard): boolean {
    return this.used.has(live.id)
  }

  pairPinned(d: Desired<DesiredDashboard>, pin: string): void {
    const live = this.byId.get(pin)
    if (!live) this.planError(d, ['id'], `no dashboard with id "${pin}" exists`)
    else if (this.used.has(pin))
      this.planError(d, ['id'], `dashboard id "${pin}" is already matched by another manifest`)
    else {
      const notes = live.tags.includes(this.tag) ? [] : [adoptionNote(live, this.tag)]
      this.pairs.push({ desired: d, live: this.take(live), notes })
    }
  }

  /** Whether this stack has a dashboard of the manifest's name (now paired). */
  pairOwned(d: Desired<DesiredDashboard>): boolean {
    const mine = this.firstUnused(this.ownedByName, d.name)
    if (mine) this.pairs.push({ desired: d, live: this.take(mine) })
    return mine !== undefined
  }

  /** Whether this stack has the dashboard the manifest's `renamedFrom` names (now paired). */
  pairRenamed(d: Desired<DesiredDashboard>): boolean {
    const from = d.value.spec.renamedFrom
    const previous = from !== undefined ? this.firstUnused(this.ownedByName, from) : undefined
    if (previous)
      this.pairs.push({
        desired: d,
        live: this.take(previous),
        notes: [`renamed from "${from}": keeps its id, its tile ids and its alerts`]
      })
    return previous !== undefined
  }

  /** A manifest no dashboard of this stack matches: a create, an adoption, or a plan error when the name is taken. */
  pairUnowned(d: Desired<DesiredDashboard>): void {
    const { tag, ctx } = this
    const sameName = (this.allByName.get(d.name) ?? []).filter(
      l => !this.used.has(l.id) && !l.tags.includes(tag)
    )
    const isSibling = (l: LiveDashboard) => l.tags.some(t => this.siblings.has(t))
    const others = sameName.filter(l => !isSibling(l))
    if (others.length === 0) {
      const sibling = sameName.find(isSibling)
      this.pairs.push(
        sibling ? { desired: d, notes: [siblingNote(sibling, d.value.spec.adopt)] } : { desired: d }
      )
    } else if (d.value.spec.adopt && others.length === 1) {
      this.pairs.push({ desired: d, live: this.take(others[0]!), notes: [adoptionNote(others[0]!, tag)] })
    } else if (d.value.spec.adopt) {
      this.planError(
        d,
        ['adopt'],
        `${others.length} dashboards are named "${d.name}" (ids ${others.map(o => o.id).join(', ')}); pin the one to adopt with \`id:\``
      )
    } else {
      const other = others[0]!
      const ownerTag = other.tags.find(isOwnershipTag)
      this.planError(
        d,
        ['name'],
        `a dashboard named "${d.name}" already exists (id ${other.id}) and is not owned by stack "${ctx.settings.stack}"` +
          `${ownerTag ? ` (it carries ${ownerTag})` : ''}. It is not overwritten: to manage it from this manifest, add \`adopt: true\`` +
          ` (or \`id: ${other.id}\`); to keep both, give this manifest another name.`
      )
    }
  }

  private firstUnused(index: Map<string, LiveDashboard[]>, name: string): LiveDashboard | undefined {
    return index.get(name)?.find(d => !this.used.has(d.id))
  }

  private take(d: LiveDashboard): LiveDashboard {
    this.used.add(d.id)
    return d
  }

  private planError(d: Desired<DesiredDashboard>, path: PathSegment[], message: string): void {
    this.ctx.report(
      diagnostic('plan', 'error', message, { ...d.value.located.doc.locate(path), field: formatPath(path) })
    )
  }
}

function byName(list: LiveDashboard[]): Map<string, LiveDashboard[]> {
  const index = new Map<string, LiveDashboard[]>()
  for (const d of list) index.set(d.name, [...(index.get(d.name) ?? []), d])
  return index
}

/**
 * A rename without renamedFrom looks like a create plus an orphan with the same tiles. Renames are
 * explicit: it stays a create and a delete (with prune) under their own names, and the create says
 * how to make it a rename.
 */
function hintRenames(result: Pairing<DesiredDashboard, LiveDashboard>): void {
  const orphanKeys = new Map(result.orphans.map(o => [o, tileNameKey(o.tiles.map(t => t.name))]))
  const hinted = new Set<LiveDashboard>()
  for (const pair of result.pairs) {
    if (pair.live) continue
    const names = tileNameKey(pair.desired.value.spec.tiles?.map(t => t.name) ?? [])
    const twin = names ? result.orphans.find(o => !hinted.has(o) && orphanKeys.get(o) === names) : undefined
    if (!twin) continue
    hinted.add(twin)
    pair.notes = [
      `looks like a rename of "${twin.name}": add \`renamedFrom: ${JSON.stringify(twin.name)}\` to keep its id and alerts`
    ]
  }
}

const tileNameKey = (names: string[]): string => (names.length === 0 ? '' : JSON.stringify([...names].sort()))

/** A dashboard of another stack of this repository with the same name: each stack keeps its own. */
function siblingNote(live: LiveDashboard, adopt: boolean | undefined): string {
  const owner = live.tags.find(isOwnershipTag)
  const kept = `dashboard ${live.id} of the same name belongs to another stack of this repository (${owner}) and stays theirs`
  return adopt
    ? `a new dashboard: ${kept}, because \`adopt: true\` never takes one from another stack; to move it to this stack, pin it with \`id: ${live.id}\``
    : `a new dashboard: ${kept}`
}

function adoptionNote(live: LiveDashboard, tag: string): string {
  const other = live.tags.find(t => isOwnershipTag(t) && t !== tag)
  return other
    ? `adopts dashboard ${live.id} from ${other}: this stack takes ownership and removes that tag, so the other stack no longer manages it (nor its alerts)`
    : `adopts existing dashboard ${live.id}: it gets this stack's ownership tag ${tag}`
}
