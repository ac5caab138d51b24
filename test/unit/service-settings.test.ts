/**
 * The managed service's settings (src/kinds/service-settings.ts) through the planner: which declared fields
 * the plan compares with the live service (and which it leaves alone), the PATCH it shows and sends, its
 * notes (release gate, the TDE rotation's own PATCH) and errors (a development service's channel, a rotation
 * without TDE), and the apply: the requests, the server's refusal of a release channel in the contract's
 * words, a lost response (re-read, send what still differs) and the re-reads that confirm the change.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import type { ObservabilityApi } from '../../src/api/client.js'
import { ApiError, UnknownOutcomeError } from '../../src/api/errors.js'
import type { LiveService } from '../../src/api/schemas.js'
import type { ApplyContext, OperationContext, PlannedChange, PlanSettings } from '../../src/kinds/kind.js'
import { ipKey, patchBody, serviceSettingsKind } from '../../src/kinds/service-settings.js'
import type { ServiceSettingsSpec } from '../../src/manifest/schema.js'
import { validateText } from '../../src/manifest/load.js'
import { computePlan } from '../../src/planner/planner.js'

const PATH = '/v1/organizations/org-1/services/svc-1'

const settings = (over: Partial<PlanSettings> = {}): PlanSettings => ({
  stack: 'shop',
  ownershipTag: 'obsdeploy:shop',
  prune: true,
  mode: 'managed',
  serviceGate: { open: true, reason: 'release v1.2.0 published' },
  servicePath: PATH,
  ...over
})

/** The plan of one ServiceSettings manifest (`kind` on line 2) against a live service. */
function plan(body: string, service: LiveService | undefined, over: Partial<PlanSettings> = {}) {
  const manifests = validateText('service.yaml', `# the service\nkind: ServiceSettings\n${body}`, 'managed')
  expect(manifests.diagnostics).toStrictEqual([])
  const out = computePlan({
    command: 'plan',
    settings: settings(over),
    manifests,
    live: { Dashboard: [], Alert: [], Source: [], ...(service ? { ServiceSettings: [service] } : {}) },
    now: new Date('2026-11-23T01:00:00.000Z'),
    kinds: [serviceSettingsKind]
  })
  expect(out.plan.diagnostics).toStrictEqual([])
  return out
}

/** The same, the plan's diagnostics left to the test. */
function planned(body: string, service: LiveService | undefined) {
  const manifests = validateText('service.yaml', `# the service\nkind: ServiceSettings\n${body}`, 'managed')
  expect(manifests.diagnostics).toStrictEqual([])
  return computePlan({
    command: 'plan',
    settings: settings(),
    manifests,
    live: { Dashboard: [], Alert: [], Source: [], ...(service ? { ServiceSettings: [service] } : {}) },
    now: new Date('2026-11-23T01:00:00.000Z'),
    kinds: [serviceSettingsKind]
  })
}

const LIVE: LiveService = {
  id: 'svc-1',
  name: 'shop prod',
  tier: 'production',
  releaseChannel: 'default',
  ipAccessList: [
    { source: '10.0.0.1/32', description: 'office' },
    { source: '10.0.0.2', description: 'vpn' },
    { source: '192.168.0.0/16', description: null }
  ],
  privateEndpointIds: ['pe-b', 'pe-old'],
  endpoints: [{ protocol: 'mysql', enabled: null }],
  hasTransparentDataEncryption: true,
  transparentDataEncryptionKeyId: 'key-1'
}

