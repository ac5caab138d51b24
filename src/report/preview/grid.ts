/**
 * A dashboard's 24-column grid as a picture in text: one line per grid row, three characters per column,
 * each tile a box with its name in its top border. Tiles this plan adds, moves or resizes have double
 * borders and a mark before their name; the picture before the change shows where moved tiles were and the
 * tiles that go. Containers and tabs are sections of their own, as the UI draws them. Pure: the facts in,
 * lines out; names pass through `printable` (nothing hidden, one line) and are cut to the box.
 */
import { printable } from '../../log.js'
import type { LayoutPreview, PreviewGrid, PreviewTile } from '../../plan/preview.js'

export const COLUMNS = 24
/** Characters per grid column: a 24-column grid is 72 characters wide. */
export const CELL = 3
/** Grid rows drawn per section; a taller section says how many rows it leaves out. */
export const MAX_ROWS = 60

export type TileChange = 'new' | 'removed' | 'moved' | 'resized' | 'moved+resized' | 'edited' | 'same'

/** The mark before a tile's name in its border. */
export const MARKS: Record<TileChange, string> = {
  new: '+',
  removed: '-',
  moved: '>',
  resized: '#',
  'moved+resized': '>#',
  edited: '~',
  same: ''
}

export const LEGEND =
  '+ new  - removed  > moved  # resized  ~ query or settings changed (double border: added, moved, resized or removed)'

/** A line of the picture, with the sign a `diff` fence colours it by: + a row of the new layout that changed, - one of the old. */
export interface PictureLine {
  sign: ' ' | '+' | '-'
  text: string
}

const LIGHT = { tl: '┌', tr: '┐', bl: '└', br: '┘', h: '─', v: '│', l1: '[', r1: ']' }
const HEAVY = { tl: '╔', tr: '╗', bl: '╚', br: '╝', h: '═', v: '║', l1: '[', r1: ']' }

const place = (t: PreviewTile): string => `${t.container ?? ''}\u0000${t.tab ?? ''}`

/** What this plan does to each tile, by name: of the tiles after the change, and of those it removes. */
export function tileChanges(p: LayoutPreview): Map<string, TileChange> {
  const out = new Map<string, TileChange>()
  const edited = new Set(p.edited)
  if (!p.before) {
    for (const t of p.after.tiles) out.set(t.name, p.action === 'create' ? 'same' : 'new')
    return out
  }
  const before = new Map(p.before.tiles.map(t => [t.name, t]))
  for (const t of p.after.tiles) {
    const b = before.get(t.name)
    if (!b) {
      out.set(t.name, 'new')
      continue
    }
    const moved = b.x !== t.x || b.y !== t.y || place(b) !== place(t)
    const resized = b.w !== t.w || b.h !== t.h
    out.set(
      t.name,
      moved && resized
        ? 'moved+resized'
        : moved
          ? 'moved'
          : resized
            ? 'resized'
            : edited.has(t.name)
              ? 'edited'
              : 'same'
    )
  }
  const after = new Set(p.after.tiles.map(t => t.name))
  for (const t of p.before.tiles) if (!after.has(t.name)) out.set(t.name, 'removed')
  return out
}

/** Whether a change draws a double border and colours its rows. */
const placed = (c: TileChange | undefined): boolean =>
  c === 'new' || c === 'removed' || c === 'moved' || c === 'resized' || c === 'moved+resized'

/** Display width of a character: East Asian wide and emoji take two columns, combining marks none. */
function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!
  if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    cp >= 0x20000
  )
    return 2
  return 1
}

/** The text cut to `width` display columns, as cells: a wide character fills two (the second empty). */
function cellsOf(text: string, width: number): string[] {
  const cells: string[] = []
  for (const ch of text) {
    const w = charWidth(ch)
    if (w === 0) {
      if (cells.length > 0) cells[cells.length - 1] += ch
      continue
    }
    if (cells.length + w > width) {
      if (width >= 1 && cells.length > 0) {
        while (cells.length > width - 1) cells.pop()
        // A wide character cut in half leaves its empty second cell: fill it.
        if (cells.length > 0 && cells[cells.length - 1] === '') cells[cells.length - 1] = ' '
        cells.push('…')
      }
      return cells
    }
    cells.push(ch)
    if (w === 2) cells.push('')
  }
  return cells
}

