/**
 * Runs the BUILT action (dist/index.js) the way GitHub's runner does: a fresh `node` process with a clean
 * environment, inputs as `INPUT_<NAME>` variables, the event payload in a file, and the job summary and
 * step outputs written to files. It parses what the runner would show: workflow commands on stdout
 * (annotations), the outputs file and the summary. Nothing here imports src/: the bundle is the subject.
 *
 *   const run = await runAction({ inputs: { command: 'validate', manifests: 'observability/**\/*.yaml' }, cwd })
 *   expect(run.exitCode).toBe(1)
 *   expect(run.annotations.filter(a => a.level === 'error' && a.file)).toHaveLength(3)
 *   await run.cleanup()
 *
 * Under Jest a run's folder also goes when the test file is done, whether or not the test got as far as
 * `cleanup()`; outside Jest (scripts/screenshots.ts) the caller's `cleanup()` is the only one.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root (where dist/ lives). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The bundle action.yml points at (`runs.main`). */
export const ACTION_BUNDLE = path.join(REPO_ROOT, 'dist', 'index.js')
/** The CLI bundle (`bin.obsdeploy`). */
export const CLI_BUNDLE = path.join(REPO_ROOT, 'dist', 'cli', 'index.js')

export interface RunActionOptions {
  /** Action inputs by their action.yml name, e.g. `{ command: 'plan', 'api-url': '...' }`. */
  inputs: Record<string, string>
  /** GITHUB_EVENT_NAME; default `push`. */
  eventName?: string
  /** The webhook payload; default a payload of the right shape for `eventName`. */
  event?: object
  /** Extra environment (wins over everything else, e.g. GITHUB_REF, GITHUB_API_URL). */
  env?: Record<string, string>
  /** GITHUB_WORKSPACE and the process's working directory; default the repository root. */
  cwd?: string
  /** Kill the process after this long; default 60 s. */
  timeoutMs?: number
}

export interface Annotation {
  level: 'error' | 'warning' | 'notice'
  file?: string
  line?: number
  col?: number
  endLine?: number
  endColumn?: number
  title?: string
  message: string
}

export interface ActionRun {
  /** The process's exit code; null when it was killed (see `signal` and `timedOut`). */
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  stdout: string
  stderr: string
  /** The job summary file as the action left it. */
  summary: string
  /** Step outputs from GITHUB_OUTPUT; when a name is set twice, the last value wins (as on GitHub). */
  outputs: Record<string, string>
  /** How many times each output was written to GITHUB_OUTPUT (the action writes each exactly once). */
  outputWrites: Record<string, number>
  /** Every `::error`, `::warning` and `::notice` command on stdout, in order, unescaped. */
  annotations: Annotation[]
  /** The step failed: exit code 1, or a `::error::` without a file (what core.setFailed prints). */
  failed: boolean
  /** The environment the action ran with (for debugging a test). */
  env: Record<string, string>
  /** RUNNER_TEMP of this run: the default plan file lands here. Removed by `cleanup()`. */
  runnerTemp: string
  /** Removes this run's temporary files (event, summary, outputs, RUNNER_TEMP). */
  cleanup(): Promise<void>
}

/** The folders of runs not cleaned up yet. */
const runFolders = new Set<string>()
// Jest sets JEST_WORKER_ID in its workers and when it runs in band; a hook registered while the test file
// loads runs after the file's tests, failed or not.
if (process.env.JEST_WORKER_ID !== undefined) {
  const { afterAll } = await import('@jest/globals')
  afterAll(() => Promise.all([...runFolders].map(removeRunFolder)))
}

async function removeRunFolder(dir: string): Promise<void> {
  runFolders.delete(dir)
  await rm(dir, { recursive: true, force: true })
}

const DEFAULT_REPOSITORY = 'acme/shop'
const DEFAULT_BRANCH = 'main'

