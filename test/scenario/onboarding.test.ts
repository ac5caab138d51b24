import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { validateText } from '../../src/manifest/load.js'
import { actions, alert, dashboard, errors, obsdeploy, timeTile, useScenario } from '../support/harness.js'
import { runCli as cliRun } from '../support/cli.js'

const { emu, ws } = useScenario()

const runCli = (args: string[]) => cliRun(emu, ws, args)

/** Dashboards clicked together in the UI: every tile form, in series and config form, with alerts. */
function seedHandMade(): void {
  const store = emu.selfHosted
  const logs = store.sources.find(s => s.name === 'Logs')!.id
  const traces = store.sources.find(s => s.name === 'Traces')!.id
  const hook = store.webhooks.find(w => w.name === 'ops-pager')!.id
  const series = (type: string, extra: Record<string, unknown> = {}) => ({
    type,
    sourceId: logs,
    aggFn: 'count',
    where: 'level:error',
    groupBy: [],
    ...extra
  })
  const d1 = store.createDashboard({
    name: 'Hand made: series forms',
    tags: ['payments', 'ui'],
    tiles: [
      { name: 'Line', x: 0, y: 0, w: 6, h: 3, series: [series('time', { groupBy: ['service'] })] },
      {
        name: 'Bars',
        x: 6,
        y: 0,
        w: 6,
        h: 3,
        series: [series('time', { displayType: 'stacked_bar', aggFn: 'avg', field: 'duration' })]
      },
      {
        name: 'Ratio',
        x: 12,
        y: 0,
        w: 6,
        h: 3,
        asRatio: true,
        series: [series('time'), series('time', { where: '' })]
      },
      {
        name: 'Count',
        x: 18,
        y: 0,
        w: 6,
        h: 3,
        series: [series('number', { numberFormat: { output: 'number', mantissa: 0 } })]
      },
      { name: 'Table', x: 0, y: 3, w: 8, h: 4, series: [series('table', { groupBy: ['service', 'level'] })] },
      {
        name: 'Search',
        x: 8,
        y: 3,
        w: 8,
        h: 4,
        series: [{ type: 'search', sourceId: traces, fields: ['service', 'duration'], where: 'level:error' }]
      },
      {
        name: 'Notes',
        x: 16,
        y: 3,
        w: 8,
        h: 4,
        series: [{ type: 'markdown', content: '# Runbook\nPage the on-call.' }]
      }
    ]
  })
  store.createAlert({
    name: 'Errors high',
    dashboardId: d1.id,
    tileId: d1.tiles[0]!.id,
    source: 'tile',
    threshold: 5,
    thresholdType: 'above',
    interval: '5m',
    channel: { type: 'webhook', webhookId: hook },
    message: 'Too many errors'
  })
  store.createAlert({
    name: 'Traffic range',
    dashboardId: d1.id,
    tileId: d1.tiles[3]!.id,
    source: 'tile',
    threshold: 1,
    thresholdMax: 100,
    thresholdType: 'between',
    interval: '1h',
    numConsecutiveWindows: 3,
    channel: { type: 'webhook', webhookId: hook }
  })
  store.createDashboard({
    name: 'Hand made: config forms',
    tags: ['sre'],
    tiles: [
      {
        name: 'Line cfg',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        config: {
          displayType: 'line',
          sourceId: logs,
          select: [
            { aggFn: 'count', where: 'level:warn' },
            { aggFn: 'max', valueExpression: 'duration', alias: 'slowest' }
          ],
          groupBy: 'service',
          fillNulls: false
        }
      },
      {
        name: 'Table cfg',
        x: 6,
        y: 0,
        w: 6,
        h: 3,
        config: {
          displayType: 'table',
          sourceId: logs,
          select: [{ aggFn: 'count' }],
          groupBy: 'service',
          orderBy: 'count DESC',
          having: 'count > 1'
        }
      },
      {
        name: 'Pie',
        x: 12,
        y: 0,
        w: 6,
        h: 3,
        config: {
          displayType: 'pie',
          sourceId: logs,
          select: [{ aggFn: 'count' }],
          groupBy: 'level',
          limit: 5
        }
      },
      {
        name: 'Bar',
        x: 18,
        y: 0,
        w: 6,
        h: 3,
        config: {
          displayType: 'bar',
          sourceId: logs,
          select: [{ aggFn: 'sum', valueExpression: 'duration' }],
          groupBy: 'service'
        }
      },
      {
        name: 'Quantile',
        x: 0,
        y: 3,
        w: 6,
        h: 3,
        config: {
          displayType: 'number',
          sourceId: logs,
          select: [{ aggFn: 'quantile', valueExpression: 'duration', level: 0.95 }]
        }
      },
      {
        name: 'Search cfg',
        x: 6,
        y: 3,
        w: 6,
        h: 3,
        config: {
          displayType: 'search',
          sourceId: logs,
          select: 'service, level',
          where: 'level:error',
          whereLanguage: 'lucene'
        }
      },
      { name: 'Md cfg', x: 12, y: 3, w: 6, h: 3, config: { displayType: 'markdown', markdown: 'Hello' } }
    ]
  })
}

