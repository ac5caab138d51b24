/**
 * Containers (groups of tiles, with tabs) by title. Manifests name a container and its tabs by title; the server
 * keys them by ids the client chooses (common-utils DashboardContainerSchema) and tiles refer to those ids. An update
 * keeps the ids of the live containers and tabs of the same title, so tiles and the UI's links keep pointing at them;
 * a new one gets an id made from its title. Both sides compare by title, so the ids never show in a plan.
 */
import { createHash } from 'node:crypto'
import type { LiveDashboard, LiveTile } from '../../api/schemas.js'
import { clean, type JsonObject } from '../../json.js'
import type { ContainerSpec, TileSpec } from '../../manifest/schema.js'

type Body = Record<string, unknown>

export interface Layout {
  /** The containers as the request sends them, with their ids. */
  containers: Body[]
  /** The ids a tile is sent with. */
  placement(tile: Pick<TileSpec, 'container' | 'tab'>): { containerId?: string; tabId?: string }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const records = (v: unknown): Body[] => (Array.isArray(v) ? (v as Body[]) : [])

/** An id for a new container or tab: readable, stable for its title, unused among `taken`. */
function newId(title: string, taken: Set<string>): string {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'group'
  const base = `${slug}-${createHash('sha256').update(title).digest('hex').slice(0, 6)}`
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
  taken.add(id)
  return id
}

/** The manifest's containers with ids: those of the live containers and tabs of the same title, or new ones. */
export function layoutOf(specs: readonly ContainerSpec[] | undefined, live?: LiveDashboard): Layout {
  const liveContainers = records(live?.containers)
  const taken = new Set(liveContainers.map(c => String(c.id)))
  const unused = [...liveContainers]
  const ids = new Map<string, { id: string; tabs: Map<string, string> }>()
  const containers = (specs ?? []).map(spec => {
    const index = unused.findIndex(c => c.title === spec.title)
    const match = index >= 0 ? unused.splice(index, 1)[0] : undefined
    const id = match ? String(match.id) : newId(spec.title, taken)
    const liveTabs = records(match?.tabs)
    const tabTaken = new Set(liveTabs.map(t => String(t.id)))
    const tabIds = new Map<string, string>()
    const usedTabs = new Set<unknown>()
    const tabs = spec.tabs?.map(tab => {
      const found = liveTabs.find(t => t.title === tab.title && !usedTabs.has(t))
      usedTabs.add(found)
      const tabId = found ? String(found.id) : newId(tab.title, tabTaken)
      tabIds.set(tab.title, tabId)
      return { id: tabId, title: tab.title }
    })
    ids.set(spec.title, { id, tabs: tabIds })
    const body: Body = { id, title: spec.title, collapsed: spec.collapsed ?? false }
    if (spec.collapsible !== undefined) body.collapsible = spec.collapsible
    if (spec.bordered !== undefined) body.bordered = spec.bordered
    if (tabs !== undefined) body.tabs = tabs
    return body
  })
  return {
    containers,
    placement(tile) {
      const container = tile.container === undefined ? undefined : ids.get(tile.container)
      if (!container) return {}
      const tabId = tile.tab === undefined ? undefined : container.tabs.get(tile.tab)
      return tabId === undefined ? { containerId: container.id } : { containerId: container.id, tabId }
    }
  }
}

/** Containers in the normal form: by title, ids left out, `collapsed: false` as absent. */
export function normalContainers(list: unknown): JsonObject | undefined {
  const out: JsonObject = {}
  for (const c of records(list)) {
    let key = text(c.title) ?? String(c.id)
    for (let n = 2; key in out; n++) key = `${text(c.title) ?? String(c.id)} (${n})`
    const { id: _id, title: _title, tabs, collapsed, ...rest } = c
    out[key] = (clean({
      ...rest,
      collapsed: collapsed === true ? true : undefined,
      tabs: records(tabs).map(t => text(t.title) ?? String(t.id))
    }) ?? {}) as JsonObject
  }
  return Object.keys(out).length > 0 ? out : undefined
}

/** Where a live tile is, by the titles of its container and tab. */
export function livePlacement(tile: LiveTile, live: LiveDashboard): { container?: string; tab?: string } {
  const container = records(live.containers).find(c => c.id === tile.containerId)
  if (!container) return {}
  const tab = records(container.tabs).find(t => t.id === tile.tabId)
  const title = text(container.title) ?? String(container.id)
  return tab ? { container: title, tab: text(tab.title) ?? String(tab.id) } : { container: title }
}
