/**
 * The managed service's basic details (CONTRACT.md, "Managed control plane"). Declarative: the service
 * is read, and the smallest PATCH that reaches the manifest is computed. Only the fields the manifest
 * declares are managed. Applied only when the release gate is open, then read back to confirm.
 */
import { NOUNS } from './nouns.js'
import type { ServiceResponse } from '../api/client.js'
import { ApiError, UnknownOutcomeError } from '../api/errors.js'
import type { LiveService } from '../api/schemas.js'
import { diagnostic } from '../diagnostics.js'
import { clean, sortedKeys, type JsonObject } from '../json.js'
import type { ServiceSettingsSpec } from '../manifest/schema.js'
import { diffValues } from '../plan/diff.js'
import { DesiredAt } from './desired-at.js'
import type { ApplyContext, Kind } from './kind.js'

type IpEntry = { source: string; description?: string }

/** Reads of the service after a PATCH, waiting a little longer each time, before a difference counts. */
const CONVERGENCE_READS = 3
const CONVERGENCE_WAIT_MS = 1000

export const serviceSettingsKind: Kind<ServiceSettingsSpec, LiveService> = {
  kind: 'ServiceSettings',
  nouns: NOUNS.ServiceSettings,
  fingerprint: { specs: 'services', whenEmpty: true },
  referredBy: undefined,
  copies: undefined,
  seenOn: undefined,
  heldWhileUsed: undefined,
  unnamedUses: undefined,
  exports: undefined,
  live: {
    read: async (api, options) => ((await options.service) ? [(await api.getService()).service] : undefined)
  },
  keyedPaths: new Set(['ipAccessList', 'endpoints']),

  desired(ctx) {
    if (ctx.settings.mode !== 'managed') return []
    // One at most: validation refuses a second (rules.ts).
    return ctx.manifests.specs.ServiceSettings.map(
      ({ spec, doc }) => new DesiredAt(spec.name ?? 'service', 'ServiceSettings/service', spec, doc, 'kind')
    )
  },

  pair(desired, ctx) {
    return { pairs: desired.map(d => ({ desired: d, live: ctx.live.ServiceSettings?.[0] })), orphans: [] }
  },

  normalDesired(d) {
    return desiredNormal(d.value)
  },

  normalLive(l, ctx) {
    const declared = ctx.manifests.specs.ServiceSettings[0]?.spec
    return declared ? liveNormal(l, declared) : {}
  },

  liveName: l => l.name ?? 'service',
  liveId: l => l.id,

  refine(pc, ctx) {
    const { change, desired, live } = pc
    if (!desired || !live) return
    if (change.action === 'noop') return
    const { first, rotation } = patchesOf(patchBody(desired.value, live))
    change.request = { method: 'PATCH', path: ctx.settings.servicePath ?? '', body: first ?? rotation }
    if (first && rotation)
      change.notes.push(
        `the TDE key rotation goes alone, in a second PATCH ${JSON.stringify(rotation)}, once a read of the service shows it has transparent data encryption`
      )
    const at = (field: string) => ({ ...ctx.manifests.specs.ServiceSettings[0]!.doc.locate([field]), field })
    const channel = first?.releaseChannel
    // As the ClickHouse Terraform provider: only a development service is held to the default channel.
    if (channel !== undefined && channel !== 'default' && live.tier === 'development')
      ctx.report(
        diagnostic(
          'plan',
          'error',
          `releaseChannel "${String(channel)}": this service's tier is development, whose channel can only be "default"`,
          at('releaseChannel')
        )
      )
    if (rotation && live.hasTransparentDataEncryption === false)
      ctx.report(
        diagnostic(
          'plan',
          'error',
          'this service was not created with transparent data encryption: its key cannot be rotated',
          at('transparentDataEncryptionKeyId')
        )
      )
    if (!ctx.settings.serviceGate.open) {
      change.deferred = 'release'
      change.notes.push(`not applied by this run: ${ctx.settings.serviceGate.reason}`)
    } else {
      change.notes.push(`applied by this run: ${ctx.settings.serviceGate.reason}`)
    }
  },

  operations(pc) {
    const { change, desired, live } = pc
    // A no-op carries no request (refine sets one only for a change).
    if (!desired || !live || change.deferred || !change.request) return []
    return [
      {
        address: change.address,
        label: 'PATCH',
        provides: [],
        after: [],
        run: async ctx => {
          const patched = await patchUntilSent(ctx, desired.value, live, 'settings')
          const rotated = await patchUntilSent(ctx, desired.value, live, 'rotation')
          const last = rotated ?? patched
          // Confirm by reading the service again, not by trusting the PATCH response; a cloud may take a
          // moment to show a change, so a difference is re-read a few times before it counts.
          let remaining: string[] = []
          let service = last?.service
          for (let attempt = 0; attempt < CONVERGENCE_READS; attempt++) {
            if (attempt > 0) await new Promise(resolve => setTimeout(resolve, CONVERGENCE_WAIT_MS * attempt))
            service = (await ctx.api.getService()).service
            remaining = diffValues(liveNormal(service, desired.value), desiredNormal(desired.value)).map(
              f =>
                `${f.path}: server has ${JSON.stringify(f.before ?? null)}, manifest wants ${JSON.stringify(f.after ?? null)}`
            )
            if (remaining.length === 0) break
          }
          return {
            status: 'applied',
            id: service?.id,
            requestId: last?.requestId,
            result: last?.service ?? service,
            convergence: { converged: remaining.length === 0, remaining }
          }
        }
      }
    ]
  },

  // As operations: the settings' PATCH, the rotation's read and PATCH, and one read that finds them converged.
  requests({ change, desired, live }) {
    if (!desired || !live || change.deferred || !change.request) return { requests: 0 }
    const { first, rotation } = patchesOf(patchBody(desired.value, live))
    return { requests: (first ? 1 : 0) + (rotation ? 2 : 0) + 1 }
  }
}

