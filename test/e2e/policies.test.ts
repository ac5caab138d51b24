/**
 * Policies through the built bundles: the recommended pack's rules as annotations at the offending
 * file:line:col (and silent on good manifests), a user's CEL rule, a suppression honoured and listed, and
 * a policy message that stays inert in the job summary.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { runAction, runCli } from './runner.js'

let workspace: string
const tile = `tiles:
  - name: A
    x: 0
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
`
const POLICY = `kind: Policy
name: org
recommended: true
rules:
  - id: tile-budget
    kinds: [Dashboard]
    severity: error
    message: "at most 1 tile <img src=x onerror=alert(1)> @everyone"
    check: size(resource.tiles) <= 1
    field: tiles
`
const GOOD = `kind: Dashboard
name: Checkout
tags: [owner:payments]
${tile}---
kind: Alert
name: Checkout errors
dashboard: Checkout
tile: A
threshold: 1
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: oncall }
message: Runbook https://runbooks.example/checkout
`
const BAD = `kind: Dashboard
name: " Cart"
tags: [payments]
${tile}  - name: B
    x: 6
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count }]
---
# obsdeploy: allow recommended/alert-interval -- pages the on-call within a minute of a checkout outage
kind: Alert
name: Cart errors
dashboard: " Cart"
tile: A
threshold: 1
thresholdType: above
interval: 1m
channels: []
message: no link
`

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), 'obsdeploy-e2e-policies-'))
  await mkdir(path.join(workspace, 'good'))
  await mkdir(path.join(workspace, 'bad'))
  await writeFile(path.join(workspace, 'good/policy.yaml'), POLICY)
  await writeFile(path.join(workspace, 'good/checkout.yaml'), GOOD)
  await writeFile(path.join(workspace, 'bad/policy.yaml'), POLICY)
  await writeFile(path.join(workspace, 'bad/cart.yaml'), BAD)
})

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true })
})

describe('policies in validate (bundles)', () => {
  it('are silent on good manifests', async () => {
    const cli = await runCli(['validate', 'good'], { cwd: workspace })
    expect(cli.stdout + cli.stderr).not.toContain('[policy')
    expect(cli.exitCode).toBe(0)
  })

  it('annotate each rule at its file:line:col, list the suppression, and keep messages inert', async () => {
    const run = await runAction({
      inputs: { command: 'validate', manifests: 'bad/**/*.yaml' },
      cwd: workspace
    })
    expect(run.exitCode).toBe(1)
    const at = (id: string) =>
      run.annotations
        .filter(a => a.file !== undefined && a.message.includes(`: ${id}]`))
        .map(a => `${a.level} ${a.file}:${a.line}:${a.col}`)
    expect(at('recommended/name-pattern')).toEqual(['warning bad/cart.yaml:2:7'])
    expect(at('recommended/owner-tag')).toEqual(['warning bad/cart.yaml:3:7'])
    expect(at('tile-budget')).toEqual(['error bad/cart.yaml:5:3'])
    expect(at('recommended/alert-channel')).toEqual(['error bad/cart.yaml:26:11'])
    expect(at('recommended/runbook-link')).toEqual(['warning bad/cart.yaml:27:10'])
    expect(at('recommended/alert-interval')).toEqual([])
    expect(run.annotations).toContainEqual(
      expect.objectContaining({
        level: 'notice',
        file: 'bad/cart.yaml',
        line: 18,
        message: expect.stringContaining(
          'policy rule "recommended/alert-interval" is suppressed for Alert "Cart errors": pages the on-call'
        )
      })
    )
    expect(run.summary).toContain('tile-budget')
    expect(run.summary).not.toContain('<img')
    expect(run.summary).not.toMatch(/(^|[^`\w])@everyone/)
  })
})