describe('the plan of the service settings', () => {
  it('compares each declared field, shows list entries by source, and the smallest PATCH', () => {
    const { plan: p } = plan(
      `name: shop production
releaseChannel: fast
ipAccessList:
  - { source: 10.0.0.1, description: office }
  - { source: 10.0.0.2, description: VPN }
  - { source: 172.16.0.0/12 }
privateEndpointIds: [pe-b, pe-a]
endpoints:
  - { protocol: mysql, enabled: false }
transparentDataEncryptionKeyId: key-2
`,
      LIVE
    )
    expect(p.changes).toStrictEqual([
      {
        kind: 'ServiceSettings',
        name: 'shop production',
        address: 'ServiceSettings/service',
        fields: [
          { path: 'endpoints["mysql"]', before: true, after: false },
          { path: 'ipAccessList["10.0.0.2/32"]', before: 'vpn', after: 'VPN' },
          { path: 'ipAccessList["172.16.0.0/12"]', after: '' },
          { path: 'ipAccessList["192.168.0.0/16"]', before: '' },
          { path: 'name', before: 'shop prod', after: 'shop production' },
          { path: 'privateEndpointIds[0]', before: 'pe-b', after: 'pe-a' },
          { path: 'privateEndpointIds[1]', before: 'pe-old', after: 'pe-b' },
          { path: 'releaseChannel', before: 'default', after: 'fast' },
          { path: 'transparentDataEncryptionKeyId', before: 'key-1', after: 'key-2' }
        ],
        dependsOn: [],
        action: 'update',
        id: 'svc-1',
        notes: [
          'the TDE key rotation goes alone, in a second PATCH {"transparentDataEncryptionKeyId":"key-2"}, once a read of the service shows it has transparent data encryption',
          'applied by this run: release v1.2.0 published'
        ],
        request: {
          method: 'PATCH',
          path: PATH,
          body: {
            name: 'shop production',
            ipAccessList: {
              remove: [
                { source: '10.0.0.2', description: 'vpn' },
                { source: '192.168.0.0/16', description: '' }
              ],
              add: [
                { source: '10.0.0.2', description: 'VPN' },
                { source: '172.16.0.0/12', description: '' }
              ]
            },
            privateEndpointIds: { remove: ['pe-old'], add: ['pe-a'] },
            releaseChannel: 'fast',
            endpoints: [{ protocol: 'mysql', enabled: false }]
          }
        },
        // The manifest's `kind` line.
        source: { file: 'service.yaml', line: 2, column: 7 },
        // The PATCH, the read and the PATCH of the rotation, and the read that finds the service converged.
        estimate: { requests: 4 }
      }
    ])
  })

  it('an IP entry without a description is planned like any other: added, and removed when it leaves the list', () => {
    const { plan: p } = plan('ipAccessList:\n  - source: 10.0.0.1\n', {
      id: 'svc-1',
      ipAccessList: [{ source: '10.9.9.9', description: '' }]
    })
    const [change] = p.changes
    expect(change!.action).toBe('update')
    expect(change!.fields).toStrictEqual([
      { path: 'ipAccessList["10.0.0.1/32"]', after: '' },
      { path: 'ipAccessList["10.9.9.9/32"]', before: '' }
    ])
    expect(change!.request!.body).toStrictEqual({
      ipAccessList: {
        remove: [{ source: '10.9.9.9', description: '' }],
        add: [{ source: '10.0.0.1', description: '' }]
      }
    })
  })

  it('an empty list removes every entry, and the plan names each', () => {
    const { plan: p } = plan('ipAccessList: []\nprivateEndpointIds: []\n', LIVE)
    const [change] = p.changes
    expect(change!.fields).toStrictEqual([
      { path: 'ipAccessList["10.0.0.1/32"]', before: 'office' },
      { path: 'ipAccessList["10.0.0.2/32"]', before: 'vpn' },
      { path: 'ipAccessList["192.168.0.0/16"]', before: '' },
      { path: 'privateEndpointIds', before: ['pe-b', 'pe-old'] }
    ])
    expect(change!.request!.body).toStrictEqual({
      ipAccessList: {
        remove: [
          { source: '10.0.0.1/32', description: 'office' },
          { source: '10.0.0.2', description: 'vpn' },
          { source: '192.168.0.0/16', description: '' }
        ]
      },
      privateEndpointIds: { remove: ['pe-b', 'pe-old'] }
    })
  })

  it('what the manifest does not declare is not managed: equal declared fields are a no-op without a request', () => {
    const { plan: p } = plan(
      `name: shop prod
releaseChannel: default
ipAccessList:
  - { source: 10.0.0.1, description: office }
  - { source: 10.0.0.2/32, description: vpn }
  - { source: 192.168.0.0/16 }
privateEndpointIds: [pe-old, pe-b]
endpoints:
  - { protocol: mysql, enabled: true }
transparentDataEncryptionKeyId: key-1
`,
      LIVE,
      { serviceGate: { open: false, reason: 'waits for a release' } }
    )
    expect(p.changes).toStrictEqual([
      {
        kind: 'ServiceSettings',
        name: 'shop prod',
        address: 'ServiceSettings/service',
        fields: [],
        dependsOn: [],
        action: 'noop',
        id: 'svc-1',
        notes: []
      }
    ])
  })

  it('private endpoints compare as a set: the order of neither side is a change', () => {
    const live = { ...LIVE, privateEndpointIds: ['pe-old', 'pe-b'] }
    expect(plan('privateEndpointIds: [pe-b, pe-old]\n', live).plan.changes[0]!.action).toBe('noop')
    expect(plan('privateEndpointIds: [pe-old, pe-b]\n', LIVE).plan.changes[0]!.action).toBe('noop')
  })

  it('only the declared fields are compared: one field of many', () => {
    const { plan: p } = plan('releaseChannel: slow\n', LIVE)
    expect(p.changes[0]!.fields).toStrictEqual([{ path: 'releaseChannel', before: 'default', after: 'slow' }])
    expect(p.changes[0]!.request!.body).toStrictEqual({ releaseChannel: 'slow' })
    expect(p.changes[0]!.name).toBe('service')
  })

  it('a live service without the declared lists or endpoints: everything is added, an endpoint not listed is off', () => {
    const { plan: p } = plan(
      'ipAccessList:\n  - { source: 10.0.0.1, description: office }\nprivateEndpointIds: [pe-a]\nendpoints:\n  - { protocol: mysql, enabled: true }\n',
      { id: 'svc-1', endpoints: [{ protocol: 'other', enabled: true }] }
    )
    expect(p.changes[0]!.fields).toStrictEqual([
      { path: 'endpoints["mysql"]', before: false, after: true },
      { path: 'ipAccessList["10.0.0.1/32"]', after: 'office' },
      { path: 'privateEndpointIds', after: ['pe-a'] }
    ])
    expect(p.changes[0]!.request!.body).toStrictEqual({
      ipAccessList: { add: [{ source: '10.0.0.1', description: 'office' }] },
      privateEndpointIds: { add: ['pe-a'] },
      endpoints: [{ protocol: 'mysql', enabled: true }]
    })
  })

  it('waits for a release when the gate is closed: shown, deferred, with the reason', () => {
    const { plan: p } = plan('name: renamed\n', LIVE, {
      serviceGate: { open: false, reason: 'waits for a release' },
      servicePath: undefined
    })
    expect(p.changes[0]).toMatchObject({
      action: 'update',
      deferred: 'release',
      notes: ['not applied by this run: waits for a release'],
      request: { method: 'PATCH', path: '', body: { name: 'renamed' } }
    })
  })

  it('refuses a channel other than default on a development service only, as the Terraform provider does', () => {
    const found = (tier: string | null | undefined, body = 'releaseChannel: fast\n') =>
      planned(body, { ...LIVE, tier }).plan.diagnostics.map(d => `${d.severity} ${d.field}: ${d.message}`)
    expect(found('development')).toStrictEqual([
      'error releaseChannel: releaseChannel "fast": this service\'s tier is development, whose channel can only be "default"'
    ])
    // Production, the dedicated tiers and a service without a tier take any channel.
    for (const tier of ['production', 'dedicated_high_mem', 'dedicated_standard', undefined, null])
      expect(found(tier)).toStrictEqual([])
    expect(found('development', 'releaseChannel: slow\n')).toHaveLength(1)
    // The default channel is sent to a development service as to any other.
    expect(found('development', 'releaseChannel: default\n')).toStrictEqual([])
  })

  it('refuses a TDE key rotation on a service created without TDE, and sends a rotation alone', () => {
    const outcome = (has: boolean | null | undefined, key = 'key-2', more = '') =>
      planned(`transparentDataEncryptionKeyId: ${key}\n${more}`, {
        ...LIVE,
        hasTransparentDataEncryption: has
      }).plan
    expect(outcome(false).diagnostics.map(d => `${d.field}: ${d.message}`)).toStrictEqual([
      'transparentDataEncryptionKeyId: this service was not created with transparent data encryption: its key cannot be rotated'
    ])
    expect(outcome(true).diagnostics).toStrictEqual([])
    expect(outcome(true).changes[0]!.request!.body).toStrictEqual({ transparentDataEncryptionKeyId: 'key-2' })
    expect(outcome(true).changes[0]!.notes).toStrictEqual(['applied by this run: release v1.2.0 published'])
    expect(outcome(undefined).diagnostics).toStrictEqual([])
    expect(outcome(false, 'key-1').diagnostics).toStrictEqual([])
    // With other fields, they go first and the note names the rotation's own PATCH.
    const both = outcome(true, 'key-2', 'name: renamed\n').changes[0]!
    expect(both.request!.body).toStrictEqual({ name: 'renamed' })
    expect(both.notes[0]).toMatch(/^the TDE key rotation goes alone, in a second PATCH/)
  })

  it('the live fingerprint does not depend on the order the server lists the IP entries in', () => {
    const body = 'ipAccessList:\n  - { source: 10.0.0.1, description: office }\n'
    const entries = LIVE.ipAccessList!
    const fingerprint = (ipAccessList: LiveService['ipAccessList']) =>
      plan(body, { ...LIVE, ipAccessList }).plan.fingerprint.live
    expect(fingerprint([...entries].reverse())).toBe(fingerprint(entries))
    expect(fingerprint([entries[0]!, { source: '10.0.0.2', description: 'VPN' }, entries[2]!])).not.toBe(
      fingerprint(entries)
    )
  })

  it('no live service to compare with: the fields are shown, and nothing is sent', () => {
    const { plan: p, planned } = plan('name: renamed\n', undefined)
    expect(p.changes[0]).toMatchObject({
      action: 'create',
      fields: [{ path: 'name', after: 'renamed' }],
      notes: []
    })
    expect(p.changes[0]!.request).toBeUndefined()
    const pc = planned[0] as PlannedChange<ServiceSettingsSpec, LiveService>
    expect(serviceSettingsKind.operations(pc, {} as OperationContext)).toStrictEqual([])
  })

  it('self-hosted: a ServiceSettings manifest plans nothing', () => {
    const manifests = validateText('service.yaml', 'kind: ServiceSettings\nname: x\n', 'managed')
    const out = computePlan({
      command: 'plan',
      settings: settings({ mode: 'self-hosted' }),
      manifests,
      live: { Dashboard: [], Alert: [], Source: [], ServiceSettings: [LIVE] },
      now: new Date('2026-11-23T01:00:00.000Z'),
      kinds: [serviceSettingsKind]
    })
    expect(out.plan.changes).toStrictEqual([])
  })
})

