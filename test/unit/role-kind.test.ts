/**
 * The Role kind (src/kinds/role.ts) validated offline, planned from manifests against hand-made live roles and
 * applied to an in-memory cloud (test/support/record-store.ts) that adds the `read Connection` rule to every custom
 * role: the rules compared as a set, the server's own rule neither planned away nor drift, each change in plain
 * words with what widens access, ownership through the registry (adopt, prune), predefined roles refused, a delete
 * the server refuses reported with its words, and the export.
 */
import { describe, expect, it } from '@jest/globals'
import { parse } from 'yaml'
import { LiveRole } from '../../src/api/schemas.js'
import { exportManifests } from '../../src/export/manifests.js'
import { dashboardKind } from '../../src/kinds/dashboard/index.js'
import { roleKind } from '../../src/kinds/role.js'
import { readLiveState } from '../../src/live/read.js'
import { readsRoles } from '../../src/run/live-read.js'
import { Registry, registryTiles } from '../../src/kinds/registry.js'
import { validateText } from '../../src/manifest/load.js'
import { actions, apply, change, plan, RecordStore, settings, TAG } from '../support/record-store.js'

const MANAGED = settings({ mode: 'managed' })
const AUTO = { action: 'read', subject: 'Connection', integration: 'mongodb', inverted: false }

const role = (name: string, ...lines: string[]) =>
  ['---', 'kind: Role', `name: ${name}`, ...lines, ''].join('\n')
const perms = (...rules: string[]) => ['permissions:', ...rules.map(r => `  - ${r}`)]
const EDITOR = role(
  'Editor',
  'description: Edits dashboards',
  ...perms('{ action: manage, subject: Dashboard }', '{ action: read, subject: Source }')
)

const planned = (store: RecordStore, yaml: string) => plan(store, yaml, {}, MANAGED)
const errors = (yaml: string, mode: 'self-hosted' | 'managed' = 'managed') =>
  validateText('roles.yaml', yaml, mode)
    .diagnostics.filter(d => d.severity === 'error')
    .map(d => `${d.file}:${d.line}:${d.column} ${d.field} ${d.message}`)

/** A stored custom role (the cloud's record), with the server's own rule unless `auto` is false. */
const stored = (id: string, name: string, permissions: Array<Record<string, unknown>>, auto = true) => ({
  id,
  name,
  isPredefined: false,
  permissions: auto ? [...permissions, { ...AUTO }] : permissions
})
const ADMIN = {
  id: 'r-admin',
  name: 'Admin',
  isPredefined: true,
  permissions: [{ action: 'manage', subject: 'all' }]
}

/** A cloud with the predefined Admin role and one custom Editor role this stack owns. */
function ownedEditor(permissions: Array<Record<string, unknown>>, description = 'Edits dashboards') {
  const store = new RecordStore({
    roles: [ADMIN, { ...stored('r1', 'Editor', permissions), description }]
  })
  return store.owns({ Role: { r1: { name: 'Editor' } } })
}
const EDITOR_RULES = [
  { action: 'manage', subject: 'Dashboard', integration: 'mongodb', inverted: false },
  { action: 'read', subject: 'Source', integration: 'mongodb', inverted: false }
]

describe('validation (offline, at file:line:col)', () => {
  it('accepts a role in managed mode', () => {
    expect(errors(EDITOR)).toEqual([])
  })

  it('refuses a role in self-hosted mode: roles are managed-only', () => {
    expect(errors(EDITOR, 'self-hosted')).toEqual([
      expect.stringMatching(
        /^roles\.yaml:2:7 kind roles are managed-only: HyperDX's open-source API \(2\.36\)/
      )
    ])
  })

  it("refuses a predefined role's name, in any case", () => {
    for (const name of ['Admin', 'readonly', 'MEMBER'])
      expect(errors(role(name, 'permissions: []'))).toEqual([
        expect.stringMatching(new RegExp(`^roles\\.yaml:3:7 name "\\w+" is a predefined role`))
      ])
  })

  it('places a bad permission at its line and field: empty, wrong type, unknown key, missing subject', () => {
    const yaml = role(
      'Ops',
      ...perms(
        '{ action: "", subject: Dashboard }',
        '{ action: read, subject: Source, inverted: "yes" }',
        '{ action: read, subject: Alert, conditions: [a] }',
        '{ action: read, subjects: Alert }'
      )
    )
    expect(errors(yaml)).toEqual([
      'roles.yaml:5:15 permissions[0].action must not be empty',
      'roles.yaml:6:48 permissions[1].inverted must be true or false, got "yes"',
      'roles.yaml:7:49 permissions[2].conditions must be a mapping (got a list of 1 item)',
      expect.stringMatching(/^roles\.yaml:8:5 permissions\[3\]\.subject /),
      'roles.yaml:8:21 permissions[3].subjects unknown field "subjects" (did you mean "subject"?)'
    ])
  })

  it('refuses two roles of one name', () => {
    expect(errors(EDITOR + EDITOR)).toEqual([
      expect.stringMatching(/^roles\.yaml:\d+:7 name duplicate Role name "Editor"/)
    ])
  })
})

