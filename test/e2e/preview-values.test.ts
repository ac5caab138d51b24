/**
 * Values from the data in the built action's plan (dist/index.js, as the runner runs it) with check-queries on:
 * tiles grouped by people's emails, client IPs (v4 and v6) and account numbers. With the default inputs none of
 * them appears in the comment, the job summary, the log or the plan file (each is masked with a keyed tag, and
 * the masks are there: the preview is not simply empty); with `preview-values: hide` no value from the data
 * appears at all, masked or not.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, readable, runAction, type ActionRun } from './runner.js'

const EMAILS = ['jane.doe@customer.example', 'omar.said@customer.example', 'li.wei@customer.example']
const IPS = ['203.0.113.47', '198.51.100.12', '2001:db8:85a3::8a2e:370:7334']
const ACCOUNTS = ['48291736', '50038211', '7730019']
const RAW = [...EMAILS, ...IPS, ...ACCOUNTS]

let emu: Emulator
let gh: FakeGitHub
const spaces: Workspace[] = []
const runs: ActionRun[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
  const logs = emu.selfHosted.sources.find(s => s.name === 'Logs')!.id
  // Over the last 6 hours, every few minutes: one event per person, with their IP and account.
  const now = Date.now()
  for (let m = 5; m < 360; m += 7)
    EMAILS.forEach((user, i) =>
      emu.selfHosted.events.push({
        timestamp: now - m * 60_000,
        sourceId: logs,
        fields: {
          app: 'shop',
          user,
          client_ip: IPS[i]!,
          account: ACCOUNTS[i]!,
          level: 'error',
          duration: 10 + i
        }
      })
    )
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  for (const ws of spaces) ws.cleanup()
})

const tile = (name: string, x: number, body: string) =>
  `  - name: ${name}\n    x: ${x}\n    y: 0\n    w: 4\n    h: 3\n${body}`
const MANIFESTS = {
  'shop.yaml': `kind: Dashboard
name: Shop
tiles:
${tile('By user', 0, `    series:\n      - type: time\n        source: Logs\n        aggFn: count\n        where: 'app:shop'\n        groupBy: [user]\n`)}${tile(
    'By IP',
    4,
    `    config:\n      displayType: table\n      source: Logs\n      select: [{ aggFn: count, where: 'app:shop' }]\n      groupBy: client_ip\n`
  )}${tile(
    'By account',
    8,
    `    config:\n      displayType: pie\n      source: Logs\n      select: [{ aggFn: sum, valueExpression: duration, where: 'app:shop' }]\n      groupBy: account\n`
  )}---
kind: Alert
name: Busy user
dashboard: Shop
tile: By user
threshold: 1
thresholdType: above
interval: 15m
channel: { type: webhook, webhook: ops-pager }
`
}

async function plan(pr: number, inputs: Record<string, string>): Promise<Record<string, string>> {
  const ws = workspace(MANIFESTS)
  spaces.push(ws)
  const run = await runAction({
    cwd: ws.dir,
    eventName: 'pull_request',
    event: pullRequestEvent(pr),
    inputs: {
      'rate-limit': 'off',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      command: 'plan',
      stack: 'shop',
      'check-queries': 'true',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ATTEMPT: '1' },
    timeoutMs: 120_000
  })
  runs.push(run)
  expect({ exit: run.exitCode, errors: run.annotations.filter(a => a.level === 'error') }).toEqual({
    exit: 0,
    errors: []
  })
  return {
    comment: readable(gh.comments(pr).at(-1)?.body ?? ''),
    summary: readable(run.summary),
    log: run.stdout + run.stderr,
    planFile: readFileSync(run.outputs['plan-file']!, 'utf8')
  }
}

/** Which raw values each place holds (none, when all is well). */
function leaks(places: Record<string, string>, values: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(places).map(([place, text]) => [place, values.filter(v => text.toLowerCase().includes(v))])
  )
}
const none = (places: Record<string, string>) => Object.fromEntries(Object.keys(places).map(p => [p, []]))

describe('preview-values', () => {
  it('by default, no email, IP or long number from the data appears anywhere; each is there masked', async () => {
    const places = await plan(81, {})
    expect(leaks(places, RAW)).toEqual(none(places))
    const preview = JSON.parse(places.planFile!).preview
    expect(preview.values).toBe('mask')
    const byName = (name: string) => preview.tiles.find((t: { tile: string }) => t.tile === name)
    expect(byName('By user').lines.map((l: { name: string }) => l.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^j\*\*\*e@customer\.example #[0-9a-f]{4}$/)])
    )
    expect(
      byName('By IP')
        .table.rows.map((r: string[]) => r[0])
        .sort()
    ).toEqual([
      expect.stringMatching(/^IPv4 #[0-9a-f]{4}$/),
      expect.stringMatching(/^IPv4 #[0-9a-f]{4}$/),
      expect.stringMatching(/^IPv6 #[0-9a-f]{4}$/)
    ])
    expect(byName('By account').bars).toHaveLength(3)
    for (const bar of byName('By account').bars) expect(bar.name).toMatch(/^\d digits #[0-9a-f]{4}$/)
    expect(JSON.parse(places.planFile!).preview.alerts[0].fired).toBeGreaterThan(0)
  }, 180_000)

  it('hide: no value from the data at all, masked or not; shapes and totals stay', async () => {
    const places = await plan(82, { 'preview-values': 'hide' })
    expect(leaks(places, [...RAW, 'customer.example', 'ipv4 #', 'ipv6 #', 'digits #'])).toEqual(none(places))
    const preview = JSON.parse(places.planFile!).preview
    expect(preview.values).toBe('hide')
    const byName = (name: string) => preview.tiles.find((t: { tile: string }) => t.tile === name)
    expect(byName('By user').lines).toHaveLength(3)
    expect(byName('By IP').table.rows).toEqual([
      [null, expect.any(Number)],
      [null, expect.any(Number)],
      [null, expect.any(Number)]
    ])
    expect(byName('By account').bars.every((b: object) => !('name' in b))).toBe(true)
  }, 180_000)
})
