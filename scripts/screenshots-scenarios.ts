/**
 * The demo `npm run screenshots` pictures: pull requests and pushes of one repository, each run by the
 * built action (dist/index.js) as the runner runs it, against the emulator and a loopback stand-in for
 * GitHub's API. Each pull request's base commit is served with the files it started from, as GitHub
 * serves it (the action reads the base branch's policies there). Steps run in order, each from the
 * repository as the one before left it, and give back the comments and summaries to picture.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startEmulator } from '../emulator/index.js'
import { BASE_SHA, pullRequestEvent, pushEvent, runAction, type ActionRun } from '../test/e2e/runner.js'
import { startFakeGitHub } from '../test/fakes/github-api.js'
import { storefrontSeed } from './screenshots-data.js'

export interface Shot {
  name: string
  title: string
  markdown: string
  /** <details> opened, as after a reviewer's clicks: all of them, or those after a heading. */
  open?: true | { after: string }
}

type Emulator = Awaited<ReturnType<typeof startEmulator>>
type FakeGitHub = Awaited<ReturnType<typeof startFakeGitHub>>

/** One repository's working tree and the servers its runs talk to. */
class Demo {
  readonly shots: Shot[] = []
  private readonly runs: ActionRun[] = []

  constructor(
    readonly root: string,
    private readonly emu: Emulator,
    private readonly gh: FakeGitHub,
    readonly ws: string
  ) {}

  /** The built action, as the runner runs it: a PR plan comments, a push applies. */
  async action(
    eventName: 'pull_request' | 'push',
    event: object,
    inputs: Record<string, string>
  ): Promise<ActionRun> {
    const { emu } = this
    const managed = inputs.mode === 'managed'
    const run = await runAction({
      cwd: this.ws,
      eventName,
      event,
      inputs: {
        command: 'plan',
        'api-url': emu.url,
        'github-token': 'ghs_screenshots',
        'ui-url': 'https://hyperdx.example.com',
        stack: 'shop',
        ...(managed
          ? {
              'key-id': emu.credentials.keyId,
              'key-secret': emu.credentials.keySecret,
              'organization-id': emu.credentials.organizationId,
              'service-id': emu.credentials.serviceId
            }
          : { 'api-key': emu.credentials.apiKey }),
        ...inputs
      },
      env: { GITHUB_API_URL: this.gh.url, GITHUB_RUN_ATTEMPT: '1' }
    })
    this.runs.push(run)
    if (run.exitCode === null) throw new Error(`the action did not finish: ${run.stderr}`)
    return run
  }

  /** A pull request from the tree as it is now, changed by `change`: its sticky comment. */
  async pullRequest(
    number: number,
    change: () => void,
    inputs: Record<string, string> = {}
  ): Promise<string> {
    this.gh.setCommit('acme/shop', BASE_SHA, { 'README.md': '# shop\n', ...this.tree() })
    change()
    await this.action('pull_request', pullRequestEvent(number), inputs)
    const all = this.gh.comments(number)
    if (all.length === 0) throw new Error(`no comment on pull request #${number}`)
    return all[all.length - 1]!.body
  }

  write(file: string, text: string): void {
    const target = path.join(this.ws, file)
    mkdirSync(path.dirname(target), { recursive: true })
    writeFileSync(target, text)
  }

  read(file: string): string {
    return readFileSync(path.join(this.ws, file), 'utf8')
  }

  /** The manifests folder replaced by one of the examples. */
  useExample(name: string): void {
    rmSync(path.join(this.ws, 'observability'), { recursive: true, force: true })
    cpSync(path.join(this.root, 'examples', name), path.join(this.ws, 'observability'), { recursive: true })
  }