describe('export', () => {
  it('round-trips every tile and series form: export, adopt once, then plan shows zero changes', async () => {
    seedHandMade()
    const exported = await runCli([
      'export',
      '--out',
      'observability',
      '--api-url',
      emu.url,
      '--stack',
      'shop',
      '--kind',
      'Dashboard'
    ])
    expect(exported.code).toBe(0)
    const files = readdirSync(path.join(ws.dir, 'observability')).sort()
    expect(files).toEqual(['hand-made-config-forms.yaml', 'hand-made-series-forms.yaml'])
    const text = readFileSync(path.join(ws.dir, 'observability', 'hand-made-series-forms.yaml'), 'utf8')
    // Names, not ids; no server defaults; the short series form where it says the same.
    expect(text).toContain('source: Logs')
    expect(text).toContain('webhook: ops-pager')
    expect(text).toContain('tile: Line')
    expect(text.replace(/^#.*$/gm, '')).not.toMatch(/[0-9a-f]{24}/) // ids only in comments
    expect(text).not.toMatch(/fillNulls|whereLanguage: lucene|where: ""/)
    expect(text).toContain('adopt: true')
    for (const f of files) {
      const set = validateText(f, readFileSync(path.join(ws.dir, 'observability', f), 'utf8'), 'self-hosted')
      expect(set.diagnostics).toEqual([])
    }

    // The first plan adopts them (the ownership tag is the only change), then nothing is left.
    const plan = await obsdeploy(emu, ws, 'plan')
    expect(errors(plan)).toEqual([])
    for (const c of plan.plan!.changes.filter(c => c.action !== 'noop')) {
      expect(c.kind).toBe('Dashboard')
      expect(c.fields).toEqual([{ path: 'owner', after: 'obsdeploy:shop' }])
    }
    expect((await obsdeploy(emu, ws, 'apply')).exitCode).toBe(0)
    expect(actions(await obsdeploy(emu, ws, 'plan'))).toEqual([])
    expect(emu.selfHosted.alerts.size).toBe(2)
  })

  it('exports two same-named dashboards pinned by id: validate accepts the folder as written, and the plan shows no change', async () => {
    const store = emu.selfHosted
    const logs = store.sources.find(s => s.name === 'Logs')!.id
    const line = { displayType: 'line', sourceId: logs, select: [{ aggFn: 'count', where: 'level:error' }] }
    const tile = (name: string, config: Record<string, unknown>) => ({ name, x: 0, y: 0, w: 6, h: 3, config })
    const ids = [
      store.createDashboard({
        name: 'Overview',
        tags: ['obsdeploy:shop'],
        tiles: [tile('Errors', line), tile('Notes', { displayType: 'markdown' })]
      }).id,
      store.createDashboard({ name: 'Overview', tags: ['obsdeploy:shop'], tiles: [tile('Traffic', line)] }).id
    ]
    const exported = await runCli([
      'export',
      '--out',
      'observability',
      '--api-url',
      emu.url,
      '--stack',
      'shop',
      '--kind',
      'Dashboard'
    ])
    expect(exported.code).toBe(0)
    const dir = path.join(ws.dir, 'observability')
    const texts = ['overview.yaml', 'overview-2.yaml'].map(f => readFileSync(path.join(dir, f), 'utf8'))
    // Each file pinned to its own live dashboard, and a note that says what the pins do.
    expect(texts.map(t => /^id: (\w+)$/m.exec(t)?.[1]).sort()).toEqual([...ids].sort())
    for (const t of texts) {
      expect(t).toContain('each is pinned to its own with `id:`, so a plan matches it by id')
      expect(t).not.toMatch(/rename one of them/)
    }
    // Only what the server holds: the markdown tile has no text, so none is made up.
    expect(texts.join('\n')).not.toMatch(/content:|markdown: ""/)

    const validated = await obsdeploy(emu, ws, 'validate')
    expect(validated.diagnostics).toEqual([])
    expect(validated.exitCode).toBe(0)
    const planned = await obsdeploy(emu, ws, 'plan', { prune: 'true' })
    expect(errors(planned)).toEqual([])
    expect(planned.plan!.changes.map(c => `${c.action} ${c.kind}/${c.name} ${c.id}`).sort()).toEqual(
      ids.map(id => `noop Dashboard/Overview ${id}`).sort()
    )
  })

  it("leaves out the alerts of same-named dashboards, and the note's warning holds: prune would delete them", async () => {
    const store = emu.selfHosted
    const logs = store.sources.find(s => s.name === 'Logs')!.id
    const tiles = [
      {
        name: 'Errors',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        config: { displayType: 'line', sourceId: logs, select: [{ aggFn: 'count' }] }
      }
    ]
    const first = store.createDashboard({ name: 'Overview', tags: ['obsdeploy:shop'], tiles })
    store.createDashboard({ name: 'Overview', tags: ['obsdeploy:shop'], tiles })
    store.createAlert({
      name: 'Errors high',
      dashboardId: first.id,
      tileId: first.tiles[0]!.id,
      source: 'tile',
      threshold: 5,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId: store.webhooks[0]!.id }
    })
    const exported = await runCli([
      'export',
      '--out',
      'observability',
      '--api-url',
      emu.url,
      '--kind',
      'Dashboard'
    ])
    expect(exported.stdout).toMatch(
      /overview\.yaml: dashboard "Overview", 0 alert\(s\) \(1 left out: see the file's note\)/
    )
    const text = readFileSync(path.join(ws.dir, 'observability', 'overview.yaml'), 'utf8')
    expect(text).toContain('its 1 alert(s) are not exported ("Errors high")')
    expect(text).not.toContain('kind: Alert')
    expect(errors(await obsdeploy(emu, ws, 'validate'))).toEqual([])
    const planned = await obsdeploy(emu, ws, 'plan')
    expect(
      planned.plan!.changes.filter(c => c.kind === 'Alert').map(c => [c.action, c.name, c.deferred])
    ).toEqual([['delete', 'Errors high', 'prune']])
  })

  it('says in a comment where an id could not be mapped to a name', async () => {
    const logs = emu.selfHosted.sources.find(s => s.name === 'Logs')!
    const d = emu.selfHosted.createDashboard({
      name: 'Orphan refs',
      tiles: [
        {
          name: 'T',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          series: [{ type: 'time', sourceId: logs.id, aggFn: 'count', where: '', groupBy: [] }]
        }
      ]
    })
    emu.selfHosted.createAlert({
      dashboardId: d.id,
      tileId: d.tiles[0]!.id,
      source: 'tile',
      threshold: 1,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId: emu.selfHosted.webhooks[0]!.id }
    })
    // The source is renamed to a name another source has: no longer a unique name.
    logs.name = 'Traces'
    await runCli(['export', '--out', 'observability', '--api-url', emu.url])
    const text = readFileSync(path.join(ws.dir, 'observability', 'orphan-refs.yaml'), 'utf8')
    expect(text).toMatch(
      /# data source id [0-9a-f]{24} has a name shared by another data source: kept as sourceId/
    )
    expect(text).toMatch(/sourceId: [0-9a-f]{24}/)
    expect(text).toMatch(/# alert [0-9a-f]{24} has no name on the server/)
  })

  it('export again keeps a file the user edited and never writes through a link; --force replaces the edit', async () => {
    seedHandMade()
    const args = ['export', '--out', 'observability', '--api-url', emu.url, '--kind', 'Dashboard']
    expect((await runCli(args)).code).toBe(0)
    const dir = path.join(ws.dir, 'observability')
    const edited = path.join(dir, 'hand-made-series-forms.yaml')
    const mine = `${readFileSync(edited, 'utf8')}# reviewed by the payments team\n`
    writeFileSync(edited, mine)
    const target = path.join(ws.dir, 'outside.txt')
    writeFileSync(target, 'not a manifest\n')
    const linked = path.join(dir, 'hand-made-config-forms.yaml')
    const own = readFileSync(linked, 'utf8')
    ws.remove('hand-made-config-forms.yaml')
    symlinkSync(target, linked)

    const again = await runCli(args)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(
      'observability/hand-made-series-forms.yaml was edited since export wrote it: kept as it is'
    )
    expect(again.stderr).toContain('observability/hand-made-config-forms.yaml is a symbolic link')
    expect(readFileSync(edited, 'utf8')).toBe(mine)
    expect(readFileSync(target, 'utf8')).toBe('not a manifest\n')

    const forced = await runCli([...args, '--force'])
    expect(forced.code).toBe(1) // the link is still refused
    expect(readFileSync(edited, 'utf8')).not.toContain('reviewed by the payments team')
    expect(readFileSync(target, 'utf8')).toBe('not a manifest\n')
    expect(own).toMatch(/^# obsdeploy export sha256:/)
  })

  it('selects what to export with --tag, --name and --owned', async () => {
    seedHandMade()
    ws.write({ 'mine.yaml': dashboard('Mine', timeTile('Errors', 0, 0)) })
    await obsdeploy(emu, ws, 'apply')
    ws.remove('mine.yaml')
    const list = async (...args: string[]) => {
      const r = await runCli([
        'export',
        '--out',
        `out-${args.join('-').replace(/\W/g, '')}`,
        '--api-url',
        emu.url,
        '--stack',
        'shop',
        ...args
      ])
      expect(r.code).toBe(0)
      return r.stdout
        .match(/dashboard "([^"]+)"/g)!
        .map(s => s.slice(11, -1))
        .sort()
    }
    expect(await list('--tag', 'payments')).toEqual(['Hand made: series forms'])
    expect(await list('--name', 'Hand made: c*')).toEqual(['Hand made: config forms'])
    expect(await list('--owned')).toEqual(['Mine'])
  })
})

describe('environments', () => {
  const manifest = `kind: Dashboard
name: Checkout (\${ENV})
tiles:
${timeTile('Errors', 0, 0)}${alert('Checkout errors (${ENV})', 'Checkout (${ENV})', 'Errors').replace('threshold: 10', 'threshold: ${THRESHOLD}')}`

  it('drives two stacks from the same manifests, with values that keep their YAML type', async () => {
    ws.write({ 'checkout.yaml': manifest })
    const staging = await obsdeploy(emu, ws, 'apply', {
      stack: 'shop-staging',
      vars: 'ENV: staging\nTHRESHOLD: 50'
    })
    const production = await obsdeploy(emu, ws, 'apply', {
      stack: 'shop-production',
      vars: 'ENV: production\nTHRESHOLD: 10'
    })
    expect([staging.exitCode, production.exitCode]).toEqual([0, 0])
    const alerts = [...emu.selfHosted.alerts.values()].map(a => [a.name, a.threshold]).sort()
    expect(alerts).toEqual([
      ['Checkout errors (production)', 10],
      ['Checkout errors (staging)', 50]
    ])
    const dashboards = [...emu.selfHosted.dashboards.values()].map(d => [d.name, d.tags.join()]).sort()
    expect(dashboards).toEqual([
      ['Checkout (production)', 'obsdeploy:shop-production'],
      ['Checkout (staging)', 'obsdeploy:shop-staging']
    ])
    // Each environment's second plan is empty, and neither prunes the other.
    expect(
      actions(
        await obsdeploy(emu, ws, 'plan', {
          stack: 'shop-staging',
          vars: 'ENV: staging\nTHRESHOLD: 50',
          prune: 'true'
        })
      )
    ).toEqual([])
  })

  it('refuses an unknown placeholder at its line, before any write (the live read that overlaps loading is dropped)', async () => {
    ws.write({ 'checkout.yaml': manifest })
    emu.clearLog()
    const result = await obsdeploy(emu, ws, 'plan', { vars: 'ENV: staging\nTRESHOLD: 50' })
    expect(result.exitCode).toBe(1)
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({
        line: 20,
        message: expect.stringMatching(/unknown variable \$\{THRESHOLD\} \(did you mean \$\{TRESHOLD\}\?\)/)
      })
    )
    expect(emu.requestLog.filter(r => r.method !== 'GET')).toEqual([])
  })
})

describe('check-queries', () => {
  const tile = (name: string, x: number, where: string, language = 'lucene') => `  - name: ${name}
    x: ${x}
    y: 0
    w: 6
    h: 3
    series:
      - type: time
        source: Logs
        aggFn: count
        where: '${where}'
        whereLanguage: ${language}
`

  it('runs changed tile queries: data is fine, a server error is an error at the tile, no data is a warning', async () => {
    ws.write({
      'q.yaml': dashboard(
        'Queries',
        tile('Good', 0, 'level:error') +
          tile('Empty', 6, 'service:nothing-like-this') +
          tile('Broken', 12, 'level = ', 'sql')
      )
    })
    const result = await obsdeploy(emu, ws, 'plan', { 'check-queries': 'true' })
    const byTile = (name: string) => result.diagnostics.filter(d => d.message.startsWith(`tile "${name}"`))
    expect(byTile('Good')).toEqual([])
    expect(byTile('Empty')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        line: 15,
        message: 'tile "Empty": the query returns no data over the last 24 hours'
      })
    ])
    expect(byTile('Broken')).toEqual([
      expect.objectContaining({
        severity: 'error',
        line: 26,
        message: expect.stringMatching(
          /the query fails on the server: POST \/api\/v2\/charts\/series failed: HTTP 400/
        )
      })
    ])
    const change = result.plan!.changes.find(c => c.kind === 'Dashboard')!
    expect(change.evidence).toEqual([
      expect.stringMatching(/^tile "Good": data in \d+ of 48 30m buckets over the last 24 hours$/)
    ])
    expect(result.exitCode).toBe(1) // a query the server refuses is a plan error
  })

  it('counts how often a changed alert would have fired over the last 7 days, from the seeded data', async () => {
    ws.write({
      'q.yaml':
        dashboard('Queries', tile('Errors', 0, 'level:error')) +
        alert('Error alert', 'Queries', 'Errors', 2).replace('interval: 5m', 'interval: 1h')
    })
    const now = Date.now()
    const result = await obsdeploy(emu, ws, 'plan', { 'check-queries': 'true' }, false, {
      now: () => new Date(now)
    })
    // Independently: hourly windows (aligned to the epoch) of error events with at least 2, over the 7 days of
    // whole windows before the current, unfinished one (the server's alert check evaluates a window once it ends).
    const end = Math.floor(now / 3_600_000) * 3_600_000
    const perHour = new Map<number, number>()
    for (const e of emu.selfHosted.events) {
      if (e.fields.level !== 'error' || e.timestamp < end - 7 * 24 * 3_600_000 || e.timestamp >= end) continue
      const bucket = Math.floor(e.timestamp / 3_600_000)
      perHour.set(bucket, (perHour.get(bucket) ?? 0) + 1)
    }
    const expected = [...perHour.values()].filter(n => n >= 2).length
    expect(expected).toBeGreaterThan(0)
    const evidence = result.plan!.changes.find(c => c.kind === 'Alert')!.evidence!.join(' ')
    expect(evidence).toMatch(
      new RegExp(`would have fired in ${expected} of 168 1h windows at threshold above 2`)
    )
  })

  it("replays a quantile tile at its level, not the server's default one", async () => {
    ws.write({
      'q.yaml':
        dashboard(
          'Latency',
          `  - name: p99
    x: 0
    y: 0
    w: 6
    h: 3
    series:
      - type: time
        source: Logs
        aggFn: quantile
        level: 0.99
        field: duration
        where: 'service:checkout'
`
        ) + alert('Slow checkout', 'Latency', 'p99', 100000).replace('interval: 5m', 'interval: 1h')
    })
    const result = await obsdeploy(emu, ws, 'plan', { 'check-queries': 'true' })
    // Independently: the 99th percentile of checkout durations per hour (aligned to the epoch), then the highest.
    const now = Date.now()
    const perHour = new Map<number, number[]>()
    for (const e of emu.selfHosted.events) {
      if (e.fields.service !== 'checkout' || e.timestamp < now - 24 * 3_600_000) continue
      const bucket = Math.floor(e.timestamp / 3_600_000)
      perHour.set(bucket, [...(perHour.get(bucket) ?? []), Number(e.fields.duration)])
    }
    const quantile = (values: number[], level: number) => {
      const sorted = [...values].sort((a, b) => a - b)
      return sorted[Math.min(sorted.length - 1, Math.floor(level * sorted.length))]!
    }
    const highest = (level: number) => Math.max(...[...perHour.values()].map(v => quantile(v, level)))
    expect(highest(0.99)).not.toBe(highest(0.5))
    const evidence = result.plan!.changes.find(c => c.kind === 'Alert')!.evidence!.join(' ')
    expect(evidence).toContain(`(highest value ${highest(0.99)})`)
  })

  it('is a notice in managed mode, which has no charts route', async () => {
    ws.write({ 'q.yaml': dashboard('Queries', tile('Errors', 0, 'level:error')) })
    const result = await obsdeploy(emu, ws, 'plan', { mode: 'managed', 'check-queries': 'true' })
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'notice', message: expect.stringMatching(/self-hosted mode only/) })
    )
  })
})
