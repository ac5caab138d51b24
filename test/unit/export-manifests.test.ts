/**
 * What export writes for records that share a name (an `id:` pin on each, and a note that says what the pins do),
 * and that it writes only what the live record holds: no default filled in where the server returned none.
 */
import { describe, expect, it } from '@jest/globals'
import { LiveAlert, LiveDashboard, LiveSource } from '../../src/api/schemas.js'
import { exportManifests, type ExportedFile, type ExportInput } from '../../src/export/manifests.js'
import { validateText } from '../../src/manifest/load.js'

const LOGS = 'aaaaaaaaaaaaaaaaaaaaaaa1'
const source = (id: string, name: string) => LiveSource.parse({ id, name, kind: 'log' })
const tile = (name: string, extra: Record<string, unknown>) => ({
  id: `t-${name}`,
  name,
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  ...extra
})
const line = tile('Errors', { config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count' }] } })
const dashboard = (id: string, name: string, tiles: unknown[] = [line]) =>
  LiveDashboard.parse({ id, name, tags: ['obsdeploy:shop'], tiles })
const ONE = 'bbbbbbbbbbbbbbbbbbbbbbb1'
const TWO = 'bbbbbbbbbbbbbbbbbbbbbbb2'

const run = (input: Partial<ExportInput> & Pick<ExportInput, 'dashboards'>): ExportedFile[] =>
  exportManifests({ alerts: [], sources: [source(LOGS, 'Logs')], ownershipTag: 'obsdeploy:shop', ...input })
const dashboardFiles = (files: ExportedFile[]) => files.filter(f => f.kind === 'Dashboard')
/** The dashboard files as one folder: every document of every file, validated together. */
const validateAll = (files: ExportedFile[]) =>
  validateText(
    'observability.yaml',
    dashboardFiles(files)
      .map(f => f.text)
      .join('\n---\n'),
    'self-hosted'
  ).diagnostics

describe('export of same-named dashboards', () => {
  it('pins each to its own live id, says what the pins do, and validate accepts the files as written', () => {
    const files = run({ dashboards: [dashboard(ONE, 'Overview'), dashboard(TWO, 'Overview')] })
    const [a, b] = dashboardFiles(files)
    expect([a!.name, b!.name]).toEqual(['overview.yaml', 'overview-2.yaml'])
    expect(a!.text).toMatch(/^name: Overview\nid: bbbbbbbbbbbbbbbbbbbbbbb1$/m)
    expect(b!.text).toMatch(/^name: Overview\nid: bbbbbbbbbbbbbbbbbbbbbbb2$/m)
    for (const f of [a!, b!]) {
      expect(f.text).toContain(
        `# 2 dashboards are named "Overview" (ids ${ONE}, ${TWO}): each is pinned to its own with \`id:\`, so a plan matches it by id, not by name, and validate accepts the shared name as long as every manifest of that name keeps its pin`
      )
      expect(f.text).not.toMatch(/rename one of them before planning/)
    }
    expect(validateAll(files)).toEqual([])
  })

  it('pins a dashboard whose name another live dashboard has, even when the selection exports only this one', () => {
    const twin = dashboard(TWO, 'Overview')
    const files = run({ dashboards: [twin], allDashboards: [dashboard(ONE, 'Overview'), twin] })
    expect(dashboardFiles(files)[0]!.text).toMatch(/^id: bbbbbbbbbbbbbbbbbbbbbbb2$/m)
    // A name no other dashboard has needs no pin.
    expect(dashboardFiles(run({ dashboards: [dashboard(ONE, 'Overview')] }))[0]!.text).not.toMatch(/^id:/m)
  })

  it('leaves out the alerts of dashboards that share a name in the export, naming them in the note', () => {
    const alert = LiveAlert.parse({
      id: 'cccccccccccccccccccccccc',
      name: 'Errors high',
      dashboardId: ONE,
      tileId: 't-Errors',
      source: 'tile',
      threshold: 5,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId: 'dddddddddddddddddddddddd' }
    })
    const files = run({
      dashboards: [dashboard(ONE, 'Overview'), dashboard(TWO, 'Overview')],
      alerts: [alert]
    })
    const first = dashboardFiles(files)[0]!
    expect(first.alerts).toBe(0)
    expect(first.alertsLeftOut).toBe(1)
    expect(first.text).not.toContain('kind: Alert')
    expect(first.text).toContain(
      'its 1 alert(s) are not exported ("Errors high"): an alert names its dashboard by name'
    )
    expect(validateAll(files)).toEqual([])
    // With only one of them exported, its alerts are: the name says which dashboard.
    const alone = dashboardFiles(
      run({
        dashboards: [dashboard(ONE, 'Overview')],
        allDashboards: [dashboard(ONE, 'Overview'), dashboard(TWO, 'Overview')],
        alerts: [alert]
      })
    )[0]!
    expect([alone.alerts, alone.alertsLeftOut]).toEqual([1, undefined])
    expect(alone.text).toContain('kind: Alert')
  })
})

describe('export of other same-named records', () => {
  it('pins same-named data sources and says that manifests name them by name, so one needs renaming', () => {
    const files = run({
      dashboards: [],
      sources: [source(LOGS, 'Logs'), source('aaaaaaaaaaaaaaaaaaaaaaa2', 'Logs')]
    })
    const text = files.find(f => f.kind === 'Source')!.text
    expect(text).toMatch(/^name: Logs\nid: aaaaaaaaaaaaaaaaaaaaaaa1\nsourceKind: log$/m)
    expect(text).toMatch(/^name: Logs\nid: aaaaaaaaaaaaaaaaaaaaaaa2\nsourceKind: log$/m)
    expect(text).toContain(
      '2 data sources are named "Logs" (ids aaaaaaaaaaaaaaaaaaaaaaa1, aaaaaaaaaaaaaaaaaaaaaaa2): each is pinned to its own with `id:`, but manifests name data sources by name, so validate refuses two of one name: rename one of them here'
    )
  })
})

describe('export writes only what the live record holds', () => {
  it('a markdown tile without text stays in the config form: no empty content made up', () => {
    const files = run({
      dashboards: [
        dashboard(ONE, 'Notes', [
          tile('Config', { config: { displayType: 'markdown' } }),
          tile('Series', { series: [{ type: 'markdown' }] }),
          tile('Text', { config: { displayType: 'markdown', markdown: '# Runbook' } })
        ])
      ]
    })
    const text = dashboardFiles(files)[0]!.text
    expect(text).not.toMatch(/content: ""|markdown: ""/)
    expect(text.match(/config:\n\s+displayType: markdown\n/g)).toHaveLength(2)
    expect(text).toMatch(/series:\n\s+- type: markdown\n\s+content: "# Runbook"/)
    expect(validateAll(files)).toEqual([])
  })

  it('says in a comment where the manifest language needs a value the server did not return', () => {
    const text = dashboardFiles(
      run({
        dashboards: [
          dashboard(ONE, 'Bare', [tile('Empty', {}), tile('Untyped', { series: [{ aggFn: 'count' }] })])
        ]
      })
    )[0]!.text
    expect(text).toContain(
      '# the server returned this tile with neither config nor series: written as a plan reads it, an empty line chart'
    )
    expect(text).toContain(
      '# the server returned this series without a type: written as a plan reads it, type time'
    )
  })
})
