import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { call, servicePath, start } from './helpers.js'

// CONTRACT.md "Managed control plane: update service basic details" and FACTS.md "Managed mode".

let emulator: Emulator

beforeAll(async () => {
  emulator = await start()
})

afterAll(async () => {
  await emulator.close()
})

const patch = (body: unknown, serviceId?: string) =>
  call(emulator, 'PATCH', servicePath(emulator, '', serviceId ?? emulator.credentials.serviceId), { body })

describe('service GET', () => {
  test('returns the seeded production service in the managed envelope', async () => {
    const answer = await call(emulator, 'GET', servicePath(emulator))
    expect(answer.status).toBe(200)
    expect(answer.json).toMatchObject({ status: 200, requestId: expect.any(String) })
    expect(answer.json.result).toMatchObject({
      id: emulator.credentials.serviceId,
      tier: 'production',
      releaseChannel: 'default',
      hasTransparentDataEncryption: true,
      transparentDataEncryptionKeyId: expect.any(String),
      privateEndpointIds: expect.any(Array),
      availablePrivateEndpointIds: expect.any(Array),
      autoscalingMode: 'vertical',
      currentScaling: expect.any(Object)
    })
    expect(answer.json.result.ipAccessList.length).toBeGreaterThanOrEqual(2)
    expect(answer.json.result.endpoints.map((endpoint: { protocol: string }) => endpoint.protocol)).toEqual([
      'https',
      'nativesecure',
      'mysql'
    ])
    expect(answer.json.result).toEqual(emulator.services.get(emulator.credentials.serviceId))
  })

  test('the development service has no TDE and no release channel', async () => {
    const answer = await call(emulator, 'GET', servicePath(emulator, '', emulator.credentials.devServiceId))
    expect(answer.json.result.tier).toBe('development')
    expect(answer.json.result.hasTransparentDataEncryption).toBe(false)
    expect(answer.json.result.releaseChannel).toBeUndefined()
  })
})

describe('service PATCH', () => {
  test('ipAccessList applies remove before add, matching entries on source', async () => {
    const before = emulator.services.get(emulator.credentials.serviceId)!.ipAccessList
    const [first, second] = before
    const answer = await patch({
      ipAccessList: {
        // The same source in remove and add: removed first, then added back with the new description.
        remove: [{ source: first.source }, { source: second.source }],
        add: [
          { source: first.source, description: 'Re-added' },
          { source: '192.0.2.10', description: 'VPN' }
        ]
      }
    })
    expect(answer.status).toBe(200)
    expect(answer.json.result.ipAccessList).toEqual([
      { source: first.source, description: 'Re-added' },
      { source: '192.0.2.10', description: 'VPN' }
    ])
    const replaced = await patch({ ipAccessList: { add: [{ source: '192.0.2.10', description: 'VPN 2' }] } })
    expect(replaced.json.result.ipAccessList).toHaveLength(2)
    expect(replaced.json.result.ipAccessList[1]).toEqual({ source: '192.0.2.10', description: 'VPN 2' })
  })

  test('privateEndpointIds take add and remove', async () => {
    const answer = await patch({
      privateEndpointIds: { remove: ['vpce-0emu0000000000001'], add: ['vpce-0emu0000000000002'] }
    })
    expect(answer.json.result.privateEndpointIds).toEqual(['vpce-0emu0000000000002'])
  })

  test('turning the mysql endpoint off removes it and on adds it back', async () => {
    const off = await patch({ endpoints: [{ protocol: 'mysql', enabled: false }] })
    expect(off.status).toBe(200)
    expect(off.json.result.endpoints.map((endpoint: { protocol: string }) => endpoint.protocol)).toEqual([
      'https',
      'nativesecure'
    ])
    const on = await patch({ endpoints: [{ protocol: 'mysql', enabled: true }] })
    expect(
      on.json.result.endpoints.find((endpoint: { protocol: string }) => endpoint.protocol === 'mysql')
    ).toMatchObject({
      port: 3306,
      host: expect.any(String)
    })
    const other = await patch({ endpoints: [{ protocol: 'https', enabled: false }] })
    expect(other.status).toBe(400)
  })

  test('the TDE key rotates on a TDE service and is refused on the other', async () => {
    const rotated = await patch({ transparentDataEncryptionKeyId: 'emu-tde-key-0002' })
    expect(rotated.status).toBe(200)
    expect(rotated.json.result.transparentDataEncryptionKeyId).toBe('emu-tde-key-0002')
    const refused = await patch(
      { transparentDataEncryptionKeyId: 'emu-tde-key-0002' },
      emulator.credentials.devServiceId
    )
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({
      status: 400,
      error: expect.stringMatching(/transparent data encryption/i)
    })
  })

  test('a name of 50 characters is accepted and 51 refused', async () => {
    const fifty = 'Observability Production 2026 '.padEnd(50, 'x')
    expect(fifty).toHaveLength(50)
    const accepted = await patch({ name: fifty })
    expect(accepted.status).toBe(200)
    expect(accepted.json.result.name).toBe(fifty)
    expect((await patch({ name: `${fifty}y` })).status).toBe(400)
    expect((await patch({ name: 'no-dashes' })).status).toBe(400)
    expect((await patch({ name: '' })).status).toBe(400)
    expect(emulator.services.get(emulator.credentials.serviceId)!.name).toBe(fifty)
  })

  test('a development service takes only the default release channel (as the Terraform provider checks)', async () => {
    const refused = await patch({ releaseChannel: 'fast' }, emulator.credentials.devServiceId)
    expect(refused.status).toBe(400)
    expect(refused.json.error).toMatch(/release channel must be default for a development service/i)
    const kept = await patch({ releaseChannel: 'default' }, emulator.credentials.devServiceId)
    expect(kept.status).toBe(200)
    expect(kept.json.result.releaseChannel).toBe('default')
    const accepted = await patch({ releaseChannel: 'fast' })
    expect(accepted.json.result.releaseChannel).toBe('fast')
    expect((await patch({ releaseChannel: 'fastest' })).status).toBe(400)
  })

  test('an unknown field in the PATCH body is refused and nothing changes', async () => {
    const before = structuredClone(emulator.services.get(emulator.credentials.serviceId))
    const answer = await patch({ name: 'Renamed', idleScaling: false })
    expect(answer.status).toBe(400)
    expect(answer.json.error).toContain("Unrecognized key(s) in object: 'idleScaling'")
    expect(emulator.services.get(emulator.credentials.serviceId)).toEqual(before)
  })
})
