/**
 * Tile settings the manifest language has no word for (src/kinds/dashboard/carry.ts): what an update sends for a
 * tile (the manifest, plus such settings as the server holds them, while the tile keeps its display type), the
 * notice that lists them, and the note for each one an update removes.
 */
import { describe, expect, it } from '@jest/globals'
import type { LiveTile } from '../../src/api/schemas.js'
import {
  droppedSettingNotes,
  holdsUnmanagedSettings,
  keptSettings,
  tileAsCompared,
  tileAsSent
} from '../../src/kinds/dashboard/carry.js'
import { apply, change, created, dashboard, notices, plan } from '../support/dashboard-plan.js'

const layout = { x: 0, y: 0, w: 6, h: 3 }
const lineConfig = {
  displayType: 'line',
  sourceId: 's',
  select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }]
}
const liveTile = (
  config: Record<string, unknown> | null | undefined,
  more: Partial<LiveTile> = {}
): LiveTile => ({ id: 't1', name: 'T', ...layout, config, ...more }) as LiveTile

describe('the tile an update sends', () => {
  const body = { name: 'T', ...layout, config: { ...lineConfig } }

  it('a new tile is the manifest alone; a live one gets its id as the server sent it, first', () => {
    expect(tileAsSent(body, undefined)).toBe(body)
    const sent = tileAsSent(body, liveTile({ ...lineConfig }, { id: 42 }))
    expect(sent).toStrictEqual({ id: 42, ...body })
    expect(Object.keys(sent)[0]).toBe('id')
    expect(tileAsSent(body, liveTile({ ...lineConfig }, { id: undefined }))).toStrictEqual(body)
    expect(tileAsSent(body, liveTile(null))).toStrictEqual({ id: 't1', ...body })
  })

  it('a setting no table knows is sent back as read, under the manifest config; null or the manifest own keys are not', () => {
    const live = liveTile({ ...lineConfig, future: { a: 1 }, gone: null, sourceId: 'old' })
    const sent = tileAsSent(body, live)
    expect(sent).toStrictEqual({ id: 't1', ...body, config: { future: { a: 1 }, ...lineConfig } })
    expect(tileAsCompared(body, live)).toStrictEqual(sent)
  })

  it('a live tile with only settings the manifest speaks of (or a null unknown one) is compared as the manifest', () => {
    const plain = liveTile({ ...lineConfig, future: null, other: undefined })
    expect(holdsUnmanagedSettings(plain)).toBe(false)
    expect(tileAsCompared(body, plain)).toBe(body)
    expect(tileAsCompared(body, undefined)).toBe(body)
    expect(holdsUnmanagedSettings(liveTile(null))).toBe(false)
    expect(holdsUnmanagedSettings(liveTile(undefined))).toBe(false)
    expect(holdsUnmanagedSettings(undefined)).toBe(false)
    expect(holdsUnmanagedSettings(liveTile({ future: 0 }))).toBe(true)
  })

  it('a setting of a tile whose display type the update changes is not sent back', () => {
    const live = liveTile({ ...lineConfig, displayType: 'stacked_bar', future: 1 })
    expect(tileAsSent(body, live)).toStrictEqual({ id: 't1', ...body })
  })

  it('a series tile is sent in the config form the server stores, with the setting; its tile-level asRatio goes', () => {
    const series = {
      name: 'T',
      ...layout,
      asRatio: false,
      series: [
        {
          type: 'time',
          sourceId: 's',
          aggFn: 'count',
          where: '',
          whereLanguage: 'lucene',
          groupBy: ['a', ' b']
        }
      ]
    }
    const live = liveTile({ ...lineConfig, groupBy: 'a,b', future: 'kept' })
    expect(tileAsSent(series, live)).toStrictEqual({
      id: 't1',
      name: 'T',
      ...layout,
      config: {
        future: 'kept',
        displayType: 'line',
        sourceId: 's',
        select: [expect.objectContaining({ aggFn: 'count', where: '', whereLanguage: 'lucene' })],
        groupBy: 'a,b',
        asRatio: false
      }
    })
  })

  it('a number series sends no group; an empty group is none; a series without the setting stays a series', () => {
    const number = {
      name: 'T',
      ...layout,
      series: [{ type: 'number', sourceId: 's', aggFn: 'count', groupBy: ['a'] }]
    }
    const live = liveTile({ displayType: 'number', sourceId: 's', select: [{ aggFn: 'count' }], future: 1 })
    const sent = tileAsSent(number, live)
    expect(sent.config).toMatchObject({ displayType: 'number', future: 1 })
    expect(sent.config).not.toHaveProperty('groupBy')
    expect(sent).not.toHaveProperty('series')
    const emptyGroup = {
      ...number,
      series: [{ type: 'time', sourceId: 's', aggFn: 'count', groupBy: [' '] }]
    }
    const sentLine = tileAsSent(emptyGroup, liveTile({ ...lineConfig, future: 1 }))
    expect(sentLine.config).toMatchObject({ displayType: 'line', future: 1 })
    expect(sentLine.config).not.toHaveProperty('groupBy')
    // No setting to carry: the series form as the manifest has it.
    const unchanged = tileAsSent(number, liveTile({ displayType: 'line', future: 1 }))
    expect(unchanged).toStrictEqual({ id: 't1', ...number })
  })

  it('a tile with neither config nor series has nothing to carry settings into', () => {
    const bare = { name: 'T', ...layout }
    expect(tileAsSent(bare, liveTile({ future: 1 }))).toStrictEqual({ id: 't1', ...bare })
  })
})