describe('creating a role', () => {
  it('says each grant, widens only on a broad one, sends the rules once each, and the next plan is a no-op', async () => {
    const store = new RecordStore({ roles: [ADMIN] })
    const yaml = role(
      'Ops',
      ...perms(
        '{ action: manage, subject: Dashboard }',
        '{ action: read, subject: Source, integration: clickhouse }',
        '{ action: manage, subject: Dashboard }',
        '{ action: delete, subject: Alert, inverted: true }'
      )
    )
    const p = planned(store, yaml)
    const c = change(p, 'Role/Ops')
    expect(c.action).toBe('create')
    expect(c.notes).toEqual([
      'grants `manage Dashboard`',
      'grants `read Source` where integration is clickhouse',
      'denies `delete Alert`',
      'the server also grants `read Connection` to every custom role: left out of the comparison, and never removed',
      'recorded as this stack\'s in its registry dashboard "obsdeploy registry (stack shop)" (the apply creates that dashboard)'
    ])
    expect(c.widens).toEqual(['grants `manage Dashboard`'])
    expect((await apply(store, p)).complete).toBe(true)
    expect(store.sent()).toEqual([
      {
        method: 'POST',
        collection: 'roles',
        body: {
          name: 'Ops',
          permissions: [
            { action: 'manage', subject: 'Dashboard', inverted: false, integration: 'mongodb' },
            { action: 'read', subject: 'Source', inverted: false, integration: 'clickhouse' },
            { action: 'delete', subject: 'Alert', inverted: true, integration: 'mongodb' }
          ]
        }
      }
    ])
    // The server added `read Connection`: no drift, nothing to remove.
    expect(store.find('roles', 'Ops')!.permissions).toContainEqual(AUTO)
    expect(actions(planned(store, yaml))).toEqual([])
  })

  it('a role that grants nothing broad widens nothing; one on `all` does', () => {
    const store = new RecordStore()
    expect(change(planned(store, EDITOR.replace('manage', 'update')), 'Role/Editor').widens).toBeUndefined()
    const all = role('Auditor', ...perms('{ action: read, subject: all }'))
    expect(change(planned(store, all), 'Role/Auditor').widens).toEqual(['grants `read all`'])
  })

  it('a name the cloud flags predefined is refused at plan time, even one validate does not know', () => {
    const store = new RecordStore({ roles: [{ ...ADMIN, id: 'r-v', name: 'Viewer' }] })
    const p = planned(store, role('viewer', 'permissions: []'))
    expect(p.diagnostics).toEqual([
      expect.stringMatching(/^error name: "Viewer" is a predefined role of this team \(id r-v\)/)
    ])
    expect(p.changes).toEqual([])
  })
})

describe('the rules compare as a set, without the server’s own rule', () => {
  it('order and duplicates do not matter', () => {
    const store = ownedEditor(EDITOR_RULES)
    const yaml = role(
      'Editor',
      'description: Edits dashboards',
      ...perms(
        '{ action: read, subject: Source, integration: mongodb }',
        '{ action: manage, subject: Dashboard, inverted: false }',
        '{ action: read, subject: Source }'
      )
    )
    expect(actions(planned(store, yaml))).toEqual([])
  })

  it('conditions compare by value, whatever the order of their keys', () => {
    const cond = { action: 'read', subject: 'Source', conditions: { kind: 'log', name: 'Prod' } }
    const store = ownedEditor([cond])
    const yaml = role(
      'Editor',
      'description: Edits dashboards',
      ...perms('{ action: read, subject: Source, conditions: { name: Prod, kind: log } }')
    )
    expect(actions(planned(store, yaml))).toEqual([])
  })

  it('the server’s rule is neither drift nor planned away; a manifest that lists it compares it', async () => {
    // Live without it (an older role): a manifest that does not list it plans nothing.
    const without = new RecordStore({ roles: [stored('r1', 'Editor', EDITOR_RULES, false)] }).owns({
      Role: { r1: { name: 'Editor' } }
    })
    const plain = EDITOR.replace('description: Edits dashboards\n', '')
    expect(actions(planned(without, plain))).toEqual([])
    // A manifest that lists it: compared like any rule (added where missing).
    const listed = plain + '  - { action: read, subject: Connection }\n'
    const p = planned(without, listed)
    expect(change(p, 'Role/Editor').notes).toContain('grants `read Connection`')
    // Live with it: the same manifest plans nothing.
    expect(actions(planned(ownedEditor(EDITOR_RULES, ''), listed))).toEqual([])
    // A rule like it but narrower (conditions) is a rule of its own.
    const narrow = ownedEditor([...EDITOR_RULES, { ...AUTO, conditions: { name: 'x' } }], '')
    expect(change(planned(narrow, plain), 'Role/Editor').notes).toEqual([
      'revokes `read Connection` when {"name":"x"}'
    ])
  })
})

