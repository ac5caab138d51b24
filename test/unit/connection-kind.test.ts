/**
 * The Connection kind (src/kinds/connection.ts) planned from manifests and applied to an in-memory server that
 * never returns the password and keeps it when a PUT leaves it out: the password compared by the fingerprint the
 * registry keeps and sent only when it changed, the prefix and flag an update must spell out (the server keeps
 * omitted ones), the warning for a password the manifest dropped, and the registry entries each write leaves.
 */
import { describe, expect, it } from '@jest/globals'
import { connectionKind } from '../../src/kinds/connection.js'
import { SHOP_KEY } from '../support/shop-stack.js'
import { actions, apply, change, plan, RecordStore, TAG } from '../support/record-store.js'

const SECRETS = { PASSWORD: 'pw-1', PASSWORD2: 'pw-2' }
const connection = (...more: string[]) =>
  ['kind: Connection', 'name: Warehouse', 'host: http://ch:8123', 'username: reader', ...more, ''].join('\n')
const PASSWORD = 'password: ${secret.PASSWORD}'

const planned = (store: RecordStore, yaml: string, secrets: Record<string, string> = SECRETS) =>
  plan(store, yaml, secrets)
const entry = (store: RecordStore, id = 'c1') => planned(store, '').outcome.registry.entry('Connection', id)

/** A connection this stack created with `connection(PASSWORD)`, as the server stores it. */
function owned(over: Record<string, unknown> = {}, password: string | null = SECRETS.PASSWORD) {
  const store = new RecordStore({
    connections: [
      {
        id: 'c1',
        name: 'Warehouse',
        host: 'http://ch:8123',
        username: 'reader',
        ...(password === null ? {} : { password }),
        ...over
      }
    ]
  })
  return store.owns({
    Connection: {
      c1:
        password === null
          ? { name: 'Warehouse' }
          : { name: 'Warehouse', writeOnly: { password: SHOP_KEY.fingerprint(password) } }
    }
  })
}

describe('creating a connection', () => {
  it('sends the password, the prefix and the flag; the registry keeps the password’s fingerprint; the next plan is a no-op', async () => {
    const store = new RecordStore()
    const yaml = connection(PASSWORD, 'hyperdxSettingPrefix: hdx', 'isPrometheusEndpoint: true')
    const p = planned(store, yaml)
    expect(change(p, 'Connection/Warehouse').fields).toEqual([
      { path: 'host', after: 'http://ch:8123' },
      { path: 'hyperdxSettingPrefix', after: 'hdx' },
      { path: 'isPrometheusEndpoint', after: true },
      { path: 'name', after: 'Warehouse' },
      { path: 'owner', after: TAG },
      { path: 'password', after: '(write-only: unknown, will be sent)' },
      { path: 'username', after: 'reader' }
    ])
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'POST',
        collection: 'connections',
        body: {
          name: 'Warehouse',
          host: 'http://ch:8123',
          username: 'reader',
          password: 'pw-1',
          hyperdxSettingPrefix: 'hdx',
          isPrometheusEndpoint: true
        }
      }
    ])
    const id = store.find('connections', 'Warehouse')!.id
    expect(Object.keys(entry(store, id)!.writeOnly!)).toEqual(['password'])
    expect(actions(planned(store, yaml))).toEqual([])
    expect(JSON.stringify(p.outcome.plan)).not.toContain('pw-1')
  })

  it('without the optional fields none is sent, and the registry records the name alone', async () => {
    const store = new RecordStore()
    await apply(store, planned(store, connection()))
    expect(store.sent()).toStrictEqual([
      {
        method: 'POST',
        collection: 'connections',
        body: { name: 'Warehouse', host: 'http://ch:8123', username: 'reader' }
      }
    ])
    expect(entry(store, store.find('connections', 'Warehouse')!.id)).toStrictEqual({ name: 'Warehouse' })
  })

  it('a create whose response is lost is found by name and adopted, not sent twice', async () => {
    const store = new RecordStore()
    store.loseCreateResponses = 1
    const result = await apply(store, planned(store, connection()))
    expect(result.outcomes.map(o => [o.status, o.id])).toEqual([
      ['adopted', store.find('connections', 'Warehouse')!.id]
    ])
    expect(store.sent().filter(r => r.method === 'POST')).toHaveLength(1)
  })
})

