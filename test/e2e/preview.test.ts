/**
 * The plan's preview, from the built action (dist/index.js) as the runner runs it: the layout picture puts
 * each tile at its coordinates and marks what moved, grew, came and went (read back from the picture); with
 * check-queries the chart's points are the series the emulator returns, "NO DATA" is said exactly for the
 * tile whose series is empty; and 300 changed dashboards still fit the comment, the previews cut first.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { workspace, type Workspace } from '../support/harness.js'
import { pullRequestEvent, pushEvent, runAction, runCli, type ActionRun } from './runner.js'

let emu: Emulator
let gh: FakeGitHub
const runs: ActionRun[] = []
const spaces: Workspace[] = []

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
  gh = await startFakeGitHub()
})
afterAll(async () => {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  for (const ws of spaces) ws.cleanup()
})

/** A run on pull request `pr`; 0: a push to main (where apply runs). */
async function action(ws: Workspace, pr: number, inputs: Record<string, string>): Promise<ActionRun> {
  const run = await runAction({
    cwd: ws.dir,
    eventName: pr === 0 ? 'push' : 'pull_request',
    event: pr === 0 ? pushEvent('refs/heads/main') : pullRequestEvent(pr),
    inputs: {
      'rate-limit': 'off',
      'api-url': emu.url,
      'api-key': emu.credentials.apiKey,
      'github-token': 'ghs_fake_token_for_tests',
      ...inputs
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ATTEMPT: '1' },
    timeoutMs: 120_000
  })
  runs.push(run)
  return run
}

interface Cell {
  x: number
  y: number
  w: number
  h: number
}
interface Layout {
  [name: string]: Cell
}

const tileYaml = (
  name: string,
  c: Cell,
  where = 'level:error',
  extra = ''
): string => `  - name: ${JSON.stringify(name)}
    x: ${c.x}
    y: ${c.y}
    w: ${c.w}
    h: ${c.h}
    series:
      - type: time
        source: Logs
        aggFn: count
        where: ${JSON.stringify(where)}
${extra}`

const dashboardYaml = (name: string, layout: Layout, where: Record<string, string> = {}): string =>
  `kind: Dashboard\nname: ${JSON.stringify(name)}\ntiles:\n${Object.entries(layout)
    .map(([tile, c]) => tileYaml(tile, c, where[tile]))
    .join('')}`

/** The fenced block after the summary that names the dashboard: the picture, its diff signs dropped. */
function picture(body: string, dashboard: string): string[] {
  const at = body.indexOf(`📐 <b>${dashboard}</b>`)
  expect(at).toBeGreaterThanOrEqual(0)
  const fence = /```diff\n([\s\S]*?)\n```/.exec(body.slice(at))
  expect(fence).not.toBeNull()
  return fence![1]!.split('\n')
}

/** The part of a picture under a title line ("after (this plan):"), up to the next blank line. */
function section(lines: string[], title: string): { signs: string[]; rows: string[] } {
  const start = lines.findIndex(l => l.slice(1) === title)
  expect(start).toBeGreaterThanOrEqual(0)
  const rest = lines.slice(start + 1)
  const end = rest.findIndex(l => l.slice(1).trim() === '')
  const part = end < 0 ? rest : rest.slice(0, end)
  return { signs: part.map(l => l[0]!), rows: part.map(l => l.slice(1)) }
}

