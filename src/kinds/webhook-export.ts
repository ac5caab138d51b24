/**
 * Webhooks as manifests: all in `webhooks.yaml`, `adopt: true` on those the stack does not own yet. The url is a
 * secret, never written: it becomes a `${secret.NAME}` placeholder, and the file's header names the variables to
 * set; headers and query parameters (and an incident.io body) are write-only, named in a comment. A webhook the API
 * cannot write (managed `slack_api`, `pagerduty_api`) is left out, and the header says so.
 */
import type { LiveWebhook } from '../api/schemas.js'
import { WEBHOOK_SERVICES } from '../manifest/vocabulary.js'
import { twinPin, withComments } from './exporting.js'
import type { KindExport } from './kind.js'

export const webhookExport: KindExport<LiveWebhook> = {
  list: 'webhooks',
  writes: {
    to: { file: 'webhooks' },
    tags: undefined,
    skips: undefined,
    writer: ctx => w => {
      if (!(WEBHOOK_SERVICES as readonly string[]).includes(w.service ?? ''))
        return {
          documents: [],
          carried: 0,
          notes: [
            `webhook "${w.name}" (${w.id}) is a ${w.service} webhook, which the API cannot create or update: not exported`
          ]
        }
      const comments: string[] = []
      const secret = ctx.secrets.name(['WEBHOOK', w.name, 'URL'])
      comments.push(
        `url: a secret, never written here: set the secret variable ${secret} to this webhook's url (secret-vars; the CLI: OBSDEPLOY_SECRET_${secret})`
      )
      if (w.service !== 'slack')
        comments.push(
          'headers and queryParams are write-only (the API never returns them): declare them with ${secret.NAME} values to manage them'
        )
      if (w.service === 'incidentio')
        comments.push('an incident.io body is write-only too: add `body:` to manage it')
      const value: Record<string, unknown> = {
        kind: 'Webhook',
        name: w.name,
        ...twinPin(ctx.namer, 'Webhook', w, comments),
        service: w.service,
        url: `\${secret.${secret}}`
      }
      if (w.description) value.description = w.description
      if (w.service === 'generic' && w.body) value.body = w.body
      if (!ctx.registry.owns('Webhook', w.id)) value.adopt = true
      return { documents: [withComments(value, comments)], carried: 0 }
    }
  }
}