describe('updating a connection this stack owns', () => {
  it('a new host: the password is left for the server to keep, the prefix and flag spelled out; the registry is not written', async () => {
    const store = owned()
    expect(actions(planned(store, connection(PASSWORD)))).toEqual([])
    const p = planned(store, connection(PASSWORD).replace(':8123', ':9000'))
    expect(change(p, 'Connection/Warehouse').fields).toEqual([
      { path: 'host', before: 'http://ch:8123', after: 'http://ch:9000' }
    ])
    expect(change(p, 'Connection/Warehouse').notes).toEqual([])
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'PUT',
        collection: 'connections',
        id: 'c1',
        body: {
          name: 'Warehouse',
          host: 'http://ch:9000',
          username: 'reader',
          hyperdxSettingPrefix: null,
          isPrometheusEndpoint: false
        }
      }
    ])
    expect(store.requests.filter(r => r.collection === 'dashboards')).toEqual([])
    expect(store.find('connections', 'Warehouse')!.password).toBe('pw-1')
  })

  it('a new password is shown as changed, sent, and fingerprinted again', async () => {
    const store = owned({ hyperdxSettingPrefix: 'hdx', isPrometheusEndpoint: true })
    const yaml = connection(
      PASSWORD.replace('PASSWORD', 'PASSWORD2'),
      'hyperdxSettingPrefix: hdx',
      'isPrometheusEndpoint: true'
    )
    const p = planned(store, yaml)
    expect(change(p, 'Connection/Warehouse').fields).toEqual([
      { path: 'password', before: '(write-only: set)', after: '(write-only: changed)' }
    ])
    expect(change(p, 'Connection/Warehouse').notes).toEqual([
      'the registry dashboard "obsdeploy registry (stack shop)" records its ownership and write-only fingerprints'
    ])
    await apply(store, p)
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'Warehouse',
      host: 'http://ch:8123',
      username: 'reader',
      password: 'pw-2',
      hyperdxSettingPrefix: 'hdx',
      isPrometheusEndpoint: true
    })
    expect(actions(planned(store, yaml))).toEqual([])
    expect(
      actions(planned(store, connection(PASSWORD, 'hyperdxSettingPrefix: hdx', 'isPrometheusEndpoint: true')))
    ).toEqual(['Connection/Warehouse update'])
  })

  it('a prefix and a flag the manifest drops are cleared; a flag of false is the default', async () => {
    const store = owned({ hyperdxSettingPrefix: 'hdx', isPrometheusEndpoint: true })
    const p = planned(store, connection(PASSWORD))
    expect(change(p, 'Connection/Warehouse').fields).toEqual([
      { path: 'hyperdxSettingPrefix', before: 'hdx' },
      { path: 'isPrometheusEndpoint', before: true }
    ])
    await apply(store, p)
    expect(store.find('connections', 'Warehouse')).toStrictEqual({
      id: 'c1',
      name: 'Warehouse',
      host: 'http://ch:8123',
      username: 'reader',
      password: 'pw-1',
      isPrometheusEndpoint: false
    })
    expect(actions(planned(store, connection(PASSWORD)))).toEqual([])
    expect(actions(planned(store, connection(PASSWORD, 'isPrometheusEndpoint: false')))).toEqual([])
  })

  it('a password the manifest drops stays (the API cannot clear it): a warning at the manifest says so', async () => {
    const store = owned()
    const p = planned(store, connection())
    expect(change(p, 'Connection/Warehouse').action).toBe('noop')
    expect(p.outcome.plan.diagnostics).toEqual([
      {
        severity: 'warning',
        stage: 'plan',
        message:
          'connection "Warehouse": the manifest no longer sets a password, but the API cannot clear one (a PUT without a password keeps the stored one): it stays as it is',
        file: 'records.yaml',
        line: 2,
        column: 7
      }
    ])
    // A connection whose password the stack never sent gets no warning.
    expect(planned(owned({}, null), connection()).diagnostics).toEqual([])
    // Nor one whose manifest sets it.
    expect(planned(store, connection(PASSWORD)).diagnostics).toEqual([])
  })

  it('a connection no manifest declares is deleted with prune, and forgotten; a new one gets no warning', async () => {
    const store = owned()
    const p = planned(store, '')
    expect(change(p, 'Connection/Warehouse@c1').fields).toEqual([
      { path: 'host', before: 'http://ch:8123' },
      { path: 'name', before: 'Warehouse' },
      { path: 'owner', before: TAG },
      { path: 'password', before: '(write-only: set)' },
      { path: 'username', before: 'reader' }
    ])
    await apply(store, p)
    expect(store.sent()).toEqual([{ method: 'DELETE', collection: 'connections', id: 'c1' }])
    expect(entry(store)).toBeUndefined()
    expect(planned(new RecordStore(), connection()).diagnostics).toEqual([])
  })

  it('reads the connections list', async () => {
    const store = owned()
    expect(await connectionKind.live!.read(store.api(), { service: false })).toEqual(store.live().Connection)
  })
})

describe('adoption and renames', () => {
  it('adopting one without a password sends nothing; the registry records it', async () => {
    const store = new RecordStore({
      connections: [
        { id: 'c1', name: 'Warehouse', host: 'http://ch:8123', username: 'reader', password: 'x' }
      ]
    })
    const p = planned(store, connection('adopt: true'))
    expect(change(p, 'Connection/Warehouse').fields).toEqual([{ path: 'owner', after: TAG }])
    await apply(store, p)
    expect(store.sent()).toEqual([])
    expect(entry(store)).toStrictEqual({ name: 'Warehouse' })
    expect(actions(planned(store, connection()))).toEqual([])
  })

  it('adopting one with a password sends it once (it is unknown) and records its fingerprint', async () => {
    const store = new RecordStore({
      connections: [
        { id: 'c1', name: 'Warehouse', host: 'http://ch:8123', username: 'reader', password: 'x' }
      ]
    })
    const p = planned(store, connection('adopt: true', PASSWORD))
    expect(change(p, 'Connection/Warehouse').fields).toEqual([
      { path: 'owner', after: TAG },
      { path: 'password', after: '(write-only: unknown, will be sent)' }
    ])
    await apply(store, p)
    expect(store.sent()[0]!.body).toMatchObject({ password: 'pw-1' })
    expect(Object.keys(entry(store)!.writeOnly!)).toEqual(['password'])
    expect(actions(planned(store, connection(PASSWORD)))).toEqual([])
  })

  it('a rename through an id pin is recorded under the new name, its fingerprint kept', async () => {
    const store = owned()
    const yaml = connection('id: c1', PASSWORD).replace('name: Warehouse', 'name: Lake')
    const p = planned(store, yaml)
    expect(change(p, 'Connection/Lake').fields).toEqual([
      { path: 'name', before: 'Warehouse', after: 'Lake' }
    ])
    await apply(store, p)
    expect(store.sent()[0]!.body).not.toHaveProperty('password')
    expect(entry(store)).toMatchObject({ name: 'Lake', writeOnly: { password: expect.any(String) } })
    expect(actions(planned(store, yaml))).toEqual([])
  })
})
