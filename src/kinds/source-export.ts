/**
 * Data sources as manifests: all in `sources.yaml`, the fields the API returns in the manifest's words (other
 * sources and the connection by name, `kind` as `sourceKind`, server defaults left out), `adopt: true` on those
 * the stack does not own yet.
 */
import type { LiveSource } from '../api/schemas.js'
import { SOURCE_REFERENCES } from '../manifest/resources-schema.js'
import { twinPin, withComments } from './exporting.js'
import type { KindExport } from './kind.js'

/** Fields never written: computed, identity, or written in the manifest's words below. */
const SKIP = new Set(['id', 'name', 'kind', 'connection', 'createdAt', 'updatedAt', 'team', 'teamId'])

export const sourceExport: KindExport<LiveSource> = {
  list: 'sources',
  writes: {
    to: { file: 'sources' },
    tags: undefined,
    skips: undefined,
    writer: ctx => {
      const apiRefs = new Map<string, string>(SOURCE_REFERENCES.map(([field, api]) => [api, field]))
      return s => {
        const comments: string[] = []
        const value: Record<string, unknown> = {
          kind: 'Source',
          name: s.name,
          ...twinPin(ctx.namer, 'Source', s, comments),
          sourceKind: s.kind
        }
        if (ctx.mode === 'managed') {
          if (s.connection) value.connectionId = s.connection
        } else
          Object.assign(
            value,
            ctx.namer.ref('Connection', 'connection', s.connection, comments, 'connection')
          )
        for (const [key, v] of Object.entries(s)) {
          if (SKIP.has(key) || v === null || v === undefined) continue
          const field = apiRefs.get(key)
          if (field) Object.assign(value, ctx.namer.ref('Source', field, v, comments, 'source'))
          else if (isDefault(s.kind, key, v)) continue
          else value[key] = v
        }
        if (!ctx.registry.owns('Source', s.id)) value.adopt = true
        return { documents: [withComments(value, comments)], carried: 0 }
      }
    }
  }
}

/** What the server returns for a field that was never set (real-server.md §4, response-fields.md §9). */
function isDefault(kind: unknown, key: string, value: unknown): boolean {
  if (Array.isArray(value) && value.length === 0) return true
  if (value === '') return true
  if (key === 'disabled' && value === false) return true
  return kind === 'trace' && key === 'durationPrecision' && value === 3
}
