/**
 * The emulator's ClickStack roles routes against the managed cloud's published OpenAPI document (test data): the
 * routes it serves are the document's, each answer conforms to the documented schema (nothing undeclared in it), and
 * every property a documented request body may have is taken.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { PREDEFINED_ROLE_IDS, type Emulator } from '../../emulator/index.js'
import { call, servicePath, start } from './helpers.js'
import {
  conformance,
  MANAGED_DOCUMENT,
  MANAGED_PREFIX,
  requestProperties,
  responseSchema,
  schemaNamed
} from './openapi.js'

let emulator: Emulator
beforeAll(async () => {
  emulator = await start()
})
afterAll(async () => {
  await emulator.close()
})

const url = (suffix: string) => servicePath(emulator, `/clickstack${suffix}`)
const ITEM = '/roles/{clickStackRoleId}'

/** A body with every property the document declares, each permission with every ClickStackCASLPermission one. */
const fullPermission = {
  action: 'read',
  subject: 'Source',
  inverted: false,
  integration: 'clickhouse',
  conditions: { kind: 'log' }
}

describe('the roles routes are the published ones', () => {
  test('the document declares GET and POST on the collection, GET, PUT and DELETE on an item', () => {
    const routes = Object.entries(MANAGED_DOCUMENT.paths)
      .filter(([path]) => path.startsWith(`${MANAGED_PREFIX}/roles`))
      .flatMap(([path, operations]) =>
        Object.keys(operations).map(m => `${m.toUpperCase()} ${path.slice(MANAGED_PREFIX.length)}`)
      )
    expect(routes.sort()).toEqual(
      ['GET /roles', 'POST /roles', `GET ${ITEM}`, `PUT ${ITEM}`, `DELETE ${ITEM}`].sort()
    )
    expect(Object.keys(schemaNamed('ClickStackCASLPermission').properties!).sort()).toEqual(
      Object.keys(fullPermission).sort()
    )
  })

  test('a method the document does not declare is the gateway page, as on any unknown route', async () => {
    const id = PREDEFINED_ROLE_IDS.Member
    for (const [method, suffix] of [
      ['PATCH', `/roles/${id}`],
      ['POST', `/roles/${id}`],
      ['PUT', '/roles'],
      ['DELETE', '/roles'],
      ['GET', `/roles/${id}/permissions`]
    ] as const) {
      const answer = await call(emulator, method, url(suffix), { body: method === 'GET' ? undefined : {} })
      expect(answer.status).toBe(404)
      expect(answer.headers.get('content-type')).toContain('text/html')
    }
  })
})

describe('every answer conforms to its documented schema', () => {
  test('list, create, get, update and delete: the 200 answers', async () => {
    const post = requestProperties('/roles', 'post')
    expect(post.sort()).toEqual(['description', 'name', 'permissions'])
    const created = await call(emulator, 'POST', url('/roles'), {
      body: { name: 'Documented', description: 'Every field', permissions: [fullPermission] }
    })
    expect(conformance(created.json, responseSchema('/roles', 'POST', 200))).toEqual([])
    const id = created.json.result.id as string
    // Every declared permission property is kept.
    expect(created.json.result.permissions[0]).toEqual(fullPermission)

    const listed = await call(emulator, 'GET', url('/roles'))
    expect(listed.json.result.length).toBeGreaterThan(3)
    expect(conformance(listed.json, responseSchema('/roles', 'GET', 200))).toEqual([])

    const got = await call(emulator, 'GET', url(`/roles/${id}`))
    expect(conformance(got.json, responseSchema(ITEM, 'GET', 200))).toEqual([])

    expect(requestProperties(ITEM, 'put').sort()).toEqual(['description', 'name', 'permissions'])
    const updated = await call(emulator, 'PUT', url(`/roles/${id}`), {
      body: { name: 'Documented too', description: 'Still', permissions: [fullPermission] }
    })
    expect(updated.status).toBe(200)
    expect(conformance(updated.json, responseSchema(ITEM, 'PUT', 200))).toEqual([])

    const deleted = await call(emulator, 'DELETE', url(`/roles/${id}`))
    expect(deleted.status).toBe(200)
    expect(conformance(deleted.json, responseSchema(ITEM, 'DELETE', 200))).toEqual([])
  })

  test('refusals (400, and the 404 of an unknown id) have the documented error shape', async () => {
    const answers = [
      await call(emulator, 'POST', url('/roles'), { body: { name: 'Admin', permissions: [] } }),
      await call(emulator, 'PUT', url(`/roles/${PREDEFINED_ROLE_IDS.Admin}`), { body: { permissions: [] } }),
      await call(emulator, 'DELETE', url(`/roles/${PREDEFINED_ROLE_IDS.Admin}`)),
      await call(emulator, 'GET', url('/roles/65a1f0c2b3d4e5f6a7b8cfff'))
    ]
    expect(answers.map(a => a.status)).toEqual([400, 400, 400, 404])
    for (const answer of answers)
      expect(conformance(answer.json, responseSchema(ITEM, 'DELETE', 400))).toEqual([])
  })

  test('the checker itself: an undeclared key, a missing required one, a wrong type are problems', () => {
    const role = schemaNamed('ClickStackRole')
    expect(conformance({ id: 'a', name: 'n', permissions: [], isPredefined: false }, role)).toEqual([])
    expect(
      conformance({ id: 'a', name: 'n', permissions: [{ action: 'r' }], isPredefined: 'no', extra: 1 }, role)
    ).toEqual([
      '$.permissions[0].subject: required, absent',
      '$.isPredefined: expected a boolean, got string',
      '$.extra: not declared'
    ])
    expect(
      conformance({ createdAt: 'yesterday' }, { properties: { createdAt: role.properties!.createdAt! } })
    ).toEqual(['$.createdAt: not a date-time'])
  })
})