describe('reading the live service', () => {
  const api = () => {
    const getService = jest.fn(async () => ({ service: LIVE, requestId: 'r' }))
    return { api: { getService } as unknown as ObservabilityApi, getService }
  }
  it('is read only when a ServiceSettings manifest exists (known now or later)', async () => {
    const read = serviceSettingsKind.live!.read
    for (const service of [false, Promise.resolve(false)]) {
      const a = api()
      expect(await read(a.api, { service })).toBeUndefined()
      expect(a.getService).not.toHaveBeenCalled()
    }
    for (const service of [true, Promise.resolve(true)]) {
      const a = api()
      expect((await read(a.api, { service }))?.[0]).toBe(LIVE)
      expect(a.getService).toHaveBeenCalledTimes(1)
    }
  })

  it('names the service by its name, "service" without one, and by its id', () => {
    expect(serviceSettingsKind.liveName({ name: 'shop prod' })).toBe('shop prod')
    expect(serviceSettingsKind.liveName({})).toBe('service')
    expect(serviceSettingsKind.liveId({ id: 'svc-1' })).toBe('svc-1')
  })
})

describe('the smallest PATCH (patchBody)', () => {
  const spec = (over: Partial<ServiceSettingsSpec>): ServiceSettingsSpec => ({
    kind: 'ServiceSettings',
    ...over
  })
  it('sends nothing for equal values, and only the side of a list that changed', () => {
    expect(
      patchBody(spec({ name: 'a', releaseChannel: 'fast' }), { name: 'a', releaseChannel: 'fast' })
    ).toStrictEqual({})
    expect(
      patchBody(spec({ ipAccessList: [{ source: '10.0.0.1' }] }), {
        ipAccessList: [
          { source: '10.0.0.1/32', description: null },
          { source: '10.0.0.2', description: 'x' }
        ]
      })
    ).toStrictEqual({ ipAccessList: { remove: [{ source: '10.0.0.2', description: 'x' }] } })
    expect(
      patchBody(spec({ privateEndpointIds: ['a', 'b'] }), { privateEndpointIds: ['b', 'a'] })
    ).toStrictEqual({})
    expect(patchBody(spec({ privateEndpointIds: ['a', 'b'] }), { privateEndpointIds: ['a'] })).toStrictEqual({
      privateEndpointIds: { add: ['b'] }
    })
    expect(patchBody(spec({ privateEndpointIds: ['a'] }), { privateEndpointIds: ['a', 'c'] })).toStrictEqual({
      privateEndpointIds: { remove: ['c'] }
    })
  })

  it('sends only the endpoints whose state differs (listed and not `enabled: false` is on)', () => {
    const endpoints = [
      { protocol: 'mysql' as const, enabled: true },
      { protocol: 'mysql' as const, enabled: false }
    ]
    expect(
      patchBody(spec({ endpoints: [endpoints[0]!] }), { endpoints: [{ protocol: 'mysql' }] })
    ).toStrictEqual({})
    expect(
      patchBody(spec({ endpoints: [endpoints[1]!] }), { endpoints: [{ protocol: 'mysql', enabled: false }] })
    ).toStrictEqual({})
    expect(patchBody(spec({ endpoints: [endpoints[1]!] }), {})).toStrictEqual({})
    expect(patchBody(spec({ endpoints: [endpoints[0]!] }), { endpoints: null })).toStrictEqual({
      endpoints: [{ protocol: 'mysql', enabled: true }]
    })
  })

  it('an address is its one-address CIDR, whatever its case and spaces', () => {
    expect(ipKey(' 2001:DB8::1 ')).toBe('2001:db8::1/128')
    expect(ipKey('10.0.0.1 ')).toBe('10.0.0.1/32')
    expect(ipKey('10.0.0.0/8')).toBe('10.0.0.0/8')
    expect(
      patchBody(spec({ ipAccessList: [{ source: '2001:DB8::1' }] }), {
        ipAccessList: [{ source: '2001:db8::1/128', description: '' }]
      })
    ).toStrictEqual({})
  })
})

