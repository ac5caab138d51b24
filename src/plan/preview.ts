/**
 * What a report needs to picture a plan's dashboards (report/preview/): each created or layout-changed
 * dashboard's grid before and after, and with `check-queries` the series each changed tile and alert
 * returned. Optional and versioned on its own in the plan file: a plan without it renders without
 * previews, and a reader that meets a later version ignores it.
 */
import { z } from 'zod'
import { once } from '../manifest/once.js'

export const PREVIEW_VERSION = 1

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

  /** [bucket start (ms since the epoch), value (null where the server gave none)]. */
  const SeriesPointTuple = z.tuple([z.number(), z.number().nullable()])

  const TileSeries = z.object({
    dashboard: z.string(),
    tile: z.string(),
    status: SeriesStatus,
    /** Why not `ok`: the server's message, or what the preview cannot run. */
    reason: z.string().optional(),
    /** The range queried and its bucket size. */
    startTime: z.number(),
    endTime: z.number(),
    granularity: z.string(),
    /** The first series' values by bucket, of one group when grouped. */
    points: z.array(SeriesPointTuple),
    /** Grouped queries: how many groups came back, and the one charted. */
    groups: z.number().optional(),
    group: z.string().optional(),
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
    points: z.array(SeriesPointTuple),
    thresholdType: z.string(),
    threshold: z.number(),
    thresholdMax: z.number().optional(),
    /** Windows that would have fired, of how many. */
    fired: z.number().optional(),
    windows: z.number().optional(),
    numberFormat: z.record(z.string(), z.unknown()).optional()
  })

  const Preview = z.object({
    version: z.number(),
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
    SeriesPointTuple,
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
export type TileSeries = z.infer<PreviewSchemas['TileSeries']>
export type AlertSeries = z.infer<PreviewSchemas['AlertSeries']>
export type Preview = z.infer<PreviewSchemas['Preview']>
