/**
 * The managed roles routes as the client puts them on the wire (cloud OpenAPI `.../clickstack/roles`): one list
 * request parsed to ClickStackRole, managed only (self-hosted sends nothing); POST, PUT and DELETE by id under the
 * same prefix; a delete the cloud refuses is an error with its words, never "deleted"; a JSON 404 is already gone.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import { json, startCaptureServer, type CaptureServer } from './capture-server.js'
import { ApiPool, managedSettings, ORG, selfHostedSettings, SVC } from './helpers.js'

const ROLES = `/v1/organizations/${ORG}/services/${SVC}/clickstack/roles`
const envelope = (result: unknown) => json({ status: 200, requestId: 'r1', result })
const EDITOR = {
  id: '507f1f77bcf86cd799439011',
  name: 'Editor',
  description: 'Edits dashboards',
  isPredefined: false,
  permissions: [
    { action: 'manage', subject: 'Dashboard', inverted: false, integration: 'mongodb' },
    { action: 'read', subject: 'Connection', integration: 'mongodb' },
    { action: 'read', subject: 'Source', conditions: { name: 'Prod' } }
  ],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-06-15T10:30:00.000Z'
}

let server: CaptureServer
const pool = new ApiPool()
beforeEach(async () => {
  server = await startCaptureServer()
})
afterEach(async () => {
  await pool.closeAll()
  await server.close()
})
const managed = () => pool.make(managedSettings(server.url, 'id', 'secret', { managedPrefix: 'clickstack' }))

describe('managed roles', () => {
  it('lists them with one GET, each parsed as a ClickStackRole', async () => {
    server.respond([envelope([{ id: 'a', name: 'Admin', isPredefined: true, permissions: [] }, EDITOR])])
    const roles = await managed().listRoles()
    expect(server.requests.map(r => `${r.method} ${r.target}`)).toEqual([`GET ${ROLES}`])
    expect(roles).toEqual([{ id: 'a', name: 'Admin', isPredefined: true, permissions: [] }, EDITOR])
  })

  it('refuses a role without the fields the plan relies on', async () => {
    server.respond([envelope([{ id: 'a', name: 'Editor', permissions: [] }])])
    await expect(managed().listRoles()).rejects.toThrow(/isPredefined/)
  })

  it('has none in self-hosted mode, without a request', async () => {
    expect(await pool.make(selfHostedSettings(server.url, 'key')).listRoles()).toBeUndefined()
    expect(server.requests).toEqual([])
  })

  it('creates, updates and deletes under the same prefix', async () => {
    server.respond([envelope(EDITOR), envelope(EDITOR), json({ status: 200, requestId: 'r3' })])
    const api = managed()
    const body = { name: 'Editor', permissions: [{ action: 'read', subject: 'Dashboard' }] }
    expect((await api.createRecord('roles', body)).id).toBe(EDITOR.id)
    await api.updateRecord('roles', EDITOR.id, { ...body, description: '' })
    expect(await api.deleteRecord('roles', EDITOR.id)).toBe('deleted')
    expect(server.requests.map(r => [r.method, r.path, r.json])).toEqual([
      ['POST', ROLES, body],
      ['PUT', `${ROLES}/${EDITOR.id}`, { ...body, description: '' }],
      ['DELETE', `${ROLES}/${EDITOR.id}`, undefined]
    ])
  })

  it('a refused delete is an error with the server’s words; a JSON 404 is already gone', async () => {
    const refusal = 'Cannot delete a role that is assigned to users'
    server.respond([
      json({ status: 400, error: refusal, requestId: 'r4' }, 400),
      json({ status: 404, error: 'Role not found', requestId: 'r5' }, 404)
    ])
    const api = managed()
    const refused = await api.deleteRecord('roles', EDITOR.id).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).message).toContain(refusal)
    expect(await api.deleteRecord('roles', EDITOR.id)).toBe('absent')
  })
})