describe('updating a role', () => {
  it('a grant added widens; the update sends name, description and every rule, the server’s own one kept', async () => {
    const store = ownedEditor(EDITOR_RULES)
    const yaml = role(
      'Editor',
      ...perms(
        '{ action: manage, subject: Dashboard }',
        '{ action: read, subject: Source }',
        '{ action: create, subject: Alert }'
      )
    )
    const p = planned(store, yaml)
    const c = change(p, 'Role/Editor')
    expect(c.fields.map(f => f.path)).toEqual(['description', 'permissions["grants `create Alert`"]'])
    expect(c.notes).toEqual(['grants `create Alert`'])
    expect(c.widens).toEqual(['grants `create Alert`'])
    await apply(store, p)
    expect(store.sent()).toEqual([
      {
        method: 'PUT',
        collection: 'roles',
        id: 'r1',
        body: {
          name: 'Editor',
          description: '',
          permissions: [
            ...EDITOR_RULES,
            { action: 'create', subject: 'Alert', integration: 'mongodb', inverted: false },
            AUTO
          ]
        }
      }
    ])
    expect(actions(planned(store, yaml))).toEqual([])
  })

  it('a rule inverted revokes the grant and denies: nothing widens', () => {
    const store = ownedEditor(EDITOR_RULES)
    const yaml = EDITOR.replace(
      '{ action: read, subject: Source }',
      '{ action: read, subject: Source, inverted: true }'
    )
    const c = change(planned(store, yaml), 'Role/Editor')
    expect(c.notes).toEqual(['revokes `read Source`', 'denies `read Source`'])
    expect(c.widens).toBeUndefined()
  })

  it('an inverted rule removed widens: "no longer denies"', () => {
    const store = ownedEditor([...EDITOR_RULES, { action: 'delete', subject: 'Dashboard', inverted: true }])
    const c = change(planned(store, EDITOR), 'Role/Editor')
    expect(c.notes).toEqual(['no longer denies `delete Dashboard`'])
    expect(c.widens).toEqual(['no longer denies `delete Dashboard`'])
  })

  it('a grant revoked, with its integration, narrows', () => {
    const store = ownedEditor([
      ...EDITOR_RULES,
      { action: 'read', subject: 'Source', integration: 'clickhouse' }
    ])
    const c = change(planned(store, EDITOR), 'Role/Editor')
    expect(c.notes).toEqual(['revokes `read Source` where integration is clickhouse'])
    expect(c.widens).toBeUndefined()
  })
})

describe('ownership through the registry', () => {
  const unowned = () => new RecordStore({ roles: [ADMIN, stored('r1', 'Editor', EDITOR_RULES)] })

  it('a live role of the name the stack does not own is a plan error until `adopt: true`', async () => {
    expect(planned(unowned(), EDITOR).diagnostics).toEqual([
      expect.stringMatching(
        /^error name: a role named "Editor" already exists \(id r1\) and is not owned by stack "shop"/
      )
    ])
    const store = unowned()
    const p = planned(store, EDITOR.replace('kind: Role', 'kind: Role\nadopt: true'))
    expect(p.diagnostics).toEqual([])
    const c = change(p, 'Role/Editor')
    expect(c.fields).toEqual([
      { path: 'description', after: 'Edits dashboards' },
      { path: 'owner', after: TAG }
    ])
    await apply(store, p)
    expect(planned(store, '').outcome.registry.owns('Role', 'r1')).toBe(true)
  })

  it('prune deletes only the roles the registry lists, never a predefined or unlisted one', async () => {
    const store = new RecordStore({
      roles: [ADMIN, stored('r1', 'Editor', EDITOR_RULES), stored('r2', 'Theirs', [])]
    }).owns({ Role: { r1: { name: 'Editor' } } })
    const p = planned(store, '')
    expect(actions(p)).toEqual(['Role/Editor@r1 delete'])
    expect(change(p, 'Role/Editor@r1').widens).toBeUndefined()
    await apply(store, p)
    expect(store.records.roles.map(r => r.name)).toEqual(['Admin', 'Theirs'])
    expect(planned(store, '').outcome.registry.owns('Role', 'r1')).toBe(false)
  })

  it('a delete the server refuses fails with its words, and the registry keeps the role', async () => {
    const store = ownedEditor(EDITOR_RULES)
    store.refuseDelete.set('r1', 'Cannot delete a role that is assigned to users')
    const p = planned(store, '')
    expect(change(p, 'Role/Editor@r1').notes[1]).toMatch(
      /^the server refuses to delete a role that users have/
    )
    const result = await apply(store, p)
    expect(result.complete).toBe(false)
    expect(result.outcomes).toEqual([
      expect.objectContaining({
        address: 'Role/Editor@r1',
        status: 'failed',
        message: expect.stringContaining('Cannot delete a role that is assigned to users')
      })
    ])
    expect(planned(store, '').outcome.registry.owns('Role', 'r1')).toBe(true)
  })
})