  /** The manifests as a commit holds them: path to text. */
  private tree(): Record<string, string> {
    const dir = path.join(this.ws, 'observability')
    const files: Record<string, string> = {}
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const full = path.join(entry.parentPath, entry.name)
      files[path.relative(this.ws, full).split(path.sep).join('/')] = readFileSync(full, 'utf8')
    }
    return files
  }

  async close(): Promise<void> {
    await Promise.all(this.runs.map(r => r.cleanup()))
  }
}

/** Every scenario, in order; the servers and the working tree are gone when it returns. */
export async function runScenarios(root: string): Promise<Shot[]> {
  // The emulator's seed, and a week of a storefront's logs for the charts (scenario 4).
  const seed = storefrontSeed(Date.now())
  const emu = await startEmulator({ port: 0, seed, rateLimits: { selfHosted: false, managed: false } })
  const gh = await startFakeGitHub()
  const ws = mkdtempSync(path.join(tmpdir(), 'obsdeploy-screens-'))
  const demo = new Demo(root, emu, gh, ws)
  try {
    for (const step of STEPS) await step(demo)
    return demo.shots
  } finally {
    await demo.close()
    await emu.close()
    await gh.close()
    rmSync(ws, { recursive: true, force: true })
  }
}

const STEPS: Array<(demo: Demo) => Promise<void>> = [
  // 1. A first pull request: everything is new.
  async demo => {
    mkdirSync(path.join(demo.ws, 'observability'))
    const comment = await demo.pullRequest(12, () => demo.useExample('observability'))
    demo.shots.push({
      name: 'pr-comment-create',
      title: 'Pull request comment: a plan that only creates',
      markdown: comment
    })
  },

  // 2. It is merged: the apply's job summary, with links to the new dashboards.
  async demo => {
    const applied = await demo.action('push', pushEvent('refs/heads/main'), { command: 'apply' })
    demo.shots.push({ name: 'job-summary-apply', title: 'Job summary: the apply', markdown: applied.summary })
  },

  // 3. A pull request that only moves and adds tiles, with check-queries: the preview.
  async demo => {
    const original = demo.read('observability/checkout.yaml')
    const comment = await demo.pullRequest(
      16,
      () =>
        demo.write(
          'observability/checkout.yaml',
          original
            .replace(/\n {4}x: 0\n {4}y: 0\n {4}w: 6\n/, '\n    x: 12\n    y: 0\n    w: 12\n')
            .replace('threshold: 10', 'threshold: 3')
        ),
      { 'check-queries': 'true' }
    )
    demo.shots.push({
      name: 'pr-comment-preview',
      title: 'Pull request comment: the layout and data preview, opened',
      markdown: comment,
      open: true
    })
    demo.write('observability/checkout.yaml', original)
  },

  // 4. A pull request that adds a dashboard with a tile of each kind and an alert, with check-queries: every
  // chart of the preview, over the storefront's week of logs.
  async demo => {
    const comment = await demo.pullRequest(
      17,
      () => demo.write('observability/storefront.yaml', STOREFRONT),
      { 'check-queries': 'true' }
    )
    demo.shots.push({
      name: 'pr-comment-preview-charts',
      title: 'Pull request comment: the data preview of each kind of tile, and an alert replayed',
      markdown: comment,
      open: { after: 'Preview' }
    })
    rmSync(path.join(demo.ws, 'observability', 'storefront.yaml'))
  },

  // 5. A pull request that deletes a dashboard (prune), removes and renames tiles, and moves an alert.
  async demo => {
    const comment = await demo.pullRequest(
      13,
      () => {
        rmSync(path.join(demo.ws, 'observability', 'platform.yaml'))
        demo.write(
          'observability/checkout.yaml',
          demo
            .read('observability/checkout.yaml')
            .replace(
              "where: 'level:error'\n        groupBy: [service]",
              "where: 'level:error OR level:fatal'\n        groupBy: [service]"
            )
            .replace(/ {2}- name: Errors by service[\s\S]*?orderBy: count DESC\n/, '')
            .replace('- name: Requests\n', '- name: Request rate\n')
            .replace('tile: Requests', 'tile: Request rate')
            .replace('threshold: 10', 'threshold: 25')
        )
      },
      { prune: 'true' }
    )
    demo.shots.push(
      { name: 'pr-comment-destroy', title: 'Pull request comment: a plan that deletes', markdown: comment },
      {
        name: 'pr-comment-destroy-open',
        title: 'The same comment with its sections opened',
        markdown: comment,
        open: true
      }
    )
  },

  // 6. Validation failures: the demo's broken manifest, and one mistake repeated in every tile.
  async demo => {
    const tiles = Array.from(
      { length: 8 },
      (_, i) =>
        `  - name: Latency ${i + 1}\n    x: 0\n    y: ${i * 2}\n    w: 6\n    h: 2\n    series:\n      - type: time\n        source: Logs\n        aggFn: p95\n        field: duration\n`
    ).join('')
    const comment = await demo.pullRequest(
      14,
      () => {
        demo.useExample('broken')
        demo.write('observability/latency.yaml', `kind: Dashboard\nname: Latency\ntiles:\n${tiles}`)
      },
      { command: 'validate' }
    )
    demo.shots.push({
      name: 'pr-comment-validation',
      title: 'Pull request comment: validation errors',
      markdown: comment
    })
  },

  // 7. Managed mode: a service settings change that waits for a release, and removes allow-list entries.
  async demo => {
    const comment = await demo.pullRequest(15, () => demo.useExample('managed'), { mode: 'managed' })
    demo.shots.push({
      name: 'pr-comment-managed',
      title: 'Pull request comment: service settings that wait for a release',
      markdown: comment
    })
  },

  // 8. The release applies them: the job summary shows the managed fields only.
  async demo => {
    const released = await demo.action('push', pushEvent('refs/tags/v1.0.0'), {
      command: 'apply',
      mode: 'managed'
    })
    demo.shots.push({
      name: 'job-summary-release',
      title: 'Job summary: service settings at a release',
      markdown: released.summary
    })
  }
]

