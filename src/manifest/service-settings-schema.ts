/** Managed mode's ServiceSettings kind: the database service's settings, applied on a release. */
import { z } from 'zod'
import { once } from './once.js'
import { apiVersion } from './schema-fields.js'
import { ENDPOINT_PROTOCOLS, LIMITS, RELEASE_CHANNELS } from './vocabulary.js'

/** Managed mode's service settings: built on first use, as few repositories hold them. */
export const serviceSettings = once('ServiceSettings schema', () => {
  const IpAccessEntry = z
    .strictObject({
      source: z.string().min(1).describe('IPv4/IPv6 address or CIDR.'),
      description: z.string().optional().describe('What the entry is for.')
    })
    .describe('An address allowed to connect.')

  return z.strictObject({
    apiVersion,
    kind: z
      .literal('ServiceSettings')
      .describe("Managed mode: the database service's settings, applied on a release (service-update)."),
    name: z
      .string()
      .min(1, { error: 'must be 1-50 letters, digits and whitespace' })
      .max(LIMITS.serviceName, {
        error: `must be at most ${LIMITS.serviceName} characters (letters, digits and whitespace)`
      })
      .optional()
      .describe("The service's name: 1-50 letters, digits and whitespace."),
    releaseChannel: z
      .enum(RELEASE_CHANNELS)
      .optional()
      .describe('How soon the service gets upgrades: slow, default or fast (production services only).'),
    ipAccessList: z
      .array(IpAccessEntry)
      .optional()
      .describe('The addresses allowed to connect: the whole list (entries are matched on source).'),
    privateEndpointIds: z
      .array(z.string().min(1))
      .optional()
      .describe('Private endpoints allowed to connect: the whole list.'),
    endpoints: z
      .array(
        z
          .strictObject({
            protocol: z.enum(ENDPOINT_PROTOCOLS).describe('mysql: the MySQL-compatible endpoint.'),
            enabled: z.boolean().describe('Whether it is on.')
          })
          .describe('An optional endpoint.')
      )
      .optional()
      .describe('Optional endpoints to turn on or off.'),
    transparentDataEncryptionKeyId: z
      .string()
      .min(1)
      .optional()
      .describe('Rotate transparent data encryption to this key (services with TDE only).')
  })
})