/** A fake service API: what each getService returns in turn (the last one again), and what was PATCHed. */
function serviceApi(
  reads: LiveService[],
  patch: (body: unknown) => Promise<LiveService> = async () => reads[0]!
) {
  const patched: unknown[] = []
  let read = 0
  const api = {
    getService: jest.fn(async () => ({
      service: reads[Math.min(read++, reads.length - 1)]!,
      requestId: 'r-get'
    })),
    patchService: jest.fn(async (body: unknown) => {
      patched.push(body)
      return { service: await patch(body), requestId: 'r-patch' }
    })
  }
  return { api, patched }
}

function applyContext(api: unknown) {
  const warnings: string[] = []
  const ctx = {
    api,
    log: { info: () => {}, debug: () => {}, warn: (m: string) => warnings.push(m) }
  } as unknown as ApplyContext
  return { ctx, warnings }
}

/** The planned change of a manifest against LIVE, and its one operation. */
function operation(body: string, over: Partial<PlanSettings> = {}) {
  const { planned } = plan(body, LIVE, over)
  const pc = planned[0] as PlannedChange<ServiceSettingsSpec, LiveService>
  const ops = serviceSettingsKind.operations(pc, {} as OperationContext)
  return { pc, ops }
}

const refused = (status: number, serverMessage: string, path = PATH) =>
  new ApiError({ method: 'PATCH', path, status, serverMessage })

