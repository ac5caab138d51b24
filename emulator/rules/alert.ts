/**
 * Alert request bodies (POST /alerts, PUT /alerts/{id}: a PUT is a whole alert too) as HyperDX 2.36 checks them:
 * zod.ts alertSchema with the refinements of common-utils types.ts (channel selection, schedule, threshold range),
 * then controllers/alerts.ts validateAlertInput for what the body refers to. Managed mode follows the cloud's
 * ClickStackCreateAlertRequest: a channel may also be an email channel, and there is no `channels` list.
 */
import {
  addIssue,
  channelSelectionProblem,
  isRecord,
  isValidObjectId,
  oneOf,
  parseWith,
  scheduleStartAt,
  z,
  type Parsed,
  type RuleMode
} from './common.js'
import {
  ALERT_INTERVAL_MINUTES,
  ALERT_SOURCES,
  ALERTABLE_DISPLAY_TYPES,
  LIMITS,
  THRESHOLD_TYPES
} from './vocabulary.js'

type Json = Record<string, unknown>

/** `channels` in managed mode: the `next` cloud takes them (clickhousectl pull request 719), the published API does not. */
function build(mode: RuleMode, managedChannels = false) {
  const { channel, channels } = channelSchemas(mode)
  const intervals = Object.keys(ALERT_INTERVAL_MINUTES) as Array<keyof typeof ALERT_INTERVAL_MINUTES>
  const optionalText = (max: number) => z.string().min(1).max(max).nullish()

  return z
    .object({
      channel: channel.optional(),
      ...(mode === 'managed' && !managedChannels ? {} : { channels: channels.optional() }),
      interval: oneOf(intervals),
      scheduleOffsetMinutes: z.number().int().min(0).max(1439).optional(),
      scheduleStartAt,
      threshold: z.number(),
      thresholdType: oneOf(THRESHOLD_TYPES),
      thresholdMax: z.number().optional(),
      // The default never reaches the union below: without `source` the body fails with "Invalid input".
      source: oneOf(ALERT_SOURCES).default('saved_search'),
      name: optionalText(512),
      message: optionalText(4096),
      note: optionalText(4096),
      numConsecutiveWindows: z.number().int().min(1).nullish()
    })
    .and(
      z
        .object({
          source: z.literal('saved_search'),
          // The cloud refuses an explicit null: its groupBy is kept when omitted, and cannot be cleared (TF
          // client/alert.go).
          groupBy: mode === 'managed' ? z.string().optional() : z.string().nullish(),
          savedSearchId: z.string().min(1)
        })
        .or(
          z.object({ source: z.literal('tile'), tileId: z.string().min(1), dashboardId: z.string().min(1) })
        )
    )
    .superRefine((alert, ctx) => {
      const problem = channelSelectionProblem(
        alert.channel as Json | undefined,
        alert.channels as Json[] | undefined
      )
      if (problem) addIssue(ctx, problem, ['channels'])
    })
    .superRefine(checkSchedule)
    .superRefine(checkThresholdRange)
}

/** The notification channels: `channel` (managed: also email, and webhook extras) and the `channels` list. */
function channelSchemas(mode: RuleMode) {
  const webhookChannel = z.object({
    type: z.literal('webhook'),
    webhookId: z.string().min(1, "Webhook ID can't be empty")
  })
  const channel =
    mode === 'managed'
      ? z.discriminatedUnion('type', [
          webhookChannel.extend({
            webhookService: z.string().nullish(),
            slackChannelId: z.string().nullish(),
            severity: z.enum(['critical', 'error', 'warning', 'info']).nullish()
          }),
          z.object({ type: z.literal('email'), emailRecipients: z.array(z.string()) })
        ])
      : webhookChannel
  // Managed (next): the list takes the managed channels, as `channel` does.
  const channels = z
    .array(mode === 'managed' ? channel : webhookChannel)
    .min(1, 'At least one notification channel is required')
    .max(
      LIMITS.maxAlertChannels,
      `An alert supports at most ${LIMITS.maxAlertChannels} notification channels`
    )
  return { channel, channels }
}

/** types.ts validateAlertScheduleOffsetMinutes: no offset with a start date, and less than one interval. */
function checkSchedule(
  alert: {
    interval: keyof typeof ALERT_INTERVAL_MINUTES
    scheduleOffsetMinutes?: number
    scheduleStartAt?: string | null
  },
  ctx: z.RefinementCtx
): void {
  const offset = alert.scheduleOffsetMinutes ?? 0
  const minutes = ALERT_INTERVAL_MINUTES[alert.interval]
  if (alert.scheduleStartAt != null && offset > 0)
    addIssue(ctx, 'scheduleOffsetMinutes must be 0 when scheduleStartAt is provided', [
      'scheduleOffsetMinutes'
    ])
  if (offset >= minutes)
    addIssue(ctx, `scheduleOffsetMinutes must be less than ${minutes} minute${minutes === 1 ? '' : 's'}`, [
      'scheduleOffsetMinutes'
    ])
}

