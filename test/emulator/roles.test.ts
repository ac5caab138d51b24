/**
 * The managed cloud's ClickStack roles (emulator/roles.ts) through HTTP: the predefined roles and their immutability,
 * unique names, the `read Connection` grant the API adds to every custom role, PUT semantics, 404 for an unknown id,
 * the refused delete of an assigned role, the gateway's body and key rules, persistence and seeds; self-hosted mode
 * has no roles route.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { CONNECTION_READ, PREDEFINED_ROLE_IDS, type Emulator } from '../../emulator/index.js'
import { basic, call, servicePath, start } from './helpers.js'

let emulator: Emulator
beforeEach(async () => {
  emulator = await start()
})
afterEach(async () => {
  await emulator.close()
})

const roles = (suffix = '', serviceId?: string) =>
  servicePath(emulator, `/clickstack/roles${suffix}`, serviceId)
const readConnection = { action: 'read', subject: 'Connection', integration: 'mongodb', inverted: false }
const UNKNOWN = '65a1f0c2b3d4e5f6a7b8cfff'

async function create(body: Record<string, unknown>) {
  const answer = await call(emulator, 'POST', roles(), { body })
  expect(answer.status).toBe(200)
  return answer.json.result as {
    id: string
    name: string
    permissions: unknown[]
    description?: string
    createdAt: string
  }
}

describe('the list and the predefined roles', () => {
  test('a new service lists Admin, Member and ReadOnly, predefined, in the envelope', async () => {
    const answer = await call(emulator, 'GET', roles())
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ status: 200, requestId: expect.any(String), result: expect.any(Array) })
    const listed = answer.json.result as Array<{ id: string; name: string; isPredefined: boolean }>
    expect(listed.map(r => [r.name, r.isPredefined])).toEqual([
      ['Admin', true],
      ['Member', true],
      ['ReadOnly', true]
    ])
    expect(listed.map(r => r.id)).toEqual(Object.values(PREDEFINED_ROLE_IDS))
    expect(listed[0]).toMatchObject({ permissions: [{ action: 'manage', subject: 'all' }] })
    // Each service its own roles; the development service starts with the same predefined ones.
    const dev = await call(emulator, 'GET', roles('', emulator.credentials.devServiceId))
    expect(dev.json.result).toEqual(answer.json.result)
  })

  test('a predefined role cannot be updated or deleted, and stays as it was', async () => {
    const before = structuredClone(emulator.managed().roles.get(PREDEFINED_ROLE_IDS.ReadOnly))
    const put = await call(emulator, 'PUT', roles(`/${PREDEFINED_ROLE_IDS.ReadOnly}`), {
      body: { name: 'ReadOnly', permissions: [{ action: 'manage', subject: 'all' }] }
    })
    expect(put.status).toBe(400)
    expect(put.json).toEqual({
      status: 400,
      error: 'Predefined role "ReadOnly" cannot be modified',
      requestId: expect.any(String)
    })
    const del = await call(emulator, 'DELETE', roles(`/${PREDEFINED_ROLE_IDS.Admin}`))
    expect(del.status).toBe(400)
    expect(del.json.error).toBe('Predefined role "Admin" cannot be deleted')
    expect(emulator.managed().roles.get(PREDEFINED_ROLE_IDS.ReadOnly)).toEqual(before)
    expect(emulator.managed().roles.has(PREDEFINED_ROLE_IDS.Admin)).toBe(true)
  })
})

describe('create', () => {
  test('stores the role in ClickStackRole form, defaults filled in, the read Connection grant added last', async () => {
    const created = await create({
      name: 'Deploy Bot',
      description: 'Manages dashboards',
      permissions: [
        { action: 'manage', subject: 'Dashboard' },
        { action: 'read', subject: 'Source', integration: 'clickhouse', conditions: { kind: 'log' } }
      ]
    })
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Deploy Bot',
      description: 'Manages dashboards',
      permissions: [
        { action: 'manage', subject: 'Dashboard', integration: 'mongodb', inverted: false },
        {
          action: 'read',
          subject: 'Source',
          integration: 'clickhouse',
          inverted: false,
          conditions: { kind: 'log' }
        },
        readConnection
      ],
      isPredefined: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String)
    })
    expect(emulator.managed().roles.get(created.id)).toMatchObject({ name: 'Deploy Bot' })
    const got = await call(emulator, 'GET', roles(`/${created.id}`))
    expect(got.json.result).toEqual(created)
    expect(CONNECTION_READ).toEqual(readConnection)
  })

  test('a role that already grants read on Connection gets no second one; a denied or conditioned one is not it', async () => {
    const kept = await create({ name: 'Has it', permissions: [{ action: 'read', subject: 'Connection' }] })
    expect(kept.permissions).toEqual([readConnection])
    const denied = await create({
      name: 'Denied',
      permissions: [
        { action: 'read', subject: 'Connection', inverted: true },
        { action: 'read', subject: 'Connection', conditions: { name: 'Prod' } }
      ]
    })
    expect(denied.permissions).toHaveLength(3)
    expect(denied.permissions[2]).toEqual(readConnection)
    const empty = await create({ name: 'Nothing', permissions: [] })
    expect(empty.permissions).toEqual([readConnection])
    expect(empty).not.toHaveProperty('description')
  })

  test("a name taken by a custom role, or a predefined role's, is refused with 400", async () => {
    await create({ name: 'Analyst', permissions: [] })
    const again = await call(emulator, 'POST', roles(), { body: { name: 'Analyst', permissions: [] } })
    expect(again.status).toBe(400)
    expect(again.json.error).toBe('A role named "Analyst" already exists')
    const reserved = await call(emulator, 'POST', roles(), { body: { name: 'Member', permissions: [] } })
    expect(reserved.status).toBe(400)
    expect(reserved.json.error).toBe('Role name "Member" is reserved for a predefined role')
    expect([...emulator.managed().roles.values()].filter(r => r.name === 'Analyst')).toHaveLength(1)
    expect(emulator.managed().roles.size).toBe(4)
  })

  test('names are unique per service: another service may use the same one', async () => {
    await create({ name: 'Analyst', permissions: [] })
    const dev = await call(emulator, 'POST', roles('', emulator.credentials.devServiceId), {
      body: { name: 'Analyst', permissions: [] }
    })
    expect(dev.status).toBe(200)
  })
})

describe('request bodies', () => {
  const post = (body: unknown) => call(emulator, 'POST', roles(), { body })

  test.each([
    [{ permissions: [] }, 'Body validation failed: name: Required'],
    [
      { name: '  ', permissions: [] },
      'Body validation failed: name: String must contain at least 1 character(s)'
    ],
    [{ name: 'R' }, 'Body validation failed: permissions: Required'],
    [
      { name: 'R', permissions: [{ subject: 'Dashboard' }] },
      'Body validation failed: permissions.0.action: Required'
    ],
    [
      { name: 'R', permissions: [{ action: 'read', subject: 7 }] },
      'Body validation failed: permissions.0.subject: Expected string, received number'
    ],
    [
      { name: 'R', permissions: [{ action: 'read', subject: 'all', inverted: 'yes' }] },
      'Body validation failed: permissions.0.inverted: Expected boolean, received string'
    ],
    [
      { name: 'R', permissions: [{ action: 'read', subject: 'all', conditions: 'x' }] },
      'Body validation failed: permissions.0.conditions: Expected object, received string'
    ],
    [{ name: 'R', permissions: [], team: 'x' }, "request body property can't be validated: team"],
    [
      { name: 'R', permissions: [], isPredefined: true },
      "request body property can't be validated: isPredefined"
    ]
  ])('%j is refused: %s', async (body, message) => {
    const answer = await post(body)
    expect(answer.status).toBe(400)
    expect(answer.json.error).toBe(message)
    expect(emulator.managed().roles.size).toBe(3)
  })

  test('a key a permission does not declare is dropped, as the gateway leaves nested keys to the API', async () => {
    const created = await create({
      name: 'Fields',
      permissions: [{ action: 'read', subject: 'Dashboard', fields: ['name'] }]
    })
    expect(created.permissions[0]).toEqual({
      action: 'read',
      subject: 'Dashboard',
      integration: 'mongodb',
      inverted: false
    })
  })

  test('the update body: permissions required, unknown keys refused', async () => {
    const { id } = await create({ name: 'U', permissions: [] })
    const missing = await call(emulator, 'PUT', roles(`/${id}`), { body: { name: 'U' } })
    expect(missing.status).toBe(400)
    expect(missing.json.error).toBe('Body validation failed: permissions: Required')
    const extra = await call(emulator, 'PUT', roles(`/${id}`), { body: { permissions: [], id } })
    expect(extra.json.error).toBe("request body property can't be validated: id")
  })
})

describe('update', () => {
  test('replaces the permissions, keeps an omitted name and description, and adds read Connection again', async () => {
    const { id, createdAt } = await create({
      name: 'Editor',
      description: 'Edits',
      permissions: [{ action: 'read', subject: 'Dashboard' }]
    })
    const answer = await call(emulator, 'PUT', roles(`/${id}`), {
      body: {
        permissions: [
          { action: 'manage', subject: 'Dashboard' },
          { action: 'read', subject: 'Alert', inverted: true }
        ]
      }
    })
    expect(answer.status).toBe(200)
    expect(answer.json.result).toMatchObject({
      id,
      name: 'Editor',
      description: 'Edits',
      createdAt,
      isPredefined: false,
      permissions: [
        { action: 'manage', subject: 'Dashboard', integration: 'mongodb', inverted: false },
        { action: 'read', subject: 'Alert', integration: 'mongodb', inverted: true },
        readConnection
      ]
    })
    expect((await call(emulator, 'GET', roles(`/${id}`))).json.result).toEqual(answer.json.result)

    const renamed = await call(emulator, 'PUT', roles(`/${id}`), {
      body: { name: 'Writer', description: '', permissions: [readConnection] }
    })
    expect(renamed.json.result).toMatchObject({
      name: 'Writer',
      description: '',
      permissions: [readConnection]
    })
    expect(emulator.managed().roles.get(id)!.name).toBe('Writer')
  })

  test("a rename onto another role's name is refused; onto its own name it is not", async () => {
    await create({ name: 'First', permissions: [] })
    const { id } = await create({ name: 'Second', permissions: [] })
    const onto = await call(emulator, 'PUT', roles(`/${id}`), { body: { name: 'First', permissions: [] } })
    expect(onto.status).toBe(400)
    expect(onto.json.error).toBe('A role named "First" already exists')
    const reserved = await call(emulator, 'PUT', roles(`/${id}`), {
      body: { name: 'Admin', permissions: [] }
    })
    expect(reserved.json.error).toBe('Role name "Admin" is reserved for a predefined role')
    const same = await call(emulator, 'PUT', roles(`/${id}`), { body: { name: 'Second', permissions: [] } })
    expect(same.status).toBe(200)
    expect(emulator.managed().roles.get(id)!.name).toBe('Second')
  })

  test('the store methods are the routes: a role created "in the console" is read over HTTP', async () => {
    const role = emulator
      .managed()
      .createRole({ name: 'Console', permissions: [{ action: 'read', subject: 'all' }] })
    emulator.managed().updateRole(role.id, { permissions: [] })
    const got = await call(emulator, 'GET', roles(`/${role.id}`))
    expect(got.json.result).toMatchObject({ name: 'Console', permissions: [readConnection] })
  })
})

describe('unknown ids and delete', () => {
  test('an unknown id is a JSON 404 on GET, PUT and DELETE; a malformed one a 400', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await call(emulator, method, roles(`/${UNKNOWN}`), {
        body: method === 'PUT' ? { permissions: [] } : undefined
      })
      expect(answer.status).toBe(404)
      expect(answer.json).toEqual({ status: 404, error: 'Role not found', requestId: expect.any(String) })
    }
    const malformed = await call(emulator, 'GET', roles('/role1'))
    expect(malformed.status).toBe(400)
    expect(malformed.json.error).toBe('Params validation failed: id: Invalid ObjectId')
  })

  test('a custom role is deleted once; then it is unknown', async () => {
    const { id } = await create({ name: 'Gone', permissions: [] })
    const first = await call(emulator, 'DELETE', roles(`/${id}`))
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({ status: 200, requestId: expect.any(String) })
    expect(emulator.managed().roles.has(id)).toBe(false)
    expect((await call(emulator, 'DELETE', roles(`/${id}`))).status).toBe(404)
  })

  test('a role assigned to users is not deleted, and says why', async () => {
    const { id } = await create({ name: 'Held', permissions: [] })
    emulator.managed().assignRole(id, 2)
    const refused = await call(emulator, 'DELETE', roles(`/${id}`))
    expect(refused.status).toBe(400)
    expect(refused.json.error).toBe(
      'Cannot delete role "Held": it is assigned to 2 user(s). Assign them another role first.'
    )
    expect(emulator.managed().roles.has(id)).toBe(true)
    // The count is never part of the answer.
    expect((await call(emulator, 'GET', roles(`/${id}`))).json.result).not.toHaveProperty('assignedUsers')
    emulator.managed().assignRole(id, 0)
    expect((await call(emulator, 'DELETE', roles(`/${id}`))).status).toBe(200)
  })
})

describe('keys, limits and modes', () => {
  test('the read-only key may list and get roles but not write them', async () => {
    const { readOnlyKeyId, readOnlyKeySecret } = emulator.credentials
    const auth = basic(readOnlyKeyId, readOnlyKeySecret)
    expect((await call(emulator, 'GET', roles(), { auth })).status).toBe(200)
    expect((await call(emulator, 'GET', roles(`/${PREDEFINED_ROLE_IDS.Admin}`), { auth })).status).toBe(200)
    const refused = await call(emulator, 'POST', roles(), { auth, body: { name: 'X', permissions: [] } })
    expect(refused.status).toBe(403)
    expect(refused.json.error).toBe('Forbidden: this API key is not allowed to make changes')
    expect(emulator.managed().roles.size).toBe(3)
    expect((await call(emulator, 'GET', roles(), { auth: null })).status).toBe(401)
  })

  test('the roles routes count against the managed rate limit like the others', async () => {
    emulator.setRateLimits({ managed: { requests: 2, windowMs: 60_000 } })
    expect((await call(emulator, 'GET', roles())).headers.get('x-ratelimit-remaining')).toBe('1')
    expect((await call(emulator, 'GET', servicePath(emulator, '/clickstack/webhooks'))).status).toBe(200)
    const limited = await call(emulator, 'POST', roles(), { body: { name: 'Late', permissions: [] } })
    expect(limited.status).toBe(429)
    expect(emulator.managed().roles.size).toBe(3)
  })

  test('self-hosted mode (HyperDX 2.36 /api/v2) and the observability prefix have no roles route: the router page', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/roles'],
      ['POST', '/api/v2/roles'],
      ['GET', `/api/v2/roles/${PREDEFINED_ROLE_IDS.Admin}`]
    ] as const) {
      const answer = await call(emulator, method, path, {
        body: method === 'POST' ? { name: 'X', permissions: [] } : undefined
      })
      expect(answer.status).toBe(404)
      expect(answer.headers.get('content-type')).toContain('text/html')
      expect(answer.text).toContain(`<pre>Cannot ${method} ${path}</pre>`)
    }
    expect(emulator.selfHosted.roles.size).toBe(0)
    const contract = await call(emulator, 'GET', servicePath(emulator, '/observability/roles'))
    expect(contract.status).toBe(404)
    expect(contract.headers.get('content-type')).toContain('text/html')
  })
})

describe('persistence and seeds', () => {
  const directory = mkdtempSync(join(tmpdir(), 'emulator-roles-'))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  test('roles survive a restart with --persist, assignment included', async () => {
    const persistPath = join(directory, 'state.json')
    const first = await start({ persistPath })
    const role = first
      .managed()
      .createRole({ name: 'Kept', permissions: [{ action: 'read', subject: 'all' }] })
    first.managed().assignRole(role.id, 1)
    await first.close()
    const second = await start({ persistPath })
    try {
      expect(second.managed().roles.get(role.id)).toEqual(first.managed().roles.get(role.id))
      expect(second.managed().roles.size).toBe(4)
      expect((await call(second, 'DELETE', servicePath(second, `/clickstack/roles/${role.id}`))).status).toBe(
        400
      )
    } finally {
      await second.close()
    }
  })

  test('a state persisted before roles were served gets the predefined roles', async () => {
    const { loadDefaultSeed, stateFromSeed } = await import('../../emulator/seed.js')
    const old = stateFromSeed(loadDefaultSeed(), Date.now())
    for (const snapshot of Object.values(old.managed)) delete snapshot.roles
    const persistPath = join(directory, 'old.json')
    writeFileSync(persistPath, JSON.stringify(old))
    const opened = await start({ persistPath })
    try {
      expect([...opened.managed().roles.keys()]).toEqual(Object.values(PREDEFINED_ROLE_IDS))
      expect(opened.selfHosted.roles.size).toBe(0)
    } finally {
      await opened.close()
    }
  })

  test("a seed's custom roles are in every service, as a create would store them", async () => {
    const { loadDefaultSeed } = await import('../../emulator/seed.js')
    const seeded = await start({
      seed: {
        ...loadDefaultSeed(),
        roles: [{ name: 'Seeded', permissions: [{ action: 'read', subject: 'Dashboard' }] }]
      }
    })
    try {
      for (const serviceId of [seeded.credentials.serviceId, seeded.credentials.devServiceId]) {
        const listed = await call(seeded, 'GET', servicePath(seeded, '/clickstack/roles', serviceId))
        expect(listed.json.result.map((r: { name: string }) => r.name)).toEqual([
          'Admin',
          'Member',
          'ReadOnly',
          'Seeded'
        ])
        expect(listed.json.result[3]).toMatchObject({
          isPredefined: false,
          permissions: [
            { action: 'read', subject: 'Dashboard', integration: 'mongodb', inverted: false },
            readConnection
          ]
        })
      }
    } finally {
      await seeded.close()
    }
  })
})
