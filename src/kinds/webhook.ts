/**
 * Webhooks, the alerts' destinations. The url is a secret the API returns: compared, shown only as
 * changed or unchanged. Headers and query parameters (and an incident.io `body`) are write-only: the plan
 * compares fingerprints of what the stack last sent (write-only.ts). PUT semantics (controllers/webhook.ts
 * updateWebhook): name, service, url always set; description and body cleared when omitted; headers and
 * query parameters kept when omitted, unless the url or service changes, which clears them, and `{}`
 * clears them. Owned through the registry (webhooks carry no tags).
 */
import { NOUNS } from './nouns.js'
import type { LiveWebhook } from '../api/schemas.js'
import { clean, type JsonObject } from '../json.js'
import type { WebhookSpec } from '../manifest/resources-schema.js'
import type { Kind } from './kind.js'
import {
  changesMoreThanOwner,
  desiredRecords,
  registryPair,
  recordWrites,
  registryNote,
  registryOwner,
  type RecordDesired
} from './records.js'
import type { RegistryEntry } from './registry.js'
import type { FingerprintKey } from './fingerprint-key.js'
import { entryAfterWrite, secretMarkers, writeOnlyState, type WriteOnlyState } from './write-only.js'
import { webhookExport } from './webhook-export.js'

type Desired = RecordDesired<WebhookSpec>
const WRITE_ONLY_MAPS = ['headers', 'queryParams'] as const

/** incident.io takes a body and never returns it; generic returns it (zod.ts externalWebhookSchema). */
const bodyIsWriteOnly = (service: string | null | undefined) => service === 'incidentio'

