/**
 * ClickStack roles as code, on the BUILT CLI (dist/cli/index.js) against the emulator's managed mode (its roles
 * routes follow the published OpenAPI and the Terraform provider: docs/real-server.md "Managed roles"): create,
 * update (a grant added, a rule inverted), adopt, export and re-apply to an empty plan, prune; a predefined name
 * refused, and self-hosted refused; the heading escalates on a widening.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { workspace, type Workspace } from '../support/harness.js'
import { runCli } from './runner.js'

let emu: Emulator
let ws: Workspace

beforeEach(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  ws = workspace()
})
afterEach(async () => {
  await emu.close()
  ws.cleanup()
})

/** `obsdeploy <command> <folder> --mode managed ...` with the emulator's managed credentials. */
async function obsdeploy(command: string, ...extra: string[]) {
  const args = [
    command,
    ...(command === 'export' ? [] : ['observability']),
    '--mode',
    'managed',
    '--api-url',
    emu.url,
    '--organization-id',
    emu.credentials.organizationId,
    '--service-id',
    emu.credentials.serviceId,
    '--stack',
    'shop',
    '--rate-limit',
    'off',
    ...extra
  ]
  const env = { OBSDEPLOY_KEY_ID: emu.credentials.keyId, OBSDEPLOY_KEY_SECRET: emu.credentials.keySecret }
  return runCli(args, { cwd: ws.dir, env })
}

const role = (name: string, permissions: string, extra = '') => `kind: Role
name: ${name}
description: Deploys dashboards from CI
${extra}permissions:
${permissions}`

const DEPLOY = role(
  'Deploy bot',
  '  - { action: manage, subject: Dashboard }\n  - { action: read, subject: Source }\n'
)
const customRoles = () => [...emu.managed().roles.values()].filter(r => !r.isPredefined)
const plainRules = (r: { permissions: Array<{ action: string; subject: string; inverted?: boolean }> }) =>
  r.permissions.map(p => `${p.inverted ? '!' : ''}${p.action} ${p.subject}`).sort()

describe('roles on the managed cloud', () => {
  it('create, then a grant added and a rule inverted: planned in plain words, the heading escalated, applied, empty after', async () => {
    ws.write({ 'roles.yaml': DEPLOY })
    const created = await obsdeploy('apply')
    expect(created.exitCode).toBe(0)
    expect(customRoles().map(r => r.name)).toEqual(['Deploy bot'])
    // The server adds read Connection to every custom role: neither planned away nor drift.
    expect(plainRules(customRoles()[0]!)).toEqual(['manage Dashboard', 'read Connection', 'read Source'])
    const quiet = await obsdeploy('plan')
    expect(quiet.stdout).toContain('No changes')

    ws.write({
      'roles.yaml': role(
        'Deploy bot',
        '  - { action: manage, subject: Dashboard }\n  - { action: read, subject: Source, inverted: true }\n  - { action: manage, subject: Alert }\n'
      )
    })
    const plan = await obsdeploy('plan')
    expect(plan.exitCode).toBe(0)
    expect(plan.stdout).toContain('grants `manage Alert`')
    expect(plan.stdout).toContain('denies `read Source`')
    expect(plan.stdout).toMatch(/widens access/)
    const applied = await obsdeploy('apply')
    expect(applied.exitCode).toBe(0)
    expect(plainRules(customRoles()[0]!)).toEqual([
      '!read Source',
      'manage Alert',
      'manage Dashboard',
      'read Connection'
    ])
    expect((await obsdeploy('plan')).stdout).toContain('No changes')
  })

  it('a role the stack does not own is an error until adopt: true; then export writes it and a re-apply plans nothing', async () => {
    emu.managed().createRole({ name: 'Analyst', permissions: [{ action: 'read', subject: 'Dashboard' }] })
    ws.write({ 'roles.yaml': role('Analyst', '  - { action: read, subject: Dashboard }\n') })
    const refused = await obsdeploy('plan')
    expect(refused.exitCode).toBe(1)
    expect(refused.stdout + refused.stderr).toMatch(/adopt: true/)
    ws.write({ 'roles.yaml': role('Analyst', '  - { action: read, subject: Dashboard }\n', 'adopt: true\n') })
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    expect((await obsdeploy('plan')).stdout).toContain('No changes')

    const exported = await obsdeploy('export', '--out', 'exported', '--kind', 'Role')
    expect(exported.exitCode).toBe(0)
    const text = readFileSync(path.join(ws.dir, 'exported', 'roles.yaml'), 'utf8')
    expect(text).toContain('name: Analyst')
    // Never a predefined role, never the rule the server adds.
    expect(text).not.toMatch(/name: (Admin|Member|ReadOnly)/)
    expect(text).not.toContain('Connection')
    ws.remove('roles.yaml')
    const again = await runCli(
      [
        'plan',
        'exported',
        '--mode',
        'managed',
        '--api-url',
        emu.url,
        '--organization-id',
        emu.credentials.organizationId,
        '--service-id',
        emu.credentials.serviceId,
        '--stack',
        'shop'
      ],
      {
        cwd: ws.dir,
        env: { OBSDEPLOY_KEY_ID: emu.credentials.keyId, OBSDEPLOY_KEY_SECRET: emu.credentials.keySecret }
      }
    )
    expect(again.exitCode).toBe(0)
    expect(again.stdout).toContain('No changes')
  })

  it('prune deletes a role that left the manifests; a delete the server refuses is reported with its words', async () => {
    ws.write({
      'roles.yaml': DEPLOY + '---\n' + role('Viewer', '  - { action: read, subject: Dashboard }\n')
    })
    expect((await obsdeploy('apply')).exitCode).toBe(0)
    expect(
      customRoles()
        .map(r => r.name)
        .sort()
    ).toEqual(['Deploy bot', 'Viewer'])
    ws.write({ 'roles.yaml': DEPLOY })
    const viewer = customRoles().find(r => r.name === 'Viewer')!
    emu.managed().assignRole(viewer.id, 2)
    const refused = await obsdeploy('apply', '--prune')
    expect(refused.exitCode).toBe(1)
    expect(refused.stdout + refused.stderr).toContain(
      'Cannot delete role "Viewer": it is assigned to 2 user(s)'
    )
    expect(
      customRoles()
        .map(r => r.name)
        .sort()
    ).toEqual(['Deploy bot', 'Viewer'])
    emu.managed().assignRole(viewer.id, 0)
    expect((await obsdeploy('apply', '--prune')).exitCode).toBe(0)
    expect(customRoles().map(r => r.name)).toEqual(['Deploy bot'])
  })

  it('refuses a predefined name, and a role in self-hosted mode', async () => {
    ws.write({ 'roles.yaml': role('Admin', '  - { action: manage, subject: all }\n') })
    const predefined = await obsdeploy('validate')
    expect(predefined.exitCode).toBe(1)
    expect(predefined.stdout + predefined.stderr).toMatch(/observability\/roles\.yaml:2:\d+.*predefined/)
    ws.write({ 'roles.yaml': DEPLOY })
    const selfHosted = await runCli(['validate', 'observability'], { cwd: ws.dir })
    expect(selfHosted.exitCode).toBe(1)
    expect(selfHosted.stdout + selfHosted.stderr).toMatch(/observability\/roles\.yaml:1:\d+.*managed/)
  })
})
