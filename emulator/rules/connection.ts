/**
 * Connection request bodies (self-hosted only: the cloud has no connections route), as v2/connections.ts checks
 * them: common-utils types.ts ConnectionSchema without `id` on POST; on PUT `hyperdxSettingPrefix` may also be ''
 * (which clears it).
 */
import { parseWith, z, type Parsed } from './common.js'

const prefix = z
  .string()
  .regex(/^[a-z0-9_]+$/i)
  .optional()
  .nullable()
const base = {
  name: z.string(),
  host: z.string(),
  username: z.string(),
  password: z.string().optional(),
  isPrometheusEndpoint: z.boolean().optional()
}
const create = z.object({ ...base, hyperdxSettingPrefix: prefix })
const update = z.object({
  ...base,
  hyperdxSettingPrefix: z
    .string()
    .regex(/^[a-z0-9_]+$/i)
    .or(z.literal(''))
    .optional()
    .nullable()
})

export type ConnectionBody = z.infer<typeof update>

export function parseConnectionBody(body: unknown, op: 'create' | 'update'): Parsed<ConnectionBody> {
  return parseWith(op === 'create' ? create : update, body)
}