/**
 * The PATCH bodies of a change: the settings, and the TDE key rotation on its own, as the ClickHouse Terraform
 * provider sends it (`internal/api/service.go` RotateTDEKey, a body of the key id alone).
 */
export function patchesOf(body: Record<string, unknown>): {
  first?: Record<string, unknown>
  rotation?: Record<string, unknown>
} {
  const { transparentDataEncryptionKeyId: key, ...rest } = body
  return {
    ...(Object.keys(rest).length > 0 ? { first: rest } : {}),
    ...(key !== undefined ? { rotation: { transparentDataEncryptionKeyId: key } } : {})
  }
}

/**
 * Sends one of the change's PATCHes as the service now needs it: read first for the rotation (it goes only to a
 * service with TDE), and read again after a lost response, so only what still differs is sent.
 */
async function patchUntilSent(
  ctx: ApplyContext,
  spec: ServiceSettingsSpec,
  planned: LiveService,
  which: 'settings' | 'rotation'
): Promise<ServiceResponse | undefined> {
  const part = (service: LiveService) => {
    const patches = patchesOf(patchBody(spec, service))
    return which === 'settings' ? patches.first : patches.rotation
  }
  let body = part(planned)
  if (which === 'rotation' && body) {
    const now = (await ctx.api.getService()).service
    body = part(now)
    if (body && now.hasTransparentDataEncryption !== true)
      throw new Error(
        'not sent: the service does not have transparent data encryption (hasTransparentDataEncryption), so its key cannot be rotated'
      )
  }
  if (!body) return undefined
  try {
    return await sendPatch(ctx, body)
  } catch (e) {
    if (!(e instanceof UnknownOutcomeError)) throw e
    // The PATCH may have been applied: read the service and send only what still differs.
    ctx.log.warn(`${e.message}: re-reading the service before sending what still differs`)
    const rest = part((await ctx.api.getService()).service)
    return rest ? sendPatch(ctx, rest) : undefined
  }
}

/** A refusal of a release channel says what the contract says of it. */
async function sendPatch(ctx: ApplyContext, patch: Record<string, unknown>): Promise<ServiceResponse> {
  try {
    return await ctx.api.patchService(patch)
  } catch (e) {
    const release = patch.releaseChannel !== undefined
    if (e instanceof ApiError && e.status === 400 && release && /release/i.test(e.serverMessage ?? '')) {
      throw new Error(`${e.message}. CONTRACT.md: releaseChannel is only available for production services`, {
        cause: e
      })
    }
    throw e
  }
}

function desiredNormal(s: ServiceSettingsSpec): JsonObject {
  return withIpAccessList(s.ipAccessList, {
    name: s.name,
    releaseChannel: s.releaseChannel,
    privateEndpointIds: s.privateEndpointIds ? [...s.privateEndpointIds].sort() : undefined,
    endpoints: s.endpoints ? Object.fromEntries(s.endpoints.map(e => [e.protocol, e.enabled])) : undefined,
    transparentDataEncryptionKeyId: s.transparentDataEncryptionKeyId
  })
}

