/**
 * `npm run screenshots`: the demo's pull request comments and job summary as GitHub shows them, written
 * to docs/images/ for the README. The built action (dist/index.js) runs as the runner runs it against the
 * emulator and a loopback stand-in for GitHub's API; its markdown is rendered by a GFM renderer with
 * GitHub's markdown CSS, and Debian's headless Chromium takes the picture at 900 px wide, <details>
 * closed as GitHub first shows them. Run it before a release; it is not part of `npm test`.
 * The preview's mermaid charts are drawn as GitHub draws them: by the `mermaid` package, in the page, from each
 * `mermaid` code block (the sparkline beside each is what every other client shows).
 *
 * Needs `apt-get install -y chromium` (Debian's build, at /usr/bin/chromium; override with CHROMIUM).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Page } from 'playwright-core'
import { startEmulator } from '../emulator/index.js'
import { pullRequestEvent, pushEvent, runAction, type ActionRun } from '../test/e2e/runner.js'
import { startFakeGitHub } from '../test/fakes/github-api.js'
import { renderGfm } from '../test/support/gfm.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const images = path.join(root, 'docs', 'images')
const scratch = path.join(root, '.obsdeploy', 'screenshots')
const WIDTH = 900

const emu = await startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false } })
const gh = await startFakeGitHub()
const ws = mkdtempSync(path.join(tmpdir(), 'obsdeploy-screens-'))
const runs: ActionRun[] = []

/** The built action, as the runner runs it: a PR plan comments, a push applies. */
async function action(
  eventName: 'pull_request' | 'push',
  event: object,
  inputs: Record<string, string>
): Promise<ActionRun> {
  const managed = inputs.mode === 'managed'
  const run = await runAction({
    cwd: ws,
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
    env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ATTEMPT: '1' }
  })
  runs.push(run)
  if (run.exitCode === null) throw new Error(`the action did not finish: ${run.stderr}`)
  return run
}

const write = (file: string, text: string) => {
  const target = path.join(ws, file)
  mkdirSync(path.dirname(target), { recursive: true })
  writeFileSync(target, text)
}
const read = (file: string) => readFileSync(path.join(ws, file), 'utf8')
const commentOf = (pr: number): string => {
  const all = gh.comments(pr)
  if (all.length === 0) throw new Error(`no comment on pull request #${pr}`)
  return all[all.length - 1]!.body
}

const shots: Array<{ name: string; title: string; markdown: string; open?: boolean }> = []
try {
  cpSync(path.join(root, 'examples', 'observability'), path.join(ws, 'observability'), { recursive: true })

  // 1. A first pull request: everything is new.
  await action('pull_request', pullRequestEvent(12), {})
  shots.push({
    name: 'pr-comment-create',
    title: 'Pull request comment: a plan that only creates',
    markdown: commentOf(12)
  })

  // 2. It is merged: the apply's job summary, with links to the new dashboards.
  const applied = await action('push', pushEvent('refs/heads/main'), { command: 'apply' })
  shots.push({ name: 'job-summary-apply', title: 'Job summary: the apply', markdown: applied.summary })

  // 3. A pull request that only moves and adds tiles, with check-queries: the preview.
  const original = read('observability/checkout.yaml')
  write(
    'observability/checkout.yaml',
    original
      .replace(/\n {4}x: 0\n {4}y: 0\n {4}w: 6\n/, '\n    x: 12\n    y: 0\n    w: 12\n')
      .replace('threshold: 10', 'threshold: 3')
  )
  await action('pull_request', pullRequestEvent(16), { 'check-queries': 'true' })
  shots.push({
    name: 'pr-comment-preview',
    title: 'Pull request comment: the layout and data preview, opened',
    markdown: commentOf(16),
    open: true
  })
  write('observability/checkout.yaml', original)

  // 4. A pull request that deletes a dashboard (prune), removes and renames tiles, and moves an alert.
  rmSync(path.join(ws, 'observability', 'platform.yaml'))
  write(
    'observability/checkout.yaml',
    read('observability/checkout.yaml')
      .replace(
        "where: 'level:error'\n        groupBy: [service]",
        "where: 'level:error OR level:fatal'\n        groupBy: [service]"
      )
      .replace(/ {2}- name: Errors by service[\s\S]*?orderBy: count DESC\n/, '')
      .replace('- name: Requests\n', '- name: Request rate\n')
      .replace('tile: Requests', 'tile: Request rate')
      .replace('threshold: 10', 'threshold: 25')
  )

  await action('pull_request', pullRequestEvent(13), { prune: 'true' })
  shots.push({
    name: 'pr-comment-destroy',
    title: 'Pull request comment: a plan that deletes',
    markdown: commentOf(13)
  })
  shots.push({
    name: 'pr-comment-destroy-open',
    title: 'The same comment with its sections opened',
    markdown: commentOf(13),
    open: true
  })

  // 5. Validation failures: the demo's broken manifest, and one mistake repeated in every tile.
  rmSync(path.join(ws, 'observability'), { recursive: true })
  cpSync(path.join(root, 'examples', 'broken'), path.join(ws, 'observability'), { recursive: true })
  const tiles = Array.from(
    { length: 8 },
    (_, i) =>
      `  - name: Latency ${i + 1}\n    x: 0\n    y: ${i * 2}\n    w: 6\n    h: 2\n    series:\n      - type: time\n        source: Logs\n        aggFn: p95\n        field: duration\n`
  ).join('')
  write('observability/latency.yaml', `kind: Dashboard\nname: Latency\ntiles:\n${tiles}`)
  await action('pull_request', pullRequestEvent(14), { command: 'validate' })
  shots.push({
    name: 'pr-comment-validation',
    title: 'Pull request comment: validation errors',
    markdown: commentOf(14)
  })

  // 6. Managed mode: a service settings change that waits for a release, and removes allow-list entries.
  rmSync(path.join(ws, 'observability'), { recursive: true })
  cpSync(path.join(root, 'examples', 'managed'), path.join(ws, 'observability'), { recursive: true })
  await action('pull_request', pullRequestEvent(15), { mode: 'managed' })
  shots.push({
    name: 'pr-comment-managed',
    title: 'Pull request comment: service settings that wait for a release',
    markdown: commentOf(15)
  })

  // 7. The release applies them: the job summary shows the managed fields only.
  const released = await action('push', pushEvent('refs/tags/v1.0.0'), { command: 'apply', mode: 'managed' })
  shots.push({
    name: 'job-summary-release',
    title: 'Job summary: service settings at a release',
    markdown: released.summary
  })
} finally {
  await Promise.all(runs.map(r => r.cleanup()))
  await emu.close()
  await gh.close()
  rmSync(ws, { recursive: true, force: true })
}