/** The runner's name for an input: `INPUT_` + upper case, spaces to underscores, dashes kept. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  if (!existsSync(ACTION_BUNDLE)) {
    throw new Error(`${path.relative(REPO_ROOT, ACTION_BUNDLE)} is missing: run \`npm run build\` first.`)
  }
  const temp = await mkdtemp(path.join(tmpdir(), 'obsdeploy-action-'))
  runFolders.add(temp)
  try {
    return await runIn(temp, options)
  } catch (error) {
    await removeRunFolder(temp)
    throw error
  }
}

/** One run, its event, summary and output files and RUNNER_TEMP in `temp`. */
async function runIn(temp: string, options: RunActionOptions): Promise<ActionRun> {
  const cwd = options.cwd ?? REPO_ROOT
  const eventName = options.eventName ?? 'push'
  const event = options.event ?? defaultEvent(eventName)
  const runnerTemp = path.join(temp, 'runner-temp')
  await mkdir(runnerTemp)
  const eventPath = path.join(temp, 'event.json')
  const summaryPath = path.join(temp, 'step-summary.md')
  const outputPath = path.join(temp, 'github-output')
  await writeFile(eventPath, JSON.stringify(event, null, 2))
  await writeFile(summaryPath, '')
  await writeFile(outputPath, '')

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: cwd,
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_OUTPUT: outputPath,
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: 'Linux',
    GITHUB_REPOSITORY: repositoryOf(event) ?? DEFAULT_REPOSITORY,
    GITHUB_REF: refOf(eventName, event),
    GITHUB_SHA: shaOf(event),
    GITHUB_WORKFLOW: 'Observability',
    GITHUB_JOB: 'plan',
    GITHUB_RUN_ID: '1234567890',
    GITHUB_RUN_NUMBER: '7',
    GITHUB_ACTOR: 'octocat',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com'
  }
  for (const [name, value] of Object.entries(options.inputs)) env[inputVariable(name)] = value
  Object.assign(env, options.env ?? {})

  const child = spawn(process.execPath, [ACTION_BUNDLE], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, options.timeoutMs ?? 60_000)
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      child.on('error', reject)
      child.on('close', (c, s) => resolve({ code: c, signal: s }))
    }
  ).finally(() => clearTimeout(timer))

  const annotations = parseAnnotations(stdout)
  const outputText = await readFile(outputPath, 'utf8')
  return {
    exitCode: code,
    signal,
    timedOut,
    stdout,
    stderr,
    summary: await readFile(summaryPath, 'utf8'),
    outputs: parseOutputFile(outputText),
    outputWrites: countOutputWrites(outputText),
    annotations,
    failed: code === 1 || annotations.some(a => a.level === 'error' && a.file === undefined),
    env,
    runnerTemp,
    cleanup: () => removeRunFolder(temp)
  }
}

/**
 * The runner's GITHUB_OUTPUT format: `name<<DELIMITER`, the value's lines, `DELIMITER`; also the older
 * one-line `name=value`. A name written twice keeps its last value.
 */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const rows = text.split('\n')
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.replace(/\r$/, '')
    if (row === '') continue
    const heredoc = /^([^=<]+)<<(.+)$/.exec(row)
    if (heredoc) {
      const [, name, delimiter] = heredoc
      const value: string[] = []
      i++
      while (i < rows.length && rows[i]!.replace(/\r$/, '') !== delimiter) value.push(rows[i++]!)
      if (i >= rows.length) throw new Error(`GITHUB_OUTPUT: no closing delimiter for ${name}`)
      outputs[name!] = value.join('\n')
      continue
    }
    const eq = row.indexOf('=')
    if (eq <= 0) throw new Error(`GITHUB_OUTPUT: cannot read line ${JSON.stringify(row)}`)
    outputs[row.slice(0, eq)] = row.slice(eq + 1)
  }
  return outputs
}

/** Each output name with the number of times GITHUB_OUTPUT sets it. */
export function countOutputWrites(text: string): Record<string, number> {
  const counts: Record<string, number> = {}
  const rows = text.split('\n')
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.replace(/\r$/, '')
    const heredoc = /^([^=<]+)<<(.+)$/.exec(row)
    const name = heredoc ? heredoc[1]! : row.includes('=') ? row.slice(0, row.indexOf('=')) : undefined
    if (!name) continue
    counts[name] = (counts[name] ?? 0) + 1
    if (heredoc) while (i + 1 < rows.length && rows[++i]!.replace(/\r$/, '') !== heredoc[2]);
  }
  return counts
}

/** `%0D`, `%0A` and `%25` in a command's message (the runner's escapeData, reversed). */
const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
/** Properties also escape `:` and `,` (escapeProperty). */
const unescapeProperty = (s: string) =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%')

/**
 * A comment or a job summary as a reader sees it: names there are escaped (`&#42;`, `\*`), and mentions and
 * issue references defused with a zero-width space (src/report/escape.ts).
 */
