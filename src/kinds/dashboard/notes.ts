/**
 * What a dashboard update does besides what its fields say, for the reviewer: the alerts the server
 * deletes with their tiles (FACTS.md: the alerts of a tile that goes away or can no longer carry alerts),
 * UI settings the update removes or keeps, and the PromQL tiles no client of this API can protect.
 */
import { sameId, type LiveDashboard, type LiveTile, type RawId } from '../../api/schemas.js'
import { diagnostic } from '../../diagnostics.js'
import { VERSION } from '../../version.js'
import { clean, equal } from '../../json.js'
import { formatPath, type PathSegment } from '../../manifest/path.js'
import { keyLabel, keyText } from '../../plan/diff.js'
import { tileDisplayType } from '../../manifest/rules.js'
import type { PlanContext, PlannedChange } from '../kind.js'
import { keptSettingsNotice } from '../returned-fields.js'
import {
  droppedSettingNotes,
  droppedSettings,
  holdsUnmanagedSettings,
  keptSettings,
  tileAsSent,
  unknownDashboardFields
} from './carry.js'
import type { DesiredDashboard } from './desired.js'
import { dashboardWrite } from './patch.js'
import { inSeriesTerms } from './series-view.js'
import { uiOnlySettings } from './ui-only.js'
import {
  flatTile,
  isAlertable,
  liveDisplayType,
  pairTiles,
  sameContent,
  tileSpecs,
  type TilePairing
} from './tiles.js'

export function refineDashboard(pc: PlannedChange<DesiredDashboard, LiveDashboard>, ctx: PlanContext): void {
  noteRewrites(pc, ctx)
  noteTileConsequences(pc, ctx)
  noteUnmanagedSettings(pc, ctx)
  warnOfPromql(pc, ctx)
  checkSourceKinds(pc, ctx)
  if (pc.desired && !pc.live) warnOfLostPins(pc, undefined, ctx)
  // Only a create links later (links.ts settleDashboardLinks): an updated dashboard's targets all exist or wait.
  if (pc.desired?.value.linksLater)
    pc.change.notes.push(
      'a link-out names a dashboard created later in this apply (or this one): it is set by a second request once that exists'
    )
  // Last: the steps above read the paths of the config form.
  const keys = pc.desired ? pairTiles(tileSpecs(pc.desired.value), pc.live).desired : []
  const written = new Set(pc.desired?.value.tiles.flatMap((t, i) => (t.spec.series ? [keys[i]!.key] : [])))
  if (written.size > 0) pc.change.fields = pc.change.fields.map(f => inSeriesTerms(f, written))
}

/**
 * How the update is sent (patch.ts), and what it resets: each tile it writes through the API's form loses what only
 * the web UI can set (ui-only.ts). Nothing is said where nothing is at risk: a create, a name or tag change.
 */
function noteRewrites(pc: PlannedChange<DesiredDashboard, LiveDashboard>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  if (!desired || !live || change.action !== 'update') return
  const canPatch = ctx.live.dashboardPatch === true
  const write = dashboardWrite(change, desired.value, live, canPatch)
  desired.value.write = write
  // The live tiles the write replaces, by the key of the desired tile each pairs with (write.tiles' keys).
  const pairing = pairTiles(tileSpecs(desired.value), live)
  const kept = new Map(pairing.desired.flatMap(t => (t.live ? [[t.live, t.key] as const] : [])))
  const replaced = new Map(live.tiles.flatMap(t => (kept.has(t) ? [[kept.get(t)!, t] as const] : [])))
  const rewritten = write.via === 'patch' ? write.tiles : [...replaced.keys()]
  const resets = rewritten.flatMap(key => {
    const settings = uiOnlySettings(replaced.get(key)!)
    return settings.length > 0 ? [{ tile: keyText(key), settings: [...settings] }] : []
  })
  if (resets.length === 0) return
  const why =
    write.via === 'patch'
      ? undefined
      : canPatch
        ? 'it changes more than existing tiles, so it cannot replace them one at a time'
        : 'this server offers no narrower write'
  change.resets = { via: write.via, ...(why ? { why } : {}), tiles: resets }
}

/**
 * udash validateDashboardTiles: a heatmap needs a trace source; a tile with formulas a metric, log or trace source
 * (both only for tiles a write adds or changes: a source whose kind changed later does not block other edits); a
 * link-out to a search page a log or trace source. Plan errors at the manifest line, before any request.
 */
