/**
 * PATCH of a managed service (the cloud's OpenAPI ServicePatchRequest; CONTRACT.md "update service basic details").
 * The document declares every field optional and no pattern on `name`; its description and CONTRACT.md say
 * "alphanumerical with whitespaces, up to 50 characters". The cloud refuses fields it does not know. The exact text
 * of the cloud's 400s is not published: these messages are the emulator's, in zod's wording.
 */
import { isIP } from 'node:net'
import { oneOf, parseWith, z, type Parsed } from './common.js'

const tag = z
  .object({
    key: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[a-zA-Z0-9._-]+$/),
    value: z
      .string()
      .max(256)
      .regex(/^[a-zA-Z0-9._-]*$/)
      .optional()
  })
  .strict()
/** An IPv4/IPv6 address or CIDR block (the document: "IP or CIDR"). */
const isIpOrCidr = (value: string): boolean => {
  const [address = '', prefix, ...rest] = value.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
}
const entry = z
  .object({
    source: z.string().refine(isIpOrCidr, 'Invalid IP address or CIDR'),
    description: z.string().optional()
  })
  .strict()
const addRemove = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ add: z.array(item).optional(), remove: z.array(item).optional() }).strict()

const body = z
  .object({
    name: z
      .string()
      .min(1)
      .max(50)
      .regex(/^[A-Za-z0-9\s]*$/, 'Service name must contain only letters, digits and whitespace'),
    ipAccessList: addRemove(entry),
    privateEndpointIds: addRemove(z.string()),
    releaseChannel: oneOf(['slow', 'default', 'fast'] as const),
    endpoints: z.array(z.object({ protocol: z.enum(['mysql']), enabled: z.boolean() }).strict()),
    transparentDataEncryptionKeyId: z.string(),
    tags: addRemove(tag).refine(
      patch => (patch.add?.length ?? 0) <= 50 && (patch.remove?.length ?? 0) <= 50,
      'Array must contain at most 50 element(s)'
    ),
    enableCoreDumps: z.boolean()
  })
  .partial()
  .strict()

export type ServicePatch = z.infer<typeof body>

export function parseServicePatch(input: unknown): Parsed<ServicePatch> {
  return parseWith(body, input)
}