export function readable(markdown: string): string {
  return markdown
    .replace(/\u200b/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/\\([\\`*_{}[\]()#+!|~])/g, '$1')
}

/** `::error file=a.yaml,line=3,col=7,title=...::message` lines from stdout, in order. */
export function parseAnnotations(stdout: string): Annotation[] {
  const found: Annotation[] = []
  for (const raw of stdout.split('\n')) {
    const row = raw.replace(/\r$/, '')
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(row)
    if (!m) continue
    const annotation: Annotation = { level: m[1] as Annotation['level'], message: unescapeData(m[3]!) }
    for (const pair of (m[2] ?? '').split(',')) {
      const eq = pair.indexOf('=')
      if (eq <= 0) continue
      const key = pair.slice(0, eq)
      const value = unescapeProperty(pair.slice(eq + 1))
      if (key === 'file') annotation.file = value
      else if (key === 'line') annotation.line = Number(value)
      else if (key === 'col') annotation.col = Number(value)
      else if (key === 'endLine') annotation.endLine = Number(value)
      else if (key === 'endColumn') annotation.endColumn = Number(value)
      else if (key === 'title') annotation.title = value
    }
    found.push(annotation)
  }
  return found
}

/** Runs the CLI bundle (`obsdeploy`) with a clean environment. */
export async function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}
): Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  if (!existsSync(CLI_BUNDLE)) {
    throw new Error(`${path.relative(REPO_ROOT, CLI_BUNDLE)} is missing: run \`npm run build\` first.`)
  }
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NO_COLOR: '1',
    ...options.env
  }
  const child = spawn(process.execPath, [CLI_BUNDLE, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ exitCode: code, signal, stdout, stderr })
    })
  })
}

// ---------------------------------------------------------------------------------------------------------
// Event payloads with the fields GitHub sends (the parts an action reads; ids and URLs are consistent).

interface RepositoryOptions {
  fullName?: string
  defaultBranch?: string
  fork?: boolean
}

const user = (login: string, id: number) => ({
  login,
  id,
  node_id: `MDQ6VXNlcj${id}`,
  avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
  html_url: `https://github.com/${login}`,
  url: `https://api.github.com/users/${login}`,
  type: 'User',
  site_admin: false
})

const SENDER = user('octocat', 583231)

export function repositoryPayload(options: RepositoryOptions = {}) {
  const fullName = options.fullName ?? DEFAULT_REPOSITORY
  const [owner, name] = fullName.split('/') as [string, string]
  return {
    id: 123456789,
    node_id: 'R_kgDOHexample',
    name,
    full_name: fullName,
    private: false,
    owner: { ...user(owner, 9919), type: 'Organization' },
    html_url: `https://github.com/${fullName}`,
    url: `https://api.github.com/repos/${fullName}`,
    clone_url: `https://github.com/${fullName}.git`,
    fork: options.fork ?? false,
    default_branch: options.defaultBranch ?? DEFAULT_BRANCH,
    visibility: 'public',
    archived: false,
    disabled: false
  }
}

const HEAD_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e'
export const BASE_SHA = '9049f1265b7d61be4a8904a9a27120d2064dab3b'

function pullRequest(number: number, options: { headRepoFork?: boolean; defaultBranch?: string }) {
  const base = repositoryPayload({ defaultBranch: options.defaultBranch })
  const head = options.headRepoFork
    ? repositoryPayload({ fullName: 'contributor/shop', defaultBranch: options.defaultBranch, fork: true })
    : base
  const headOwner = head.owner.login
  return {
    url: `https://api.github.com/repos/${base.full_name}/pulls/${number}`,
    id: 1000000 + number,
    node_id: `PR_kwDOexample${number}`,
    html_url: `https://github.com/${base.full_name}/pull/${number}`,
    diff_url: `https://github.com/${base.full_name}/pull/${number}.diff`,
    issue_url: `https://api.github.com/repos/${base.full_name}/issues/${number}`,
    comments_url: `https://api.github.com/repos/${base.full_name}/issues/${number}/comments`,
    number,
    state: 'open',
    locked: false,
    draft: false,
    merged: false,
    title: 'Tune the checkout alerts',
    body: 'Raises the error threshold.',
    user: options.headRepoFork ? user('contributor', 1234) : SENDER,
    author_association: options.headRepoFork ? 'CONTRIBUTOR' : 'MEMBER',
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:05:00Z',
    head: {
      label: `${headOwner}:tune-alerts`,
      ref: 'tune-alerts',
      sha: HEAD_SHA,
      user: head.owner,
      repo: head
    },
    base: {
      label: `${base.owner.login}:${base.default_branch}`,
      ref: base.default_branch,
      sha: BASE_SHA,
      user: base.owner,
      repo: base
    }
  }
}

/** `pull_request` (opened). GITHUB_REF becomes `refs/pull/<number>/merge`. */
export function pullRequestEvent(
  number: number,
  options: { headRepoFork?: boolean; defaultBranch?: string } = {}
) {
  return {
    action: 'opened',
    number,
    pull_request: pullRequest(number, options),
    repository: repositoryPayload({ defaultBranch: options.defaultBranch }),
    sender: options.headRepoFork ? user('contributor', 1234) : SENDER
  }
}

