/**
 * Webhook request bodies (POST /webhooks, PUT /webhooks/{id}: the whole body each time) as HyperDX 2.36 checks them:
 * zod.ts externalWebhookCreateSchema (header and query-parameter hardening, slack without headers, query parameters or
 * body), then utils/validators.ts validateWebhookUrl, whose failures are 400 `{message}`. The managed cloud's
 * ClickStackWebhookInput declares the same fields.
 */
import { isIP } from 'node:net'
import { addIssue, oneOf, parseWith, z, type Parsed } from './common.js'
import { WEBHOOK_SERVICES } from './vocabulary.js'

// eslint-disable-next-line no-control-regex
const hasControlChars = (value: string) => /[\r\n\t\x00-\x1F\x7F]/.test(value)

const headerName = z
  .string()
  .min(1, 'Header name cannot be empty')
  .max(256)
  .regex(
    /^[!#$%&'*+\-.0-9A-Z^_`a-z|~]+$/,
    "Invalid header name. Only alphanumeric characters and !#$%&'*+-.^_`|~ are allowed"
  )
  .refine(name => !/^\d/.test(name), 'Header name cannot start with a number')
const headerValue = z
  .string()
  .max(4096)
  .refine(value => !hasControlChars(value), { message: 'Header values cannot contain control characters' })
const queryKey = z
  .string()
  .min(1, 'Query parameter name cannot be empty')
  .max(1024)
  .refine(value => !hasControlChars(value), {
    message: 'Query parameter names cannot contain control characters'
  })
const queryValue = z
  .string()
  .max(4096)
  .refine(value => !hasControlChars(value), {
    message: 'Query parameter values cannot contain control characters'
  })

const SLACK_UNSUPPORTED = ['headers', 'queryParams', 'body'] as const

const schema = z
  .object({
    name: z.string().trim().min(1).max(1024),
    service: oneOf(WEBHOOK_SERVICES),
    url: z.string().url().max(2048),
    description: z.string().max(2048).optional(),
    queryParams: z
      .record(queryKey, queryValue)
      .refine(m => Object.keys(m).length <= 100, {
        message: 'A webhook cannot have more than 100 query parameters'
      })
      .optional(),
    headers: z
      .record(headerName, headerValue)
      .refine(m => Object.keys(m).length <= 100, { message: 'A webhook cannot have more than 100 headers' })
      .optional(),
    body: z.string().max(16384).optional()
  })
  .superRefine((value, ctx) => {
    if (value.service !== 'slack') return
    for (const field of SLACK_UNSUPPORTED)
      if (value[field] !== undefined)
        addIssue(ctx, `${field} is not supported for the slack webhook service`, [field])
  })

export type WebhookBody = z.infer<typeof schema>

export function parseWebhookBody(body: unknown): Parsed<WebhookBody> {
  return parseWith(schema, body)
}

/**
 * utils/validators.ts validateWebhookUrl, in its order. No host is on an allow list here, and the emulator's own
 * ClickHouse and Mongo are nowhere, so the "disallowed route" answer never comes.
 */
export function webhookUrlProblem(service: string, url: string): string | undefined {
  if (!url) return 'Webhook URL is not set'
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'Webhook URL is invalid'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'Webhook URL must use HTTP or HTTPS'
  const labels = parsed.hostname.split('.')
  const domain = labels.length >= 2 ? labels.slice(-2).join('.') : parsed.hostname
  if (service === 'slack' && domain !== 'slack.com')
    return `Slack Webhook URL ${url} does not have hostname that ends in 'slack.com'`
  const host = parsed.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateIp(host))
    return 'Webhook URL resolves to a private or reserved address.'
  return undefined
}

/** Private, loopback, link-local, CGNAT, multicast, unspecified and reserved literals (validators.ts isPrivateIp). */
function isPrivateIp(host: string): boolean {
  if (isIP(host) === 4) {
    const [a = 0, b = 0, c = 0] = host.split('.').map(Number)
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0 && (c === 0 || c === 2)) ||
      (a === 198 && (b === 18 || b === 19)) ||
      (a === 198 && b === 51 && c === 100) ||
      (a === 203 && b === 0 && c === 113) ||
      a >= 224
    )
  }
  if (isIP(host) !== 6) return false
  const mapped = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(host)
  if (mapped) return isPrivateIp(mapped[1]!)
  return /^(::1?|fe[89ab][0-9a-f]?:.*|f[cd][0-9a-f]{0,2}:.*|ff[0-9a-f]{0,2}:.*|2001:db8:.*|100::.*)$/i.test(
    host
  )
}
