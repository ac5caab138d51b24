/** The Alert kind: on a dashboard tile's value or a saved search, with its channels (webhook only, self-hosted). */
import { z } from 'zod'
import { once } from './once.js'
import { apiVersion, atLeast, between, text } from './schema-fields.js'
import {
  ALERT_INTERVALS,
  CHANNEL_SEVERITIES,
  ALERT_SOURCES,
  LIMITS,
  RESOURCE_LIMITS,
  THRESHOLD_TYPES
} from './vocabulary.js'

const MANAGED_ONLY = 'Managed mode only (the cloud API).'
export const WebhookChannel = z.strictObject({
  type: z.literal('webhook').describe('webhook: notify through a webhook.'),
  webhook: z.string().min(1).optional().describe("Webhook by name (a manifest's or an existing one)."),
  webhookId: z.string().min(1).optional().describe('Webhook by id.'),
  webhookService: z
    .string()
    .min(1)
    .optional()
    .describe(`${MANAGED_ONLY} The webhook's service, e.g. slack_api.`),
  slackChannelId: z
    .string()
    .min(1)
    .optional()
    .describe(`${MANAGED_ONLY} Slack channel id for Slack API webhooks.`),
  severity: z
    .enum(CHANNEL_SEVERITIES)
    .optional()
    .describe(`${MANAGED_ONLY} Severity for PagerDuty API webhooks.`)
})
export const EmailChannel = z.strictObject({
  type: z.literal('email').describe(`${MANAGED_ONLY} Email the alert.`),
  emailRecipients: z.array(z.string().min(1)).describe('Addresses to email.')
})
export const AlertChannel = z.discriminatedUnion('type', [WebhookChannel, EmailChannel])

/** An alert's `channels`: at least one, at most the server's limit. */
const channelList = <T extends z.ZodType>(channel: T) =>
  z
    .array(channel)
    .min(1, { error: 'needs at least one channel' })
    .max(RESOURCE_LIMITS.alertChannels, {
      error: `an alert has at most ${RESOURCE_LIMITS.alertChannels} channels`
    })

export const Alert = z.strictObject({
  apiVersion,
  kind: z.literal('Alert').describe("An alert on a dashboard tile's value, or on a saved search."),
  name: text(LIMITS.alertName).describe(
    'Unique among the alerts (1-512 characters); how the plan finds it again.'
  ),
  dashboard: z
    .string()
    .min(1)
    .optional()
    .describe('Tile alerts: the dashboard, by name, from the manifests.'),
  tile: z.string().min(1).optional().describe('Tile alerts: the tile, by name, within that dashboard.'),
  tileId: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Tile alerts: the tile by its `id:` pin, where its name repeats on the dashboard (with `tile`, that must be its name).'
    ),
  source: z
    .enum(ALERT_SOURCES)
    .optional()
    .describe('tile (the default: `dashboard` and `tile`) or saved_search (`savedSearch`).'),
  savedSearch: z
    .string()
    .min(1)
    .optional()
    .describe("Saved-search alerts: the saved search, by name (a manifest's or an existing one)."),
  savedSearchId: z.string().min(1).optional().describe('Saved-search alerts: the saved search, by id.'),
  groupBy: z.string().optional().describe('Saved-search alerts: evaluate per value of this expression.'),
  threshold: z.number().describe('The value the watched value is compared with.'),
  thresholdMax: z
    .number()
    .optional()
    .describe('Upper bound for between and not_between (at least threshold).'),
  thresholdType: z
    .enum(THRESHOLD_TYPES)
    .describe(
      'When the alert fires: the value above, below, ... the threshold (between: within both bounds).'
    ),
  interval: z.enum(ALERT_INTERVALS).describe('How often the value is evaluated, over a window this long.'),
  channel: AlertChannel.optional().describe('Where the alert goes: `channel`, or a list in `channels`.'),
  channels: channelList(AlertChannel)
    .optional()
    .describe(
      `Up to ${RESOURCE_LIMITS.alertChannels} channels. Managed: several only where the cloud's alerts return \`channels\` (the published API takes one \`channel\`); otherwise a plan error.`
    ),
  displayName: text(LIMITS.alertDisplayName)
    .optional()
    .describe(
      "HyperDX after 2.36: the alert's name in the UI and its notifications (1-512 characters). Left out, the one set in the UI stays, or the server derives it from the dashboard tile or saved search. A server that does not return it ignores it."
    ),
  tags: z
    .array(
      z
        .string()
        .min(1)
        .max(LIMITS.tagLength, { error: `must be at most ${LIMITS.tagLength} characters` })
    )
    .max(LIMITS.tags, { error: `at most ${LIMITS.tags} tags` })
    .optional()
    .describe(
      "HyperDX after 2.36: the alert's tags. Left out, the ones set in the UI stay, or the server uses the dashboard's or saved search's."
    ),
  message: text(LIMITS.alertMessage).optional().describe('The notification text (at most 4096 characters).'),
  numConsecutiveWindows: atLeast(1)
    .optional()
    .describe('Fire only after this many windows in a row breach the threshold (default 1).'),
  note: text(LIMITS.note).optional().describe('A note for responders (at most 4096 characters).'),
  scheduleOffsetMinutes: between(0, LIMITS.scheduleOffsetMinutes)
    .optional()
    .describe('Minutes to shift each evaluation window by; less than the interval (default 0).'),
  scheduleStartAt: z.iso
    .datetime({ error: 'must be a UTC date and time like 2026-01-01T10:00:00Z' })
    .optional()
    .describe('Align the windows to this UTC time (within a year ahead, ten years back); offset must be 0.')
})

/** The self-hosted server takes webhook channels only (HyperDX zod.ts zAlertChannel). */
export const selfHostedAlert = once('self-hosted Alert schema', () =>
  Alert.extend({
    channel: WebhookChannel.optional().describe(Alert.shape.channel.description ?? ''),
    channels: channelList(WebhookChannel).optional()
  })
)