describe('applying the service settings', () => {
  afterEach(() => {
    jest.useRealTimers()
  })

  it('nothing to run for a no-op or a change that waits for a release', () => {
    expect(operation('name: shop prod\n').ops).toStrictEqual([])
    expect(operation('name: renamed\n', { serviceGate: { open: false, reason: 'waits' } }).ops).toStrictEqual(
      []
    )
  })

  it('sends the planned PATCH once, confirms it by reading the service, and returns what the server has', async () => {
    const after = { ...LIVE, name: 'renamed', releaseChannel: 'fast' }
    const { ops, pc } = operation('name: renamed\nreleaseChannel: fast\n')
    expect(
      ops.map(o => ({ address: o.address, label: o.label, provides: o.provides, after: o.after }))
    ).toStrictEqual([{ address: 'ServiceSettings/service', label: 'PATCH', provides: [], after: [] }])
    const { api, patched } = serviceApi([after], async () => after)
    const result = await ops[0]!.run(applyContext(api).ctx)
    expect(patched).toStrictEqual([pc.change.request!.body])
    expect(patched).toStrictEqual([{ name: 'renamed', releaseChannel: 'fast' }])
    expect(api.getService).toHaveBeenCalledTimes(1)
    expect(result).toStrictEqual({
      status: 'applied',
      id: 'svc-1',
      requestId: 'r-patch',
      result: after,
      convergence: { converged: true, remaining: [] }
    })
  })

  it('rotates the TDE key alone, after the other fields, once a read shows the service has TDE', async () => {
    const after = { ...LIVE, name: 'renamed', transparentDataEncryptionKeyId: 'key-2' }
    const { ops } = operation('name: renamed\ntransparentDataEncryptionKeyId: key-2\n')
    const { api, patched } = serviceApi([{ ...LIVE, name: 'renamed' }, after], async () => after)
    const result = await ops[0]!.run(applyContext(api).ctx)
    expect(patched).toStrictEqual([{ name: 'renamed' }, { transparentDataEncryptionKeyId: 'key-2' }])
    // One read before the rotation, one to confirm.
    expect(api.getService).toHaveBeenCalledTimes(2)
    expect(result).toMatchObject({ status: 'applied', convergence: { converged: true, remaining: [] } })
  })

  it('does not send a rotation when the read before it shows no TDE', async () => {
    const { ops } = operation('transparentDataEncryptionKeyId: key-2\n')
    const { api, patched } = serviceApi([{ ...LIVE, hasTransparentDataEncryption: false }])
    await expect(ops[0]!.run(applyContext(api).ctx)).rejects.toThrow(
      /not sent: the service does not have transparent data encryption/
    )
    expect(patched).toStrictEqual([])
  })

  it('a release channel the server refuses (400) is explained with what the contract says', async () => {
    const { ops } = operation('releaseChannel: fast\n')
    const cause = refused(400, 'Release channel is not supported for this tier')
    const { api } = serviceApi([LIVE], async () => {
      throw cause
    })
    const error = (await ops[0]!.run(applyContext(api).ctx).catch((e: unknown) => e)) as Error
    expect(error.message).toBe(
      `${cause.message}. CONTRACT.md: releaseChannel is only available for production services`
    )
    expect(error.cause).toBe(cause)
  })

  it.each([
    ['another status', 'releaseChannel: fast\n', refused(500, 'release channel unavailable')],
    ['another message', 'releaseChannel: fast\n', refused(400, 'name is too long')],
    ['no release channel sent', 'name: renamed\n', refused(400, 'release channel mismatch')]
  ])('any other refusal is passed on as it is (%s)', async (_, body, cause) => {
    const { ops } = operation(body)
    const { api } = serviceApi([LIVE], async () => {
      throw cause
    })
    await expect(ops[0]!.run(applyContext(api).ctx)).rejects.toBe(cause)
    expect(api.getService).not.toHaveBeenCalled()
  })

  it('a lost response: re-reads the service and sends only what still differs', async () => {
    const { ops } = operation('name: renamed\nreleaseChannel: fast\n')
    // The first PATCH reached the server only in part (the name), its answer was lost.
    const halfway = { ...LIVE, name: 'renamed' }
    const done = { ...LIVE, name: 'renamed', releaseChannel: 'fast' }
    let calls = 0
    const lost = new UnknownOutcomeError({ method: 'PATCH', path: PATH }, 'connection reset')
    const { api, patched } = serviceApi([halfway, done], async () => {
      if (calls++ === 0) throw lost
      return done
    })
    const { ctx, warnings } = applyContext(api)
    const result = await ops[0]!.run(ctx)
    expect(patched).toStrictEqual([{ name: 'renamed', releaseChannel: 'fast' }, { releaseChannel: 'fast' }])
    expect(warnings).toStrictEqual([
      `${lost.message}: re-reading the service before sending what still differs`
    ])
    expect(result).toMatchObject({ status: 'applied', requestId: 'r-patch', result: done })
    expect(result.convergence).toStrictEqual({ converged: true, remaining: [] })
  })

  it('a lost response of a PATCH that was applied: nothing is sent again', async () => {
    const { ops } = operation('name: renamed\n')
    const done = { ...LIVE, id: 'svc-1', name: 'renamed' }
    const { api, patched } = serviceApi([done], async () => {
      throw new UnknownOutcomeError({ method: 'PATCH', path: PATH }, 'timeout')
    })
    const result = await ops[0]!.run(applyContext(api).ctx)
    expect(patched).toHaveLength(1)
    expect(result).toStrictEqual({
      status: 'applied',
      id: 'svc-1',
      requestId: undefined,
      result: done,
      convergence: { converged: true, remaining: [] }
    })
  })

  it('a change the server shows late is read again, a little later each time, before it counts as not converged', async () => {
    jest.useFakeTimers()
    const { ops } = operation('name: renamed\nprivateEndpointIds: [pe-a]\nipAccessList: []\n')
    const stale = { ...LIVE, privateEndpointIds: null }
    const { api } = serviceApi([stale], async () => stale)
    let settled = false
    const running = ops[0]!.run(applyContext(api).ctx).finally(() => {
      settled = true
    })
    await jest.advanceTimersByTimeAsync(0)
    expect(api.getService).toHaveBeenCalledTimes(1)
    await jest.advanceTimersByTimeAsync(999)
    expect(api.getService).toHaveBeenCalledTimes(1)
    await jest.advanceTimersByTimeAsync(1)
    expect(api.getService).toHaveBeenCalledTimes(2)
    await jest.advanceTimersByTimeAsync(1999)
    expect(api.getService).toHaveBeenCalledTimes(2)
    await jest.advanceTimersByTimeAsync(1)
    expect(api.getService).toHaveBeenCalledTimes(3)
    await jest.advanceTimersByTimeAsync(10_000)
    expect(settled).toBe(true)
    expect(api.getService).toHaveBeenCalledTimes(3)
    const result = await running
    expect(result.convergence).toStrictEqual({
      converged: false,
      remaining: [
        'ipAccessList["10.0.0.1/32"]: server has "office", manifest wants null',
        'ipAccessList["10.0.0.2/32"]: server has "vpn", manifest wants null',
        'ipAccessList["192.168.0.0/16"]: server has "", manifest wants null',
        'name: server has "shop prod", manifest wants "renamed"',
        'privateEndpointIds: server has null, manifest wants ["pe-a"]'
      ]
    })
  })

  it('stops reading once the server shows the change', async () => {
    jest.useFakeTimers()
    const { ops } = operation('name: renamed\n')
    const done = { ...LIVE, name: 'renamed' }
    const { api } = serviceApi([LIVE, done], async () => done)
    const running = ops[0]!.run(applyContext(api).ctx)
    await jest.advanceTimersByTimeAsync(60_000)
    const result = await running
    expect(api.getService).toHaveBeenCalledTimes(2)
    expect(result.convergence).toStrictEqual({ converged: true, remaining: [] })
  })
})