/**
 * Scenario 4's dashboard: over the storefront's logs (screenshots-data.ts), a line of seven services, a
 * number, a pie, a table grouped by customers' emails (masked in the comment) and a search tile; an alert
 * on the line that two hours of the week cross.
 */
const STOREFRONT = `kind: Dashboard
name: Storefront
tags: [storefront]
tiles:
  - name: Requests by service
    x: 0
    y: 0
    w: 16
    h: 4
    config:
      displayType: line
      source: Storefront logs
      select:
        - aggFn: count
          where: 'app:storefront'
      groupBy: service
  - name: Orders
    x: 16
    y: 0
    w: 8
    h: 2
    config:
      displayType: number
      source: Storefront logs
      select:
        - aggFn: count
          where: 'app:storefront AND event:order'
  - name: Errors by service
    x: 16
    y: 2
    w: 8
    h: 2
    config:
      displayType: pie
      source: Storefront logs
      select:
        - aggFn: count
          where: 'app:storefront AND level:error'
      groupBy: service
  - name: Top customers
    x: 0
    y: 4
    w: 12
    h: 4
    config:
      displayType: table
      source: Storefront logs
      select:
        - aggFn: count
          where: 'app:storefront AND event:order'
        - aggFn: avg
          valueExpression: duration
          where: 'app:storefront AND event:order'
      groupBy: user_email
      orderBy: count DESC
  - name: Failed requests
    x: 12
    y: 4
    w: 12
    h: 4
    series:
      - type: search
        source: Storefront logs
        fields: [timestamp, service, message]
        where: 'app:storefront AND level:error'
---
kind: Alert
name: Storefront traffic spike
dashboard: Storefront
tile: Requests by service
threshold: 60
thresholdType: above
interval: 1h
channel:
  type: webhook
  webhook: team-slack
message: A storefront service has more requests than usual
`
