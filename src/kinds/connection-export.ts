/**
 * Connections as manifests: all in `connections.yaml`, `adopt: true` on those the stack does not own yet. The
 * password is write-only (the API never returns it): a comment says how to manage it.
 */
import type { LiveConnection } from '../api/schemas.js'
import { twinPin, withComments } from './exporting.js'
import type { KindExport } from './kind.js'

export const connectionExport: KindExport<LiveConnection> = {
  list: 'connections',
  writes: {
    to: { file: 'connections' },
    tags: undefined,
    skips: undefined,
    writer: ctx => c => {
      const comments: string[] = [
        `password: write-only (the API never returns it); to manage it, add \`password: \${secret.${ctx.secrets.name(['CONNECTION', c.name, 'PASSWORD'], false)}}\``
      ]
      const value: Record<string, unknown> = {
        kind: 'Connection',
        name: c.name,
        ...twinPin(ctx.namer, 'Connection', c, comments),
        host: c.host ?? '',
        username: c.username ?? ''
      }
      if (c.hyperdxSettingPrefix) value.hyperdxSettingPrefix = c.hyperdxSettingPrefix
      if (c.isPrometheusEndpoint) value.isPrometheusEndpoint = true
      if (!ctx.registry.owns('Connection', c.id)) value.adopt = true
      return { documents: [withComments(value, comments)], carried: 0 }
    }
  }
}