describe('the notice of settings kept as set in the UI', () => {
  it('names each carried setting the update sends that the live tile holds, by tile and key', () => {
    const live = liveTile({ future: 1, other: 2 })
    expect(
      keptSettings([
        {
          name: 'A "quoted"',
          sent: { config: { future: 1, other: 2, displayType: 'line', empty: '' } },
          live
        },
        { name: 'New', sent: { config: { future: 1 } } },
        { name: 'Series', sent: { series: [] }, live }
      ])
    ).toEqual(['tiles["A \\"quoted\\""].future', 'tiles["A \\"quoted\\""].other'])
    // A setting the update sends that the live tile does not hold is the manifest's, not kept.
    expect(
      keptSettings([{ name: 'A', sent: { config: { future: 1 } }, live: liveTile({ other: 1 }) }])
    ).toEqual([])
    expect(keptSettings([{ name: 'A', sent: { config: { future: 1 } }, live: liveTile(undefined) }])).toEqual(
      []
    )
  })

  it('is given by a plan of a dashboard whose series tile the server holds in config form with such a setting', async () => {
    const yaml = (w: number) =>
      dashboard(
        'S',
        `  - name: T\n    x: 0\n    y: 0\n    w: ${w}\n    h: 3\n    series:\n      - { type: time, source: Logs, aggFn: count }\n`
      )
    const [live] = await created(yaml(6))
    const t = live!.tiles[0]!
    live!.tiles[0] = {
      id: t.id,
      name: 'T',
      ...layout,
      config: { ...lineConfig, sourceId: 'src-logs', future: 1 }
    }
    const same = plan(yaml(6), [live!])
    expect(change(same, 'S').action).toBe('noop')
    expect(notices(same)).toEqual([
      'dashboard "S" has settings the manifest language cannot express yet (set in the UI?), kept as they are: an update sends them back unchanged: tiles["T"].future'
    ])
    const { sent } = await apply(plan(yaml(8), [live!]))
    const [tile] = sent[0]!.body!.tiles as Array<Record<string, unknown>>
    expect(tile).toMatchObject({
      id: t.id,
      w: 8,
      config: { displayType: 'line', sourceId: 'src-logs', future: 1 }
    })
    expect(tile).not.toHaveProperty('series')
  })
})

describe('the note for a setting an update removes', () => {
  it('says which changed sibling removes it, once per setting', () => {
    const live = liveTile({ ...lineConfig, future: 1, more: 'x' })
    expect(droppedSettingNotes('T', { config: { ...lineConfig, displayType: 'pie' } }, live)).toEqual([
      'tile "T": future (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile\'s displayType',
      'tile "T": more (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile\'s displayType'
    ])
  })

  it('none when the display type stays, the setting is empty or the update sets the key itself', () => {
    const live = liveTile({ ...lineConfig, future: 1, blank: '', nothing: null })
    expect(droppedSettingNotes('T', { config: { ...lineConfig, select: [] } }, live)).toEqual([])
    expect(
      droppedSettingNotes('T', { config: { ...lineConfig, displayType: 'pie', future: 2 } }, live)
    ).toEqual([])
    expect(
      droppedSettingNotes('T', { config: lineConfig }, liveTile({ ...lineConfig, displayType: 'pie' }))
    ).toEqual([])
    expect(droppedSettingNotes('T', { config: lineConfig }, liveTile(undefined))).toEqual([])
    expect(droppedSettingNotes('T', { config: lineConfig }, undefined)).toEqual([])
  })

  it('a series tile compares in its config form; one that has no config form (sorted table) removes the setting', () => {
    const live = liveTile({ ...lineConfig, future: 1 })
    const series = (more: Record<string, unknown>) => ({
      series: [{ type: 'time', sourceId: 's', aggFn: 'count', ...more }]
    })
    expect(droppedSettingNotes('T', series({}), live)).toEqual([])
    expect(droppedSettingNotes('T', series({ displayType: 'stacked_bar' }), live)).toHaveLength(1)
    expect(
      droppedSettingNotes('T', { series: [{ type: 'table', aggFn: 'count', sortOrder: 'desc' }] }, live)
    ).toEqual([
      'tile "T": future (set in the UI; the manifest language cannot express it yet) is removed by this update, because the update changes the tile\'s displayType'
    ])
  })
})