describe('export', () => {
  it('writes every custom role to roles.yaml, never a predefined one, without the server’s rule', () => {
    const live = [
      ADMIN,
      stored('r1', 'Editor', EDITOR_RULES),
      {
        ...stored('r2', 'Ops', [
          { action: 'read', subject: 'Source', integration: 'clickhouse', conditions: { a: 1 } }
        ]),
        description: 'On call'
      },
      stored('r3', 'Deny', [{ action: 'delete', subject: 'all', inverted: true }])
    ].map(r => LiveRole.parse(r))
    const registry = Registry.read(
      [
        {
          id: 'reg',
          name: 'obsdeploy registry (stack shop)',
          tags: [TAG, 'obsdeploy-registry'],
          tiles: registryTiles('shop', { Role: { r1: { name: 'Editor' } } })
        } as never
      ],
      'shop',
      TAG
    )
    const files = exportManifests({ roles: live, ownershipTag: TAG, registry, mode: 'managed' })
    expect(files.map(f => f.name)).toEqual(['roles.yaml'])
    const docs = files[0]!.text
      .split(/^---$/m)
      .map(d => parse(d) as unknown)
      .filter(Boolean)
    expect(docs).toEqual([
      {
        kind: 'Role',
        name: 'Editor',
        permissions: [
          { action: 'manage', subject: 'Dashboard' },
          { action: 'read', subject: 'Source' }
        ]
      },
      {
        kind: 'Role',
        name: 'Ops',
        description: 'On call',
        permissions: [{ action: 'read', subject: 'Source', integration: 'clickhouse', conditions: { a: 1 } }],
        adopt: true
      },
      {
        kind: 'Role',
        name: 'Deny',
        permissions: [{ action: 'delete', subject: 'all', inverted: true }],
        adopt: true
      }
    ])
    expect(validateText('roles.yaml', files[0]!.text, 'managed').diagnostics).toEqual([])
  })
})

describe('reading the roles: only when needed', () => {
  /** A store's API that counts its role lists. */
  const counted = (store: RecordStore) => {
    const api = store.api()
    let lists = 0
    const listRoles = api.listRoles.bind(api)
    return {
      api: { ...api, withSignal: () => ({ ...api, listRoles: () => (lists++, listRoles()) }) } as typeof api,
      lists: () => lists
    }
  }
  const read = async (store: RecordStore, roles?: boolean) => {
    const c = counted(store)
    const state = await readLiveState(c.api, { service: false, roles }, [dashboardKind, roleKind])
    return { state, lists: c.lists() }
  }

  it('with Role manifests in managed mode, or for export (not told), and not otherwise', async () => {
    const store = new RecordStore({ roles: [ADMIN] })
    expect((await read(store, true)).lists).toBe(1)
    expect((await read(store)).lists).toBe(1)
    const none = await read(store, false)
    expect(none.lists).toBe(0)
    expect(none.state.Role).toBeUndefined()
    const sets = (yaml: string, mode: 'managed' | 'self-hosted') => [validateText('r.yaml', yaml, mode)]
    expect(readsRoles({ mode: 'managed' }, sets(EDITOR, 'managed'))).toBe(true)
    expect(readsRoles({ mode: 'managed' }, sets('', 'managed'))).toBe(false)
    expect(readsRoles({ mode: 'self-hosted' }, sets(EDITOR, 'self-hosted'))).toBe(false)
  })

  it('when the registry lists roles, so the stack can prune them', async () => {
    const store = new RecordStore({ roles: [ADMIN, stored('r1', 'Editor', [])] }).owns({
      Role: { r1: { name: 'Editor' } }
    })
    const { state, lists } = await read(store, false)
    expect(lists).toBe(1)
    expect(state.Role?.map(r => r.name)).toEqual(['Admin', 'Editor'])
  })
})