/** The live service, restricted to the fields the manifest declares (the rest is not managed). */
function liveNormal(l: LiveService, declared: ServiceSettingsSpec): JsonObject {
  return withIpAccessList(declared.ipAccessList ? liveIps(l) : undefined, {
    name: declared.name !== undefined ? l.name : undefined,
    releaseChannel: declared.releaseChannel !== undefined ? l.releaseChannel : undefined,
    privateEndpointIds: declared.privateEndpointIds ? [...(l.privateEndpointIds ?? [])].sort() : undefined,
    endpoints: declared.endpoints
      ? Object.fromEntries(declared.endpoints.map(e => [e.protocol, endpointEnabled(l, e.protocol)]))
      : undefined,
    transparentDataEncryptionKeyId:
      declared.transparentDataEncryptionKeyId !== undefined ? l.transparentDataEncryptionKeyId : undefined
  })
}

/**
 * The cleaned fields, and the IP access list as `{source: description}` (entries are matched on source,
 * FACTS.md). The list is added after `clean`, which drops empty strings: an entry without a description
 * would vanish from both sides, and the plan would neither show nor send its addition or removal. Keys
 * stay sorted, as `clean` leaves them (normal forms are compared and hashed as JSON text).
 */
function withIpAccessList(
  entries: readonly IpEntry[] | undefined,
  fields: Record<string, unknown>
): JsonObject {
  const out = (clean(fields) ?? {}) as JsonObject
  if (entries)
    out.ipAccessList = sorted(Object.fromEntries(entries.map(e => [ipKey(e.source), e.description ?? ''])))
  return sorted(out)
}

const sorted = (o: JsonObject): JsonObject => Object.fromEntries(sortedKeys(o).map(k => [k, o[k]!]))

/**
 * One address is the same entry as its one-address CIDR: `a.b.c.d` and `a.b.c.d/32` (IPv6: `/128`).
 * A cloud may store one and return the other (unverified on the real cloud); either way it is no change.
 */
export function ipKey(source: string): string {
  const address = source.trim().toLowerCase()
  if (address.includes('/')) return address
  return address.includes(':') ? `${address}/128` : `${address}/32`
}

const liveIps = (l: LiveService): IpEntry[] =>
  (l.ipAccessList ?? []).map(e => ({ source: e.source, description: e.description ?? undefined }))

/** An endpoint is on when the service lists it (and does not say `enabled: false`). */
function endpointEnabled(l: LiveService, protocol: string): boolean {
  const e = (l.endpoints ?? []).find(x => x.protocol === protocol)
  return e !== undefined && e.enabled !== false
}

/**
 * The smallest PATCH: lists become remove-then-add (matched on `source`; a changed description is a
 * remove plus an add), endpoints only where their state differs, scalars only when they differ.
 */
export function patchBody(s: ServiceSettingsSpec, l: LiveService): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  if (s.name !== undefined && s.name !== l.name) body.name = s.name
  if (s.ipAccessList) {
    const live = liveIps(l)
    const key = (e: IpEntry) => `${ipKey(e.source)}\u0000${e.description ?? ''}`
    const wanted = new Set(s.ipAccessList.map(key))
    const present = new Set(live.map(key))
    const remove = live
      .filter(e => !wanted.has(key(e)))
      .map(e => ({ source: e.source, description: e.description ?? '' }))
    const add = s.ipAccessList
      .filter(e => !present.has(key(e)))
      .map(e => ({ source: e.source, description: e.description ?? '' }))
    if (remove.length > 0 || add.length > 0)
      body.ipAccessList = { ...(remove.length ? { remove } : {}), ...(add.length ? { add } : {}) }
  }
  if (s.privateEndpointIds) {
    const live = l.privateEndpointIds ?? []
    const remove = live.filter(id => !s.privateEndpointIds!.includes(id))
    const add = s.privateEndpointIds.filter(id => !live.includes(id))
    if (remove.length > 0 || add.length > 0)
      body.privateEndpointIds = { ...(remove.length ? { remove } : {}), ...(add.length ? { add } : {}) }
  }
  if (s.releaseChannel !== undefined && s.releaseChannel !== l.releaseChannel)
    body.releaseChannel = s.releaseChannel
  if (s.endpoints) {
    const changed = s.endpoints.filter(e => endpointEnabled(l, e.protocol) !== e.enabled)
    if (changed.length > 0) body.endpoints = changed.map(e => ({ protocol: e.protocol, enabled: e.enabled }))
  }
  if (
    s.transparentDataEncryptionKeyId !== undefined &&
    s.transparentDataEncryptionKeyId !== l.transparentDataEncryptionKeyId
  ) {
    body.transparentDataEncryptionKeyId = s.transparentDataEncryptionKeyId
  }
  return body
}