/** A name as it may stand in a picture: one line, nothing hidden, at most 60 characters. */
const label = (name: string): string => printable(name, 60)

/** One section's grid: its tiles drawn on a canvas of `COLUMNS * CELL` characters. */
function drawGrid(
  tiles: readonly PreviewTile[],
  changes: ReadonlyMap<string, TileChange>,
  sign: '+' | '-'
): PictureLine[] {
  if (tiles.length === 0) return [{ sign: ' ', text: '(no tiles)' }]
  const width = COLUMNS * CELL
  const bottom = Math.max(...tiles.map(t => t.y + t.h))
  const rows = Math.min(bottom, MAX_ROWS)
  const canvas: string[][] = Array.from({ length: rows }, () => Array<string>(width).fill(' '))
  const changedRows = new Set<number>()
  // Unchanged tiles first: a changed one that overlaps them is drawn on top.
  const ordered = [...tiles].sort(
    (a, b) => Number(placed(changes.get(a.name))) - Number(placed(changes.get(b.name)))
  )
  for (const t of ordered) {
    const change = changes.get(t.name) ?? 'same'
    const box = placed(change) ? HEAVY : LIGHT
    const x0 = Math.max(0, Math.min(COLUMNS - 1, t.x)) * CELL
    const x1 = Math.min(COLUMNS, Math.max(t.x + t.w, t.x + 1)) * CELL - 1
    const y0 = t.y
    const y1 = t.y + Math.max(1, t.h) - 1
    for (let y = y0; y <= y1 && y < rows; y++) {
      if (y < 0) continue
      if (placed(change)) changedRows.add(y)
      const top = y === y0
      const last = y === y1
      for (let x = x0; x <= x1; x++) {
        const edge = x === x0 || x === x1
        let ch: string
        if (y0 === y1) ch = x === x0 ? box.l1 : x === x1 ? box.r1 : box.h
        else if (top) ch = x === x0 ? box.tl : x === x1 ? box.tr : box.h
        else if (last) ch = x === x0 ? box.bl : x === x1 ? box.br : box.h
        else ch = edge ? box.v : ' '
        canvas[y]![x] = ch
      }
      if (top && y >= 0) {
        const mark = MARKS[change]
        const room = x1 - x0 - 1
        const cells = cellsOf(`${mark}${label(t.name)}`, room)
        cells.forEach((c, i) => (canvas[y]![x0 + 1 + i] = c))
      }
    }
  }
  const lines: PictureLine[] = canvas.map((row, y) => ({
    sign: changedRows.has(y) ? sign : ' ',
    text: row.join('').replace(/\s+$/, '')
  }))
  if (bottom > rows) {
    const below = tiles.filter(t => t.y >= rows).map(t => label(t.name))
    lines.push({
      sign: ' ',
      text: `… ${bottom - rows} more rows; below row ${rows}: ${below.slice(0, 10).join(', ')}${below.length > 10 ? ', …' : ''}`
    })
  }
  return lines
}