/** Every box in a grid drawn 3 characters a column and a line a row: its name (mark and all) and its cell. */
function boxes(rows: string[]): Map<string, Cell & { double: boolean; label: string }> {
  const out = new Map<string, Cell & { double: boolean; label: string }>()
  const chars = rows.map(r => [...r])
  for (let y = 0; y < chars.length; y++) {
    for (let x = 0; x < chars[y]!.length; x++) {
      const ch = chars[y]![x]
      if (ch !== '┌' && ch !== '╔') continue
      const double = ch === '╔'
      const right = chars[y]!.indexOf(double ? '╗' : '┐', x)
      let bottom = y + 1
      while (bottom < chars.length && chars[bottom]![x] !== (double ? '╚' : '└')) bottom++
      const label = chars[y]!.slice(x + 1, right)
        .join('')
        .replace(/[─═]+$/, '')
      const cell = { x: x / 3, y, w: (right + 1 - x) / 3, h: bottom - y + 1, double, label }
      out.set(label.replace(/^[-+>#~]+/, ''), cell)
    }
  }
  return out
}

describe('the layout preview, read back from the comment', () => {
  const before: Layout = {
    Errors: { x: 0, y: 0, w: 12, h: 3 },
    Latency: { x: 12, y: 0, w: 12, h: 3 },
    Traffic: { x: 0, y: 3, w: 8, h: 2 },
    Legacy: { x: 8, y: 3, w: 8, h: 2 }
  }
  const after: Layout = {
    Errors: { x: 0, y: 0, w: 12, h: 3 },
    Latency: { x: 6, y: 5, w: 18, h: 4 },
    Traffic: { x: 0, y: 3, w: 8, h: 2 },
    Saturation: { x: 12, y: 0, w: 12, h: 3 }
  }

  it('places each tile at its coordinates, before and after, and marks new, moved, resized and removed tiles', async () => {
    const ws = workspace()
    spaces.push(ws)
    ws.write({ 'grid.yaml': dashboardYaml('Grid', before) })
    const applied = await action(ws, 0, { command: 'apply', stack: 'grid' })
    expect(applied.exitCode).toBe(0)
    ws.write({ 'grid.yaml': dashboardYaml('Grid', after) })
    const planned = await action(ws, 72, { command: 'plan', stack: 'grid' })
    expect(planned.exitCode).toBe(0)
    const body = gh.comments(72).at(-1)!.body
    expect(body).toContain('#### 🖼️ Preview')
    const lines = picture(body, 'Grid')

    const old = boxes(section(lines, 'before (live):').rows)
    const now = section(lines, 'after (this plan):')
    const fresh = boxes(now.rows)
    for (const [name, cell] of Object.entries(after)) expect(fresh.get(name)).toMatchObject(cell)
    for (const [name, cell] of Object.entries(before)) expect(old.get(name)).toMatchObject(cell)
    expect(fresh.has('Legacy')).toBe(false)

    // Marks: + new, - removed, >#  moved and resized; unchanged tiles have light borders and no mark.
    expect(fresh.get('Saturation')).toMatchObject({ double: true, label: '+Saturation' })
    expect(fresh.get('Latency')).toMatchObject({ double: true, label: '>#Latency' })
    expect(old.get('Latency')).toMatchObject({ double: true, label: '>#Latency' })
    expect(old.get('Legacy')).toMatchObject({ double: true, label: '-Legacy' })
    expect(fresh.get('Errors')).toMatchObject({ double: false, label: 'Errors' })
    expect(fresh.get('Traffic')).toMatchObject({ double: false, label: 'Traffic' })
    // The diff fence colours exactly the rows of the new layout that hold a changed tile (Saturation 0-2, Latency 5-8).
    const coloured = now.signs.flatMap((s, y) => (s === '+' && y < 9 ? [y] : []))
    expect(coloured).toEqual([0, 1, 2, 5, 6, 7, 8])
    expect(body).toMatch(
      /<summary>📐 <b>Grid<\/b> · layout: 1 new, 1 moved and resized, 1 removed<\/summary>/
    )
  })

  it('prints the same picture in the terminal with plan --preview, and nothing of it without', async () => {
    const ws = workspace()
    spaces.push(ws)
    ws.write({ 'observability/grid.yaml': dashboardYaml('Grid CLI', after) })
    const env = { OBSDEPLOY_API_KEY: emu.credentials.apiKey }
    const args = ['plan', 'observability/', '--api-url', emu.url, '--stack', 'grid']
    const withPreview = await runCli([...args, '--preview'], { cwd: ws.dir, env })
    expect(withPreview.exitCode).toBe(0)
    const rows = withPreview.stdout
      .split('\n')
      .filter(l => /^ {2}[-+ ] /.test(l))
      .map(l => l.slice(4))
    const start = rows.findIndex(r => r === 'new dashboard:')
    const drawn = boxes(rows.slice(start + 1, start + 10))
    for (const [name, cell] of Object.entries(after)) expect(drawn.get(name)).toMatchObject(cell)
    const without = await runCli(args, { cwd: ws.dir, env })
    expect(without.stdout).not.toContain('Preview:')
  })
})

describe('the data preview, with check-queries', () => {
  it("charts each changed tile's series as the emulator returns it, and says NO DATA exactly where it is empty", async () => {
    const ws = workspace()
    spaces.push(ws)
    const layout: Layout = {
      Errors: { x: 0, y: 0, w: 12, h: 3 },
      Nothing: { x: 12, y: 0, w: 12, h: 3 },
      Warnings: { x: 0, y: 3, w: 12, h: 3 }
    }
    ws.write({
      'data.yaml': dashboardYaml('Data', layout, {
        Errors: 'level:error',
        Nothing: 'service:no-such-service',
        Warnings: 'level:warn'
      })
    })
    const run = await action(ws, 73, { command: 'plan', stack: 'data', 'check-queries': 'true' })
    const body = gh.comments(73).at(-1)!.body
    const plan = JSON.parse(readFileSync(run.outputs['plan-file']!, 'utf8'))
    const tiles = plan.preview.tiles as Array<{
      tile: string
      status: string
      startTime: number
      endTime: number
    }>
    expect(tiles.map(t => [t.tile, t.status])).toEqual([
      ['Errors', 'ok'],
      ['Nothing', 'empty'],
      ['Warnings', expect.stringMatching(/^(ok|empty)$/)]
    ])

    // The same query, asked of the emulator directly.
    const sources = (await (
      await fetch(`${emu.url}/api/v2/sources`, {
        headers: { authorization: `Bearer ${emu.credentials.apiKey}` }
      })
    ).json()) as { data?: Array<{ id: string; name: string }> } | Array<{ id: string; name: string }>
    const list = Array.isArray(sources) ? sources : sources.data!
    const logs = list.find(s => s.name === 'Logs')!
    const errors = tiles[0]!
    const reply = await fetch(`${emu.url}/api/v2/charts/series`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.credentials.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        series: [
          { sourceId: logs.id, aggFn: 'count', where: 'level:error', whereLanguage: 'lucene', groupBy: [] }
        ],
        startTime: errors.startTime,
        endTime: errors.endTime,
        granularity: '30m'
      })
    })
    const returned = ((await reply.json()) as { data: Array<Record<string, number | string>> }).data
    expect(returned.length).toBeGreaterThan(1)
    // The whole axis: 48 whole 30m buckets, each at its time, a bucket without rows null (0 as drawn: the tile fills nulls).
    const { axis, lines } = errors as unknown as {
      axis: { start: number; step: number; count: number }
      lines: Array<{ values: Array<number | null> }>
    }
    expect(axis).toEqual({ start: errors.startTime, step: 1_800_000, count: 48 })
    const byBucket = new Map(returned.map(p => [Number(p.ts_bucket), Number(p['series_0.data'])]))
    const expected = Array.from({ length: 48 }, (_, i) => byBucket.get(axis.start + i * axis.step) ?? null)
    expect(byBucket.size).toBe(expected.filter(v => v !== null).length)
    expect(lines[0]!.values).toEqual(expected)

    // The chart in the comment: one value per bucket over a time axis from the first bucket, in hours.
    const chart =
      /```mermaid\n(?:\s*%%\{init.*\}%%\n)?\s*xychart-beta\n\s*x-axis "hours from [A-Z][a-z]{2} (\d\d:\d\d) UTC" 0 --> ([\d.]+)\n.*\n\s*line \[(.*)\]/.exec(
        body
      )
    expect(chart).not.toBeNull()
    expect(chart![1]).toBe(new Date(axis.start).toISOString().slice(11, 16))
    expect(Number(chart![2])).toBe(23.5)
    expect(chart![3]!.split(', ').map(Number)).toEqual(expected.map(v => v ?? 0))
    const spark = new RegExp(`\\*\\*Errors\\*\\*: \`([▁▂▃▄▅▆▇█]+)\``).exec(body)
    expect([...spark![1]!]).toHaveLength(48)

    // NO DATA exactly for the tile whose series is empty: in its line and in the dashboard's summary.
    const empty = tiles.filter(t => t.status === 'empty').map(t => t.tile)
    const said = [...body.matchAll(/\*\*([^*]+)\*\*: \*\*NO DATA in 24 h/g)].map(m => m[1])
    expect(said).toEqual(empty)
    expect(body).toContain(`⚠️ <b>NO DATA in 24 h</b>: ${empty.map(n => `"${n}"`).join(', ')}`)
    expect(body.match(/NO DATA/g)).toHaveLength(empty.length + 1)
  })

  it('says in one line per tile why there is no data preview in managed mode', async () => {
    const ws = workspace()
    spaces.push(ws)
    ws.write({ 'm.yaml': dashboardYaml('Managed', { One: { x: 0, y: 0, w: 6, h: 2 } }) })
    const run = await action(ws, 74, {
      command: 'plan',
      stack: 'managed',
      mode: 'managed',
      'api-key': '',
      'key-id': emu.credentials.keyId,
      'key-secret': emu.credentials.keySecret,
      'organization-id': emu.credentials.organizationId,
      'service-id': emu.credentials.serviceId,
      'check-queries': 'true'
    })
    expect(run.exitCode).toBe(0)
    const body = gh.comments(74).at(-1)!.body
    expect(body).toContain('- ℹ️ **One**: no data preview: the managed API has no charts route')
  })
})

