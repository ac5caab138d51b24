/**
 * What a report needs to picture a plan's dashboards (report/preview/): each created or layout-changed
 * dashboard's grid before and after, and with `check-queries` the series each changed tile and alert
 * returned. Optional and versioned on its own in the plan file: a plan without it renders without
 * previews, and a reader that meets a later version ignores it.
 */
import { z } from 'zod'
import { once } from '../manifest/once.js'

/** 2: whole time axes, every display type, groups, aligned alert windows (issue 40). */
export const PREVIEW_VERSION = 2

/**
 * The preview's schemas, built with the plan file's on first use (plan/types.ts). One long expression on purpose:
 * a declarative table of the preview's parts, each built from the ones before it, inside the function that keeps
 * them lazy.
 */
export const previewSchemas = once('preview schemas', () => {
  /** A tile where it sits: its grid cell (24 columns), and the titles of its container and tab. */
  const PreviewTile = z.object({
    name: z.string(),
    x: z.number(),
    y: z.number(),
    w: z.number(),
    h: z.number(),
    container: z.string().optional(),
    tab: z.string().optional()
  })

  const PreviewContainer = z.object({
    title: z.string(),
    tabs: z.array(z.string()).optional(),
    collapsed: z.boolean().optional()
  })

  const PreviewGrid = z.object({
    tiles: z.array(PreviewTile),
    containers: z.array(PreviewContainer)
  })

  const LayoutPreview = z.object({
    /** The dashboard change's address and name. */
    address: z.string(),
    name: z.string(),
    action: z.enum(['create', 'update', 'replace']),
    /** As it is live (absent for a create). */
    before: PreviewGrid.optional(),
    after: PreviewGrid,
    /** Tiles whose query or settings change (not only their place): marked `~`. */
    edited: z.array(z.string())
  })

  /**
   * Why a series is or is not there: `ok` (points), `empty` (the query matched nothing), `error` (the server
   * refused it), `unsupported` (raw SQL, markdown, search: nothing the charts route runs), `managed` (no charts
   * route).
   */
  const SeriesStatus = z.enum(['ok', 'empty', 'error', 'unsupported', 'managed'])

  /**
   * The whole time axis a chart covers: bucket i starts at `start + i * step` (ms since the epoch), `count`
   * buckets, aligned as the server aligns them. Every list of values below has one entry per bucket, so a
   * bucket without rows is there, at its time.
   */
  const Axis = z.object({ start: z.number(), step: z.number(), count: z.number() })

  /**
   * A bucket's value: a number, or null where the server returned no row for it. `fill` says how a null is
   * shown: `zero` (the tile fills nulls with 0, as the UI does by default) or `gap` (the tile does not).
   */
  const BucketValue = z.number().nullable()

  /**
   * One line of a chart: a group's values along the axis. `name` is the group's value as the data holds it,
   * after `preview-values` (masked, or absent under `hide`); ungrouped, absent.
   */
  const Line = z.object({
    name: z.string().optional(),
    values: z.array(BucketValue),
    /** The group's total over the range (what it is ranked by): for a count or a sum, the sum of its buckets. */
    total: z.number().nullable()
  })

  /** A table tile's top rows over the range: one column per group-by field, then one per series. */
  const Table = z.object({
    columns: z.array(z.string()),
    rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
    /** Rows not shown. */
    more: z.number()
  })

  /** A pie or bar tile's parts over the range, largest first. */
  const Bar = z.object({ name: z.string().optional(), value: z.number().nullable() })

  const TileSeries = z.object({
    dashboard: z.string(),
    tile: z.string(),
    status: SeriesStatus,
    /** Why not `ok`: the server's message, or what the preview cannot run. */
    reason: z.string().optional(),
    /** How the tile draws: line, stacked_bar, number, table, pie, bar, search, markdown, heatmap, ... */
    displayType: z.string(),
    /** The range queried and its bucket size (the server's granularity, e.g. `30m`). */
    startTime: z.number(),
    endTime: z.number(),
    granularity: z.string(),
    axis: Axis.optional(),
    fill: z.enum(['zero', 'gap']).optional(),
    /** The first series' aggregate function (`count`, `avg`, ...): whether groups may be summed. */
    aggFn: z.string().optional(),
    /** line / stacked_bar: up to 5 groups, largest total first (one line when ungrouped). */
    lines: z.array(Line).optional(),
    /** Groups beyond `lines`, counted; `other` is their sum, only for a count or a sum. */
    moreGroups: z.number().optional(),
    other: Line.optional(),
    /** number: the value over the range, and over the range before it (null where there is none). */
    value: z.number().nullable().optional(),
    previous: z.number().nullable().optional(),
    /** Said beside a number when it cannot be exact (e.g. a quantile over buckets). */
    approximate: z.string().optional(),
    table: Table.optional(),
    bars: z.array(Bar).optional(),
    /** The tile's number format (the manifest's, as the server takes it). */
    numberFormat: z.record(z.string(), z.unknown()).optional()
  })

  const AlertSeries = z.object({
    alert: z.string(),
    dashboard: z.string().optional(),
    tile: z.string().optional(),
    status: SeriesStatus,
    reason: z.string().optional(),
    startTime: z.number(),
    endTime: z.number(),
    /** The alert's interval: one bucket per window. */
    granularity: z.string(),
    /** The windows replayed, aligned as the server's alert check aligns them. */
    axis: Axis.optional(),
    fill: z.enum(['zero', 'gap']).optional(),
    /** Per window, the most alarming value of any group (null: no row). */
    values: z.array(BucketValue).optional(),
    thresholdType: z.string(),
    threshold: z.number(),
    thresholdMax: z.number().optional(),
    numConsecutiveWindows: z.number().optional(),
    /** Indexes into `values` of the windows where the alert would have fired. */
    firing: z.array(z.number()).optional(),
    /** Windows that would have fired, of how many: `fired` is `firing.length`. */
    fired: z.number().optional(),
    windows: z.number().optional(),
    numberFormat: z.record(z.string(), z.unknown()).optional()
  })

  const Preview = z.object({
    version: z.number(),
    /** How data values were treated (`preview-values`): shown, masked where they look personal, or left out. */
    values: z.enum(['show', 'mask', 'hide']).optional(),
    layouts: z.array(LayoutPreview),
    /** With check-queries: one entry per created or changed tile, and per created or changed alert. */
    tiles: z.array(TileSeries).optional(),
    alerts: z.array(AlertSeries).optional()
  })
  return {
    PreviewTile,
    PreviewContainer,
    PreviewGrid,
    LayoutPreview,
    SeriesStatus,
    Axis,
    Line,
    Table,
    Bar,
    TileSeries,
    AlertSeries,
    Preview
  }
})
type PreviewSchemas = ReturnType<typeof previewSchemas>
export type PreviewTile = z.infer<PreviewSchemas['PreviewTile']>
export type PreviewContainer = z.infer<PreviewSchemas['PreviewContainer']>
export type PreviewGrid = z.infer<PreviewSchemas['PreviewGrid']>
export type LayoutPreview = z.infer<PreviewSchemas['LayoutPreview']>
export type SeriesStatus = z.infer<PreviewSchemas['SeriesStatus']>
export type Axis = z.infer<PreviewSchemas['Axis']>
export type Line = z.infer<PreviewSchemas['Line']>
export type PreviewTable = z.infer<PreviewSchemas['Table']>
export type Bar = z.infer<PreviewSchemas['Bar']>
export type TileSeries = z.infer<PreviewSchemas['TileSeries']>
export type AlertSeries = z.infer<PreviewSchemas['AlertSeries']>
export type Preview = z.infer<PreviewSchemas['Preview']>