function checkSourceKinds(pc: PlannedChange<DesiredDashboard, LiveDashboard>, ctx: PlanContext): void {
  const { desired, live } = pc
  if (!desired) return
  const pairing = pairTiles(tileSpecs(desired.value), live)
  const kindOf = (id: unknown) => ctx.live.Source.find(s => s.id === id)?.kind ?? undefined
  desired.value.tiles.forEach((t, i) => {
    // A series tile has no config (and its body is made anew on each use).
    const config = t.spec.config ? (t.body.config as Record<string, unknown> | undefined) : undefined
    if (!config) return
    const before = pairing.desired[i]!.live?.config ?? undefined
    const kind = kindOf(config.sourceId)
    const report = (path: PathSegment[], message: string) =>
      ctx.report(
        diagnostic('plan', 'error', message, {
          ...desired.value.located.doc.locate(['tiles', i, 'config', ...path]),
          field: formatPath(['tiles', i, 'config', ...path])
        })
      )
    const sameSource = before?.sourceId === config.sourceId && before?.configType !== 'sql'
    if (
      config.displayType === 'heatmap' &&
      kind &&
      kind !== 'trace' &&
      !(sameSource && before?.displayType === 'heatmap')
    )
      report(['source'], `a heatmap tile needs a trace source; this one is a ${kind} source`)
    const formulas = config.formulas
    if (
      Array.isArray(formulas) &&
      formulas.length > 0 &&
      kind &&
      !['metric', 'log', 'trace'].includes(kind) &&
      !(sameSource && equal(clean(before?.formulas), clean(formulas)))
    )
      report(['formulas'], `formulas need a metric, log or trace source; this one is a ${kind} source`)
    const link = config.onClick as { type?: string; target?: { id?: string } } | undefined
    const linked = link?.type === 'search' ? kindOf(link.target?.id) : undefined
    if (linked && linked !== 'log' && linked !== 'trace')
      report(
        ['onClick', 'target'],
        `a search link-out needs a log or trace source; this one is a ${linked} source`
      )
  })
}

/**
 * Settings the manifest language cannot express: the ones an update removes get a note each; the ones it
 * sends back as read are listed in a notice on every plan, so a UI edit of them is visible too.
 */
function noteUnmanagedSettings(pc: PlannedChange<DesiredDashboard, LiveDashboard>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  if (!desired || !live) return
  const pairing = pairTiles(tileSpecs(desired.value), live)
  // Only a live tile with such a setting can have one kept or removed.
  const tiles = desired.value.tiles.flatMap((t, i) => {
    const { key, live: before } = pairing.desired[i]!
    return holdsUnmanagedSettings(before)
      ? [{ name: keyText(key), sent: tileAsSent(t.body, before), live: before }]
      : []
  })
  for (const t of tiles) {
    change.notes.push(...droppedSettingNotes(t.name, t.sent, t.live))
    // Counted in the heading with what else the update may reset (Change.lost).
    const dropped = droppedSettings(t.sent, t.live).map(d => `tile "${t.name}": ${d.key}`)
    if (dropped.length > 0) change.lost = [...(change.lost ?? []), ...dropped]
  }
  noteUnknownFields(pc, ctx)
  const kept = keptSettings(tiles)
  // Only then the manifest position: positions cost a parse.
  if (kept.length > 0) ctx.report(keptSettingsNotice(`dashboard "${desired.name}"`, kept, desired.source))
}

/**
 * Dashboard-level fields of a newer server that this version does not know: an update sends them back as read
 * (self-hosted), said in a notice on every plan; the managed API refuses a key it does not declare, so there the
 * update leaves them out, and the change names them as fields it may reset (Change.lost).
 */
function noteUnknownFields(pc: PlannedChange<DesiredDashboard, LiveDashboard>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  if (!desired || !live || (change.action !== 'update' && change.action !== 'noop')) return
  const unknown = Object.keys(unknownDashboardFields(live)).map(k => `\`${k}\``)
  if (unknown.length === 0) return
  if (ctx.settings.mode !== 'managed') {
    ctx.report(keptSettingsNotice(`dashboard "${desired.name}"`, unknown, desired.source))
    return
  }
  if (change.action !== 'update') return
  change.lost = [...(change.lost ?? []), ...Object.keys(unknownDashboardFields(live))]
  change.notes.push(
    `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} unknown to obsdeploy ${VERSION} and the managed API refuses a field it does not declare, so the update cannot send ${unknown.length === 1 ? 'it' : 'them'} back: this update may reset ${unknown.length === 1 ? 'it' : 'them'} (HyperDX 2.36 keeps a field its update does not name; a server whose update always sets it does not)`
  )
}

/**
 * FACTS.md: the API leaves PromQL tiles out of what it returns, and a PUT replaces the whole tile list,
 * so an update deletes them. A dashboard this stack created has none unless someone added them in the
 * UI; one it adopts may well have some.
 */