export const webhookKind: Kind<Desired, LiveWebhook> = {
  kind: 'Webhook',
  nouns: NOUNS.Webhook,
  fingerprint: { specs: 'webhooks', whenEmpty: true, names: { key: 'webhooks', at: 1 } },
  referredBy: [{ key: 'webhookId', as: 'webhook' }],
  copies: undefined,
  seenOn: undefined,
  // The server refuses to delete an alert's first channel (409), and deletes a later one, leaving the alert pointing
  // at nothing (docs/real-server.md).
  heldWhileUsed: { fields: ['webhookId'] },
  unnamedUses: undefined,
  exports: webhookExport,
  live: { read: api => api.listWebhooks() },

  desired: ctx => desiredRecords('Webhook', ctx.manifests.specs.Webhook, ctx.live.Webhook, ctx),

  // models/webhook.ts: a unique index on team, service and name.
  pair: registryPair(
    'Webhook',
    ctx => ctx.live.Webhook,
    (spec, l) =>
      (spec as WebhookSpec).service === l.service
        ? `the server allows one webhook of a service and name in a team (it answers "A webhook with this service and name already exists"): give one of them another name or another service`
        : undefined
  ),

  normalDesired(d, ctx, live) {
    const s = d.value.spec
    const states = writeOnly(
      s,
      live ? ctx.registry.entry('Webhook', live.id) : undefined,
      ctx.settings.fingerprintKey
    )
    const shown = (st: WriteOnlyState | undefined) => (st?.removed ? undefined : st?.desired)
    return normal({
      name: s.name,
      owner: ctx.settings.ownershipTag,
      service: s.service,
      url: secretMarkers(s.url, live?.url).desired,
      description: s.description,
      body: bodyIsWriteOnly(s.service) ? shown(states.body) : s.body,
      headers: shown(states.headers),
      queryParams: shown(states.queryParams)
    })
  },

  normalLive(l, ctx) {
    const entry = ctx.registry.entry('Webhook', l.id)
    return normal({
      name: l.name,
      owner: registryOwner('Webhook', l.id, ctx),
      service: l.service,
      url: secretMarkers(undefined, l.url).live,
      description: l.description,
      // The live side shows only whether a value was recorded: no key is needed for that.
      body: bodyIsWriteOnly(l.service) ? writeOnlyState('body', undefined, entry, undefined).live : l.body,
      headers: writeOnlyState('headers', undefined, entry, undefined).live,
      queryParams: writeOnlyState('queryParams', undefined, entry, undefined).live
    })
  },

  liveName: l => l.name,
  liveId: l => l.id,

  refine(pc, ctx) {
    const { change, desired, live } = pc
    registryNote(change, ctx)
    if (!desired || !live || change.action !== 'update') return
    const s = desired.value.spec
    const entry = ctx.registry.entry('Webhook', live.id)
    if (destinationChanges(s, live)) {
      const unmanaged = WRITE_ONLY_MAPS.filter(f => s[f] === undefined && !entry?.writeOnly?.[f])
      if (unmanaged.length > 0)
        change.notes.push(
          `its url or service changes, and the server then clears ${unmanaged.join(' and ')} the manifest does not set (any set outside it are lost)`
        )
    }
    if (
      bodyIsWriteOnly(s.service) &&
      s.body === undefined &&
      !entry?.writeOnly?.body &&
      changesMoreThanOwner(change)
    )
      change.notes.push(
        'an incident.io body is write-only: one set outside the manifest would be cleared by this update'
      )
  },

  ...recordWrites<Desired, LiveWebhook>(() => ({
    kind: 'Webhook',
    collection: 'webhooks',
    liveId: l => l.id,
    liveName: l => l.name,
    list: async ctx => (await ctx.api.listWebhooks()) ?? [],
    find: (all, body) => all.find(l => l.name === body.name && l.service === body.service),
    createBody: d => {
      const out = readable(d.spec)
      for (const f of WRITE_ONLY_MAPS) if (d.spec[f] !== undefined) out[f] = d.spec[f]
      return out
    },
    updateBody(d, live, change, octx) {
      if (!changesMoreThanOwner(change)) return undefined
      const s = d.spec
      const out = readable(s)
      const states = writeOnly(s, octx.registry.entry('Webhook', live.id), octx.settings.fingerprintKey)
      const moved = destinationChanges(s, live)
      for (const f of WRITE_ONLY_MAPS) {
        const st = states[f]!
        // Omitted, the server keeps them; a new destination clears them: send them again then.
        if (s[f] !== undefined && (st.changed || moved)) out[f] = s[f]
        else if (st.removed) out[f] = {}
      }
      return out
    },
    entryAfter(d, sent, live, octx) {
      const s = d.spec
      const previous = live ? octx.registry.entry('Webhook', live.id) : undefined
      const written: Record<string, unknown> = {}
      const cleared: string[] = []
      for (const f of WRITE_ONLY_MAPS) if (sent && f in sent) written[f] = sent[f]
      if (sent && live && destinationChanges(s, live))
        for (const f of WRITE_ONLY_MAPS) if (!(f in sent)) cleared.push(f)
      if (sent && bodyIsWriteOnly(s.service)) {
        if (s.body !== undefined) written.body = s.body
        else cleared.push('body')
      } else if (sent) cleared.push('body')
      // A registry entry is what owning means (registry.ts owns), so one of the same name is an owned webhook.
      if (
        previous?.name === s.name &&
        Object.keys(written).length === 0 &&
        cleared.every(f => !previous.writeOnly?.[f])
      )
        return undefined
      return entryAfterWrite(s.name, previous, written, octx.settings.fingerprintKey, cleared)
    }
  }))
}

/** The fields a PUT replaces every time (an omitted description or body is cleared). */
function readable(s: WebhookSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { name: s.name, service: s.service, url: s.url }
  if (s.description !== undefined) out.description = s.description
  if (s.body !== undefined) out.body = s.body
  return out
}

const destinationChanges = (s: WebhookSpec, live: LiveWebhook): boolean =>
  s.url !== (live.url ?? undefined) || s.service !== live.service

function writeOnly(
  s: WebhookSpec,
  entry: RegistryEntry | undefined,
  key: FingerprintKey | undefined
): Partial<Record<string, WriteOnlyState>> {
  const out: Partial<Record<string, WriteOnlyState>> = {}
  for (const f of WRITE_ONLY_MAPS) out[f] = writeOnlyState(f, s[f], entry, key)
  if (bodyIsWriteOnly(s.service)) out.body = writeOnlyState('body', s.body, entry, key)
  return out
}

function normal(o: Record<string, unknown>): JsonObject {
  return (clean(o) ?? {}) as JsonObject
}