/** A grid split as the UI shows it: the tiles outside containers, then each container, then each of its tabs. */
function drawLayout(
  grid: PreviewGrid,
  changes: ReadonlyMap<string, TileChange>,
  sign: '+' | '-'
): PictureLine[] {
  const lines: PictureLine[] = []
  const known = new Set(grid.containers.map(c => c.title))
  const loose = grid.tiles.filter(t => t.container === undefined || !known.has(t.container))
  const orphans = loose.filter(t => t.container !== undefined)
  const top = loose.filter(t => t.container === undefined)
  if (top.length > 0 || grid.containers.length === 0) lines.push(...drawGrid(top, changes, sign))
  for (const c of grid.containers) {
    const inside = grid.tiles.filter(t => t.container === c.title)
    lines.push({
      sign: ' ',
      text: `${c.collapsed ? '▸' : '▾'} container: ${label(c.title)}${c.collapsed ? ' (collapsed)' : ''}`
    })
    if (c.tabs && c.tabs.length > 0) {
      const tabs = new Set(c.tabs)
      const noTab = inside.filter(t => t.tab === undefined || !tabs.has(t.tab))
      if (noTab.length > 0) lines.push(...drawGrid(noTab, changes, sign))
      lines.push({ sign: ' ', text: `  tabs: ${c.tabs.map(t => `[${label(t)}]`).join(' ')}` })
      for (const tab of c.tabs) {
        lines.push({ sign: ' ', text: `  ▾ tab: ${label(tab)}` })
        lines.push(
          ...drawGrid(
            inside.filter(t => t.tab === tab),
            changes,
            sign
          )
        )
      }
    } else lines.push(...drawGrid(inside, changes, sign))
  }
  if (orphans.length > 0) {
    lines.push({ sign: ' ', text: '▾ in a container this layout does not have:' })
    lines.push(...drawGrid(orphans, changes, sign))
  }
  return lines
}

/** The changed tiles as a list: each one's mark, name and cell (before -> after), for the tiles too small to name. */
function changeList(p: LayoutPreview, changes: ReadonlyMap<string, TileChange>): PictureLine[] {
  const before = new Map((p.before?.tiles ?? []).map(t => [t.name, t]))
  const after = new Map(p.after.tiles.map(t => [t.name, t]))
  const cell = (t: PreviewTile) =>
    `x ${t.x} y ${t.y} w ${t.w} h ${t.h}${t.container !== undefined ? ` in ${label(t.container)}${t.tab !== undefined ? ` / ${label(t.tab)}` : ''}` : ''}`
  const lines: PictureLine[] = []
  for (const [name, change] of changes) {
    if (change === 'same') continue
    const b = before.get(name)
    const a = after.get(name)
    const where =
      change === 'removed' ? cell(b!) : b && a && placed(change) ? `${cell(b)} -> ${cell(a)}` : cell(a!)
    lines.push({
      sign: change === 'removed' ? '-' : placed(change) ? '+' : ' ',
      text: `${MARKS[change].padEnd(2)} ${label(name)}: ${change.replace('+', ' and ')}, ${where}`
    })
  }
  return lines
}

/**
 * The picture of one dashboard: the grid after the change (titled), under the grid before it when the
 * dashboard exists, then the legend and the list of changed tiles. Each line carries its diff sign.
 */
export function layoutPicture(p: LayoutPreview): PictureLine[] {
  const changes = tileChanges(p)
  const lines: PictureLine[] = []
  if (p.before) {
    lines.push({ sign: ' ', text: 'before (live):' })
    lines.push(...drawLayout(p.before, changes, '-'))
    lines.push({ sign: ' ', text: '' })
    lines.push({ sign: ' ', text: 'after (this plan):' })
  } else lines.push({ sign: ' ', text: p.action === 'create' ? 'new dashboard:' : 'after (this plan):' })
  lines.push(...drawLayout(p.after, changes, '+'))
  const list = changeList(p, changes)
  if (list.length > 0) {
    lines.push({ sign: ' ', text: '' })
    lines.push({ sign: ' ', text: LEGEND })
    lines.push(...list)
  }
  return lines
}

/** How much a layout change matters to a reviewer: removed tiles most, then moved or sized, then edited, new. */
export function layoutWeight(p: LayoutPreview): number {
  let weight = p.action === 'replace' ? 1000 : p.action === 'update' ? 100 : 0
  for (const c of tileChanges(p).values())
    weight += c === 'removed' ? 8 : c === 'same' ? 0 : c === 'edited' || c === 'new' ? 2 : 4
  return weight
}