/** types.ts validateAlertThresholdMax: a range needs its upper bound, not below the threshold. */
function checkThresholdRange(
  alert: { thresholdType: string; threshold: number; thresholdMax?: number },
  ctx: z.RefinementCtx
): void {
  if (alert.thresholdType !== 'between' && alert.thresholdType !== 'not_between') return
  if (alert.thresholdMax == null)
    addIssue(ctx, 'thresholdMax is required for between/not_between threshold types', ['thresholdMax'])
  else if (alert.thresholdMax < alert.threshold)
    addIssue(ctx, 'thresholdMax must be greater than or equal to threshold', ['thresholdMax'])
}

const built = new Map<string, ReturnType<typeof build>>()

export interface AlertBody extends Json {
  source: 'tile' | 'saved_search'
  interval: string
  threshold: number
  thresholdType: string
  channel?: Json
  channels?: Json[]
}

/** The body schema itself: the web UI's route answers its zod error as is (zod-express-middleware). */
export function alertBodySchema(mode: RuleMode, managedChannels = false): ReturnType<typeof build> {
  const key = `${mode}${managedChannels ? '+channels' : ''}`
  let schema = built.get(key)
  if (!schema) built.set(key, (schema = build(mode, managedChannels)))
  return schema
}

export function parseAlertBody(body: unknown, mode: RuleMode, managedChannels = false): Parsed<AlertBody> {
  return parseWith(alertBodySchema(mode, managedChannels), body) as Parsed<AlertBody>
}

/** What validateAlertInput looks up. */
export interface AlertContext {
  dashboards: ReadonlyMap<string, { tiles: ReadonlyArray<{ id: string; config: Json }> }>
  webhookIds: ReadonlySet<string>
  savedSearchIds: ReadonlySet<string>
}

/**
 * controllers/alerts.ts validateAlertInput, in its order: the first failure is a 400 `{message}`. A builder tile of
 * any display type is accepted here; the next dashboard update deletes alerts on tiles that cannot carry them.
 */
export function alertHandlerProblem(alert: AlertBody, ctx: AlertContext): string | undefined {
  if (alert.source === 'tile') {
    const dashboardId = String(alert.dashboardId)
    if (!isValidObjectId(dashboardId)) return 'Invalid dashboard ID'
    const dashboard = ctx.dashboards.get(dashboardId)
    if (dashboard === undefined) return 'Dashboard not found'
    const tile = dashboard.tiles.find(t => t.id === alert.tileId)
    if (tile === undefined) return 'Tile not found'
    const config = tile.config
    if (config.configType === 'sql') {
      const displayType = String(config.displayType)
      if (!(ALERTABLE_DISPLAY_TYPES as readonly string[]).includes(displayType))
        return 'Alerts on Raw SQL tiles are only supported for Line, Stacked Bar, or Number display types'
      if (displayType !== 'number' && !usesInterval(String(config.sqlTemplate ?? '')))
        return 'Raw SQL alert query is invalid: SQL used for alerts must include an interval parameter or macro.'
    }
  } else {
    const savedSearchId = String(alert.savedSearchId)
    if (!isValidObjectId(savedSearchId)) return 'Invalid saved search ID'
    if (!ctx.savedSearchIds.has(savedSearchId)) return 'Saved search not found'
  }
  const list = alert.channels ?? (alert.channel ? [alert.channel] : [])
  if (list.length === 0) return 'At least one notification channel is required'
  const webhookIds = list.filter(c => isRecord(c) && c.type === 'webhook').map(c => String(c.webhookId))
  if (webhookIds.some(id => !isValidObjectId(id))) return 'Invalid webhook ID'
  if (webhookIds.some(id => !ctx.webhookIds.has(id))) return 'Webhook not found'
  return undefined
}

/**
 * Whether a raw SQL template names the interval query parameter (core/utils.ts getRawSqlTimeRangeStatus looks for
 * `intervalSeconds` or `intervalMilliseconds` after expanding macros; the interval macros expand to them).
 */
function usesInterval(sql: string): boolean {
  return /interval(Milli)?seconds|\$__\w*interval/i.test(sql)
}
