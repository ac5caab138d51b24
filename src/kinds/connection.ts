/**
 * ClickHouse connections (self-hosted only: the cloud has no connections route). The password is
 * write-only: never returned, so the plan compares a fingerprint of what the stack last sent
 * (write-only.ts). A PUT without a password keeps the stored one, so a password cannot be cleared
 * (v2/connections.ts); `hyperdxSettingPrefix: null` clears the prefix. Owned through the registry.
 */
import { NOUNS } from './nouns.js'
import type { LiveConnection } from '../api/schemas.js'
import { diagnostic } from '../diagnostics.js'
import { clean, type JsonObject } from '../json.js'
import type { ConnectionSpec } from '../manifest/resources-schema.js'
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
import { entryAfterWrite, writeOnlyState } from './write-only.js'
import { connectionExport } from './connection-export.js'

type Desired = RecordDesired<ConnectionSpec>

export const connectionKind: Kind<Desired, LiveConnection> = {
  kind: 'Connection',
  nouns: NOUNS.Connection,
  fingerprint: { specs: 'connections', whenEmpty: true, names: { key: 'connections', at: 2 } },
  referredBy: [{ key: 'connectionId', as: 'connection' }],
  copies: undefined,
  seenOn: undefined,
  // The server deletes a connection whatever still names it (docs/real-server.md).
  heldWhileUsed: { fields: ['connectionId'] },
  unnamedUses: undefined,
  exports: connectionExport,
  live: { read: api => api.listConnections() },

  desired: ctx => desiredRecords('Connection', ctx.manifests.specs.Connection, ctx.live.Connection, ctx),

  pair: registryPair('Connection', ctx => ctx.live.Connection),

  normalDesired(d, ctx, live) {
    const s = d.value.spec
    const password = writeOnlyState(
      'password',
      s.password,
      live && ctx.registry.entry('Connection', live.id),
      ctx.settings.fingerprintKey
    )
    return normal({
      name: s.name,
      owner: ctx.settings.ownershipTag,
      host: s.host,
      username: s.username,
      hyperdxSettingPrefix: s.hyperdxSettingPrefix,
      isPrometheusEndpoint: s.isPrometheusEndpoint,
      // A password cannot be cleared through the API: one the manifest dropped stays (refine warns).
      password: password.removed ? password.live : password.desired
    })
  },

  normalLive(l, ctx) {
    return normal({
      name: l.name,
      owner: registryOwner('Connection', l.id, ctx),
      host: l.host,
      username: l.username,
      hyperdxSettingPrefix: l.hyperdxSettingPrefix,
      isPrometheusEndpoint: l.isPrometheusEndpoint,
      password: writeOnlyState('password', undefined, ctx.registry.entry('Connection', l.id), undefined).live
    })
  },

  liveName: l => l.name,
  liveId: l => l.id,

  refine(pc, ctx) {
    const { change, desired, live } = pc
    registryNote(change, ctx)
    if (!desired || !live || desired.value.spec.password !== undefined) return
    if (writeOnlyState('password', undefined, ctx.registry.entry('Connection', live.id), undefined).removed)
      ctx.report(
        diagnostic(
          'plan',
          'warning',
          `connection "${desired.name}": the manifest no longer sets a password, but the API cannot clear one (a PUT without a password keeps the stored one): it stays as it is`,
          desired.source
        )
      )
  },

  ...recordWrites<Desired, LiveConnection>(() => ({
    kind: 'Connection',
    collection: 'connections',
    liveId: l => l.id,
    liveName: l => l.name,
    list: async ctx => (await ctx.api.listConnections()) ?? [],
    createBody: d => body(d.spec, true),
    updateBody(d, _live, change) {
      if (!changesMoreThanOwner(change)) return undefined
      const out = body(
        d.spec,
        change.fields.some(f => f.path === 'password')
      )
      // PUT keeps an omitted prefix and flag (v2/connections.ts): send what the manifest means by absent.
      out.hyperdxSettingPrefix = d.spec.hyperdxSettingPrefix ?? null
      out.isPrometheusEndpoint = d.spec.isPrometheusEndpoint ?? false
      return out
    },
    entryAfter(d, sent, live, octx) {
      const previous = live ? octx.registry.entry('Connection', live.id) : undefined
      const password = sent?.password
      // A registry entry is what owning means (registry.ts owns).
      if (password === undefined && previous?.name === d.spec.name) return undefined
      return entryAfterWrite(
        d.spec.name,
        previous,
        password === undefined ? {} : { password },
        octx.settings.fingerprintKey
      )
    }
  }))
}

function body(s: ConnectionSpec, withPassword: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { name: s.name, host: s.host, username: s.username }
  if (withPassword && s.password !== undefined) out.password = s.password
  if (s.hyperdxSettingPrefix !== undefined) out.hyperdxSettingPrefix = s.hyperdxSettingPrefix
  if (s.isPrometheusEndpoint !== undefined) out.isPrometheusEndpoint = s.isPrometheusEndpoint
  return out
}

/** Absent, null, '' and false (the flag's default) compare equal. */
function normal(o: Record<string, unknown>): JsonObject {
  if (o.isPrometheusEndpoint === false) o.isPrometheusEndpoint = undefined
  return (clean(o) ?? {}) as JsonObject
}
