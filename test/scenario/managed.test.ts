import { describe, expect, it } from '@jest/globals'
import { actions, emulator, errors, obsdeploy, useScenario, workspace } from '../support/harness.js'

const { emu, ws } = useScenario()

const service = () => emu.services.get(emu.credentials.serviceId)!
const managed = { mode: 'managed' }
const settings = (body: string) => `kind: ServiceSettings\n${body}`

describe('service settings in managed mode', () => {
  it('turns an IP list into remove-then-add, waits for a release, and applies it at one', async () => {
    const before = service().ipAccessList.map(e => e.source)
    ws.write({
      'service.yaml': settings(`ipAccessList:
  - { source: ${before[0]}, description: office }
  - { source: 192.0.2.0/24, description: vpn }
`)
    })
    const plan = await obsdeploy(emu, ws, 'plan', managed)
    const change = plan.plan!.changes.find(c => c.kind === 'ServiceSettings')!
    expect(change.deferred).toBe('release')
    expect(change.notes.join(' ')).toMatch(/waits for a release/)
    const body = change.request!.body as {
      ipAccessList: { remove: Array<{ source: string }>; add: Array<{ source: string }> }
    }
    // A changed description is a remove plus an add (entries are matched on source).
    expect(body.ipAccessList.add).toEqual([
      { source: before[0], description: 'office' },
      { source: '192.0.2.0/24', description: 'vpn' }
    ])
    expect(body.ipAccessList.remove.map(e => e.source).sort()).toEqual([...before].sort())
    expect(change.request!.path).toBe(
      `/v1/organizations/${emu.credentials.organizationId}/services/${emu.credentials.serviceId}`
    )

    // Not on a push: the service is untouched.
    await obsdeploy(emu, ws, 'apply', managed)
    expect(service().ipAccessList.map(e => e.source)).toEqual(before)

    const released = await obsdeploy(emu, ws, 'apply', managed, true)
    expect(released.exitCode).toBe(0)
    const outcome = released.apply!.outcomes.find(o => o.kind === 'ServiceSettings')!
    expect(outcome.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(released.apply!.convergence).toEqual({ converged: true, remaining: [] })
    expect(service().ipAccessList).toEqual(
      expect.arrayContaining([expect.objectContaining({ source: '192.0.2.0/24', description: 'vpn' })])
    )
    expect(service().ipAccessList.map(e => e.source)).not.toContain(before[1])
    expect(actions(await obsdeploy(emu, ws, 'plan', managed, true))).toEqual([])
  })

  it('sends only what differs: switching mysql off, then rotating the TDE key on its own', async () => {
    ws.write({
      'service.yaml': settings(`transparentDataEncryptionKeyId: emu-tde-key-0002
endpoints: [{ protocol: mysql, enabled: false }]
releaseChannel: ${service().releaseChannel}
`)
    })
    const plan = await obsdeploy(emu, ws, 'plan', managed, true)
    const change = plan.plan!.changes.find(c => c.kind === 'ServiceSettings')!
    // The rotation goes alone, after the rest (as the Terraform provider sends it).
    expect(change.request!.body).toEqual({ endpoints: [{ protocol: 'mysql', enabled: false }] })
    expect(change.notes[0]).toContain('{"transparentDataEncryptionKeyId":"emu-tde-key-0002"}')
    emu.clearLog()
    const apply = await obsdeploy(emu, ws, 'apply', managed, true)
    expect(emu.requestLog.filter(r => r.mode === 'control').map(r => r.method)).toEqual([
      'GET',
      'PATCH',
      'GET',
      'PATCH',
      'GET'
    ])
    expect(apply.exitCode).toBe(0)
    expect(service().transparentDataEncryptionKeyId).toBe('emu-tde-key-0002')
    expect(service().endpoints.some(e => e.protocol === 'mysql')).toBe(false)
    expect(actions(await obsdeploy(emu, ws, 'plan', managed, true))).toEqual([])
  })

  it('renames at the 50-character limit, and refuses 51 before any write (the live read that overlaps loading is dropped)', async () => {
    const fifty = 'a'.repeat(25) + ' ' + 'b'.repeat(24)
    ws.write({ 'service.yaml': settings(`name: ${fifty}\n`) })
    const apply = await obsdeploy(emu, ws, 'apply', managed, true)
    expect(apply.exitCode).toBe(0)
    expect(service().name).toBe(fifty)

    ws.write({ 'service.yaml': settings(`name: ${fifty}c\n`) })
    emu.clearLog()
    const refused = await obsdeploy(emu, ws, 'plan', managed, true)
    expect(refused.exitCode).toBe(1)
    expect(refused.diagnostics[0]).toMatchObject({ line: 2, field: 'name', stage: 'validate' })
    expect(emu.requestLog.filter(r => r.method !== 'GET')).toEqual([])
  })

  it('refuses a channel other than default on a development service before any write; default is sent', async () => {
    const dev = { ...managed, 'service-id': emu.credentials.devServiceId }
    ws.write({ 'service.yaml': settings('releaseChannel: fast\n') })
    emu.clearLog()
    const apply = await obsdeploy(emu, ws, 'apply', dev, true)
    expect(apply.exitCode).toBe(1)
    expect(errors(apply)).toContain(
      'releaseChannel "fast": this service\'s tier is development, whose channel can only be "default"'
    )
    expect(emu.requestLog.filter(r => r.method === 'PATCH')).toEqual([])

    ws.write({ 'service.yaml': settings('releaseChannel: default\n') })
    const again = await obsdeploy(emu, ws, 'apply', dev, true)
    expect(again.exitCode).toBe(0)
    expect(emu.services.get(emu.credentials.devServiceId)!.releaseChannel).toBe('default')
  })

  it('is a validation error in self-hosted mode', async () => {
    ws.write({ 'service.yaml': settings('releaseChannel: fast\n') })
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(errors(plan)).toEqual([
      'ServiceSettings belongs to managed mode (`mode: managed`); this run is self-hosted'
    ])
  })

  it('names the missing role in words, never the key, when the key may only read', async () => {
    ws.write({ 'service.yaml': settings('releaseChannel: fast\n') })
    const apply = await obsdeploy(
      emu,
      ws,
      'apply',
      {
        ...managed,
        'key-id': emu.credentials.readOnlyKeyId,
        'key-secret': emu.credentials.readOnlyKeySecret
      },
      true
    )
    const message = errors(apply).join(' ')
    expect(message).toMatch(/HTTP 403.*Admin role/)
    expect(message).not.toContain(emu.credentials.readOnlyKeySecret)
    expect(message).not.toContain(emu.credentials.readOnlyKeyId)
  })
})

describe('a service PATCH whose response is lost', () => {
  it.each(['commit-drop', '503'] as const)(
    're-reads the service and sends only what still differs (%s)',
    async fault => {
      const emu2 = await emulator()
      const ws2 = workspace({
        'service.yaml': 'kind: ServiceSettings\nname: renamed service\nreleaseChannel: fast\n'
      })
      try {
        emu2.faults.add({ method: 'PATCH', sequence: [fault] })
        const apply = await obsdeploy(emu2, ws2, 'apply', { mode: 'managed' }, true)
        expect(apply.exitCode).toBe(0)
        expect(apply.apply!.convergence).toEqual({ converged: true, remaining: [] })
        expect(emu2.services.get(emu2.credentials.serviceId)).toMatchObject({
          name: 'renamed service',
          releaseChannel: 'fast'
        })
        // A committed PATCH is not sent again; one that was not is sent once more.
        expect(emu2.requestLog.filter(r => r.method === 'PATCH')).toHaveLength(
          fault === 'commit-drop' ? 1 : 2
        )
      } finally {
        await emu2.close()
        ws2.cleanup()
      }
    }
  )
})

describe('drift in managed mode', () => {
  it('counts service settings that wait for a release as drift', async () => {
    const emu2 = await emulator()
    const ws2 = workspace({ 'service.yaml': 'kind: ServiceSettings\nreleaseChannel: fast\n' })
    try {
      const drift = await obsdeploy(emu2, ws2, 'drift', { mode: 'managed' })
      expect(drift.plan!.changes.find(c => c.kind === 'ServiceSettings')!.deferred).toBe('release')
      expect(drift.outputs.hasChanges).toBe(true)
      expect(drift.exitCode).toBe(1)
    } finally {
      await emu2.close()
      ws2.cleanup()
    }
  })
})