/** `pull_request_target` (opened): runs in the base repository's context, with its secrets. */
export function pullRequestTargetEvent(number: number) {
  return pullRequestEvent(number, { headRepoFork: true })
}

/** `push` to `ref` (`refs/heads/main`, `refs/tags/v1.2.0`, ...). */
export function pushEvent(ref: string, defaultBranch = DEFAULT_BRANCH) {
  const repository = repositoryPayload({ defaultBranch })
  return {
    ref,
    before: BASE_SHA,
    after: HEAD_SHA,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `https://github.com/${repository.full_name}/compare/${BASE_SHA.slice(0, 12)}...${HEAD_SHA.slice(0, 12)}`,
    commits: [
      {
        id: HEAD_SHA,
        tree_id: 'f9d2a07e9488b91af2641b26b9407fe22a451433',
        distinct: true,
        message: 'Raise the checkout error threshold',
        timestamp: '2024-05-01T10:10:00Z',
        url: `https://github.com/${repository.full_name}/commit/${HEAD_SHA}`,
        author: { name: 'Mona Octocat', email: 'mona@example.com', username: 'octocat' },
        committer: { name: 'GitHub', email: 'noreply@github.com', username: 'web-flow' },
        added: [],
        removed: [],
        modified: ['observability/checkout.yaml']
      }
    ],
    head_commit: {
      id: HEAD_SHA,
      message: 'Raise the checkout error threshold',
      timestamp: '2024-05-01T10:10:00Z'
    },
    pusher: { name: 'octocat', email: 'mona@example.com' },
    repository,
    sender: SENDER
  }
}

/** `release` (default `published`) of `tag`. GITHUB_REF becomes `refs/tags/<tag>`. */
export function releaseEvent(tag: string, action = 'published') {
  const repository = repositoryPayload()
  return {
    action,
    release: {
      url: `https://api.github.com/repos/${repository.full_name}/releases/1`,
      html_url: `https://github.com/${repository.full_name}/releases/tag/${tag}`,
      id: 1,
      node_id: 'RE_kwDOexample',
      tag_name: tag,
      target_commitish: repository.default_branch,
      name: tag,
      draft: false,
      prerelease: false,
      created_at: '2024-05-02T09:00:00Z',
      published_at: '2024-05-02T09:01:00Z',
      author: SENDER,
      body: 'Release notes'
    },
    repository,
    sender: SENDER
  }
}

/** `schedule`: the cron expression, plus repository and sender (sent since 2022). */
export function scheduleEvent(cron = '17 3 * * *') {
  return {
    schedule: cron,
    repository: repositoryPayload(),
    sender: SENDER,
    workflow: '.github/workflows/observability-drift.yml'
  }
}

function defaultEvent(eventName: string): object {
  switch (eventName) {
    case 'pull_request':
      return pullRequestEvent(1)
    case 'pull_request_target':
      return pullRequestTargetEvent(1)
    case 'release':
      return releaseEvent('v1.0.0')
    case 'schedule':
      return scheduleEvent()
    case 'push':
      return pushEvent(`refs/heads/${DEFAULT_BRANCH}`)
    default:
      return { repository: repositoryPayload(), sender: SENDER }
  }
}

type Payload = {
  ref?: unknown
  after?: unknown
  number?: unknown
  repository?: { full_name?: unknown; default_branch?: unknown }
  pull_request?: { number?: unknown; head?: { sha?: unknown } }
  release?: { tag_name?: unknown }
}

function repositoryOf(event: object): string | undefined {
  const name = (event as Payload).repository?.full_name
  return typeof name === 'string' ? name : undefined
}

/** What the runner sets as GITHUB_REF for each event. */
function refOf(eventName: string, event: object): string {
  const p = event as Payload
  if (typeof p.ref === 'string' && p.ref.startsWith('refs/')) return p.ref
  if (eventName.startsWith('pull_request') && typeof p.pull_request?.number === 'number') {
    // pull_request_target runs on the base branch.
    if (eventName === 'pull_request_target')
      return `refs/heads/${String(p.repository?.default_branch ?? DEFAULT_BRANCH)}`
    return `refs/pull/${p.pull_request.number}/merge`
  }
  if (eventName === 'release' && typeof p.release?.tag_name === 'string')
    return `refs/tags/${p.release.tag_name}`
  return `refs/heads/${String(p.repository?.default_branch ?? DEFAULT_BRANCH)}`
}

function shaOf(event: object): string {
  const p = event as Payload
  if (typeof p.after === 'string') return p.after
  if (typeof p.pull_request?.head?.sha === 'string') return p.pull_request.head.sha
  return HEAD_SHA
}
