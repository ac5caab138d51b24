import { ApiError, bodyValidationError, isPlainObject } from './errors.js'
import { parseServicePatch } from './rules/index.js'
import type { IpAccessListEntry, JsonObject, ServiceRecord } from './types.js'

/**
 * PATCH /v1/organizations/{org}/services/{svc} (managed OpenAPI ServicePatchRequest; CONTRACT.md and FACTS.md
 * "Managed mode"). Every field is optional. Returns the updated record; the input record is not modified when the
 * request is refused.
 */
export function patchService(service: ServiceRecord, input: unknown): ServiceRecord {
  const parsed = parseServicePatch(input)
  if (!parsed.ok) throw bodyValidationError(parsed.issues)
  const body = parsed.data as JsonObject
  const next = structuredClone(service)

  if (body.name !== undefined) next.name = body.name as string
  if (body.releaseChannel !== undefined) {
    // As the ClickHouse Terraform provider checks it: a development service stays on the default channel. What
    // the cloud answers is not published; these words are the emulator's.
    if (service.tier === 'development' && body.releaseChannel !== 'default') {
      throw new ApiError(400, 'Release channel must be default for a development service')
    }
    next.releaseChannel = body.releaseChannel as ServiceRecord['releaseChannel']
  }
  if (body.transparentDataEncryptionKeyId !== undefined) {
    // FACTS.md: TDE key rotation needs a service created with TDE.
    if (!service.hasTransparentDataEncryption) {
      throw new ApiError(
        400,
        'Transparent data encryption is not enabled for this service; it can only be enabled at creation'
      )
    }
    next.transparentDataEncryptionKeyId = body.transparentDataEncryptionKeyId as string
  }
  if (isPlainObject(body.ipAccessList))
    next.ipAccessList = patchKeyed<IpAccessListEntry>(
      next.ipAccessList,
      body.ipAccessList,
      entry => entry.source
    )
  if (isPlainObject(body.privateEndpointIds)) {
    next.privateEndpointIds = patchList(next.privateEndpointIds, body.privateEndpointIds)
  }
  if (isPlainObject(body.tags)) next.tags = patchKeyed<Tag>(next.tags ?? [], body.tags, tag => tag.key)
  if (Array.isArray(body.endpoints)) next.endpoints = patchEndpoints(next, body.endpoints as JsonObject[])
  if (typeof body.enableCoreDumps === 'boolean') next.enableCoreDumps = body.enableCoreDumps
  return next
}

/**
 * FACTS.md: remove before add; entries match on their key (an access list entry's `source`, a tag's `key`); adding an
 * existing key replaces that entry.
 */
function patchKeyed<T extends object>(current: T[], patch: JsonObject, keyOf: (entry: T) => unknown): T[] {
  const remove = new Set(((patch.remove as T[] | undefined) ?? []).map(keyOf))
  const result = current.filter(entry => !remove.has(keyOf(entry)))
  for (const entry of (patch.add as T[] | undefined) ?? []) {
    const index = result.findIndex(existing => keyOf(existing) === keyOf(entry))
    if (index >= 0) result[index] = { ...entry }
    else result.push({ ...entry })
  }
  return result
}

function patchList(current: string[], patch: JsonObject): string[] {
  const remove = new Set((patch.remove as string[] | undefined) ?? [])
  const result = current.filter(item => !remove.has(item))
  for (const item of (patch.add as string[] | undefined) ?? []) if (!result.includes(item)) result.push(item)
  return result
}

type Tag = { key: string; value?: string }

/** Only `mysql` can be changed (FACTS.md): enabling adds the endpoint, disabling removes it. */
function patchEndpoints(service: ServiceRecord, changes: JsonObject[]): ServiceRecord['endpoints'] {
  let endpoints = service.endpoints
  for (const change of changes) {
    const present = endpoints.some(endpoint => endpoint.protocol === 'mysql')
    if (change.enabled === true && !present) {
      const host =
        endpoints.find(endpoint => endpoint.protocol === 'https')?.host ?? `${service.id}.emulator.local`
      endpoints = [
        ...endpoints,
        { protocol: 'mysql', host, port: 3306, username: `mysql4${host.split('.')[0]}` }
      ]
    } else if (change.enabled === false && present) {
      endpoints = endpoints.filter(endpoint => endpoint.protocol !== 'mysql')
    }
  }
  return endpoints
}