describe('size', () => {
  it('keeps a plan of 300 changed dashboards under the comment limit, cutting the previews first', async () => {
    const ws = workspace()
    spaces.push(ws)
    const files: Record<string, string> = {}
    for (let i = 0; i < 300; i++) {
      const layout: Layout = {}
      for (let t = 0; t < 8; t++)
        layout[`Tile ${t}`] = { x: (t % 4) * 6, y: Math.floor(t / 4) * 3, w: 6, h: 3 }
      files[`d${i}.yaml`] = dashboardYaml(`Dashboard ${String(i).padStart(3, '0')}`, layout)
    }
    ws.write(files)
    const run = await action(ws, 75, { command: 'plan', stack: 'many', 'server-validation': 'false' })
    expect(run.exitCode).toBe(0)
    const body = gh.comments(75).at(-1)!.body
    expect(body.length).toBeLessThanOrEqual(65536)
    // The job summary (1 MiB) has room for every picture.
    expect(run.summary.match(/📐 <b>/g)).toHaveLength(300)
    // The previews went first: none is left whole, and every created dashboard still has its line.
    expect(body).toMatch(/ℹ️ \d+ more previews are not shown here/)
    expect(body).not.toContain('📐 <b>')
    const created = body.match(/<summary>➕ Dashboard <b>Dashboard \d{3}<\/b>/g) ?? []
    const cutResources = /more resources in this group are not shown/.test(body)
    if (cutResources) expect(body).not.toMatch(/- 📐 \*\*/)
    expect(created.length + (cutResources ? 1 : 0)).toBeGreaterThan(0)
  }, 180_000)
})