/** Each `mermaid` code block as GitHub shows it: drawn by the mermaid package (a chart, in place of its source). */
async function drawMermaid(page: Page): Promise<void> {
  const blocks = await page.locator('pre > code.language-mermaid').count()
  if (blocks === 0) return
  await page.addScriptTag({ path: path.join(root, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js') })
  // In the page (this project's types have no DOM): each block becomes a drawing.
  await page.evaluate(`(async () => {
    const nodes = [...document.querySelectorAll('pre > code.language-mermaid')].map(code => {
      const div = document.createElement('div')
      div.className = 'mermaid'
      div.textContent = code.textContent
      code.parentElement.replaceWith(div)
      return div
    })
    mermaid.initialize({ startOnLoad: false, theme: 'default' })
    await mermaid.run({ nodes })
  })()`)
}

const css = readFileSync(
  path.join(root, 'node_modules', 'github-markdown-css', 'github-markdown-light.css'),
  'utf8'
)
const profile = mkdtempSync(path.join(tmpdir(), 'obsdeploy-chromium-'))
// A fresh profile each time (playwright passes it as --user-data-dir).
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync'
  ],
  viewport: { width: WIDTH, height: 600 },
  deviceScaleFactor: 1
})
try {
  mkdirSync(images, { recursive: true })
  mkdirSync(scratch, { recursive: true })
  const page = await browser.newPage()
  for (const shot of shots) {
    // The markdown beside, for a look at what was rendered (not committed).
    writeFileSync(path.join(scratch, `${shot.name}.md`), shot.markdown)
    const where = shot.name.startsWith('job-summary') ? 'summary' : 'comment'
    await page.setContent(pageHtml(shot.markdown, where, shot.open ?? false, css), { waitUntil: 'load' })
    await drawMermaid(page)
    await page.screenshot({ path: path.join(images, `${shot.name}.png`), fullPage: true })
    console.log(`docs/images/${shot.name}.png: ${shot.title}`)
  }
} finally {
  await browser.close()
  rmSync(profile, { recursive: true, force: true })
}

/** A GitHub comment (or job summary) box around the rendered markdown, with what GitHub's renderer adds. */
function pageHtml(markdown: string, where: 'comment' | 'summary', open: boolean, css: string): string {
  let html = githubTouches(renderGfm(markdown.replace(/^<!--[^\n]*-->\n/, '')))
  if (open) html = html.replace(/<details>/g, '<details open>')
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; font-family: -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.box { margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
.box-header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; font-size: 14px; color: #59636e; border-radius: 6px 6px 0 0; }
.box-header b { color: #1f2328; }
.markdown-body { padding: 16px; font-size: 14px; }
</style></head><body><div class="box"><div class="box-header">${
    where === 'comment' ? '<b>github-actions</b> <span>bot</span> commented' : '<b>apply summary</b>'
  }</div>
<div class="markdown-body">${html}</div></div></body></html>`
}

/**
 * What github.com adds to the HTML of a comment: coloured lines in ```diff blocks, YAML keys in colour,
 * and `> [!WARNING]` quotes as alert boxes.
 */
function githubTouches(html: string): string {
  return html
    .replace(/<code class="language-diff">([\s\S]*?)<\/code>/g, (_m, body: string) => {
      const lines = body
        .split('\n')
        .map(line =>
          line.startsWith('+')
            ? `<span class="pl-mi1">${line}</span>`
            : line.startsWith('-')
              ? `<span class="pl-md">${line}</span>`
              : line
        )
      return `<code class="language-diff">${lines.join('\n')}</code>`
    })
    .replace(/<code class="language-yaml">([\s\S]*?)<\/code>/g, (_m, body: string) => {
      const lines = body
        .split('\n')
        .map(line =>
          line.replace(/^(\s*(?:- )?)([^:\s'&][^:]*?)(:(?: |$))/, '$1<span class="pl-ent">$2</span>$3')
        )
      return `<code class="language-yaml">${lines.join('\n')}</code>`
    })
    .replace(
      /<blockquote>\n<p>\[!WARNING\]\n?([\s\S]*?)<\/blockquote>/g,
      '<div class="markdown-alert markdown-alert-warning"><p class="markdown-alert-title">Warning</p><p>$1</div>'
    )
}