function warnOfPromql(pc: PlannedChange<DesiredDashboard, LiveDashboard>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  // Patches leave every tile they do not name as stored (patch.ts), PromQL tiles included.
  if (!desired || !live || change.action !== 'update' || desired.value.write?.via === 'patch') return
  const { spec } = desired.value
  const adopted =
    spec.adopt === true || spec.id !== undefined || !live.tags.includes(ctx.settings.ownershipTag)
  if (!adopted) return
  ctx.report(
    diagnostic(
      'plan',
      'warning',
      `dashboard "${desired.name}" was not created by this stack: tiles this API cannot show (PromQL) are removed by an update. The API leaves PromQL tiles out of what it returns and an update replaces the whole tile list, so no client of this API can protect them; this plan cannot see whether it has any`,
      desired.source
    )
  )
}

function noteTileConsequences(pc: PlannedChange<DesiredDashboard, LiveDashboard>, ctx: PlanContext): void {
  const { change, desired, live } = pc
  if (!desired || !live) return
  const pairing = pairTiles(tileSpecs(desired.value), live)
  const paired = new Set(pairing.desired.map(t => t.live))
  const dropped = [...pairing.live].filter(([, t]) => !paired.has(t))
  const added = desired.value.tiles.filter((_, i) => pairing.desired[i]!.live === undefined)
  // sameId matches no absent id: a tile without an id has no alerts.
  const alertsOn = (tileId: RawId | undefined) =>
    ctx.live.Alert.filter(a => a.dashboardId === live.id && sameId(a.tileId, tileId)).map(
      a => `"${a.name ?? a.id}"`
    )
  for (const [key, tile] of dropped) {
    const twin = added.find(a => sameContent(flatTile(a.body), flatTile(tile)))
    const alerts = alertsOn(tile.id)
    const alertText =
      alerts.length > 0
        ? `; the server deletes its alert${alerts.length > 1 ? 's' : ''} ${alerts.join(', ')}`
        : ''
    if (twin) {
      change.notes.push(
        `tile ${keyLabel(key)} renamed to "${twin.spec.name}": tiles are matched by name (or an \`id:\` pin), so "${twin.spec.name}" is a new tile with a new id${alertText}`
      )
    } else if (alerts.length > 0) {
      change.notes.push(`tile ${keyLabel(key)} is removed${alertText}`)
    }
  }
  // A pinned tile renamed keeps its id and its alerts.
  pairing.desired.forEach(({ key, live: before }) => {
    const beforeKey = before && [...pairing.live].find(([, t]) => t === before)![0]
    if (before && beforeKey !== key)
      change.notes.push(
        `tile ${keyLabel(beforeKey!)} renamed to ${keyLabel(key)}: its \`id:\` pin keeps its id and alerts`
      )
  })
  warnOfLostPins(pc, pairing, ctx)
  for (const [i, t] of desired.value.tiles.entries()) {
    const before = pairing.desired[i]!.live
    if (!before || isAlertable(tileDisplayType(t.spec)) || !isAlertable(liveDisplayType(before))) continue
    const alerts = alertsOn(before.id)
    if (alerts.length > 0) {
      change.notes.push(
        `tile ${keyLabel(pairing.desired[i]!.key)} becomes a ${tileDisplayType(t.spec)} tile, which cannot carry alerts: the server deletes ${alerts.join(', ')}`
      )
    }
  }
}

/**
 * Tile pins that will not hold, said at the pin so they get fixed. On an update (`pairing`): a pin no tile of the live
 * dashboard has (a manifest exported from another server, or a tile deleted in the UI): the tile is matched by name,
 * or is new. On a create (no pairing): every pin, as the server gives each tile of a new dashboard an id of its own
 * (docs/real-server.md, udash `convertExternalTilesToInternal`).
 */
function warnOfLostPins(
  pc: PlannedChange<DesiredDashboard, LiveDashboard>,
  pairing: TilePairing<LiveTile> | undefined,
  ctx: PlanContext
): void {
  const desired = pc.desired!
  desired.value.tiles.forEach((t, i) => {
    const pin = t.spec.id
    const paired = pairing?.desired[i]!.live
    if (pin === undefined || (pairing && sameId(paired?.id, pin))) return
    const why = !pairing
      ? `dashboard "${desired.name}" is created, and the server gives each new tile an id of its own, not "${pin}": after the apply, pin the tile to its new id (\`obsdeploy export\` writes it)`
      : `no tile of dashboard "${desired.name}" has id "${pin}": ${paired ? `matched by name with tile ${String(paired.id)}` : 'a new tile, which gets an id of its own'}; pin it to its live id`
    const path = ['tiles', i, 'id']
    ctx.report(
      diagnostic('plan', 'warning', why, {
        ...desired.value.located.doc.locate(path),
        field: formatPath(path)
      })
    )
  })
}
