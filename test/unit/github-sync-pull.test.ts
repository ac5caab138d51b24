/**
 * `command: sync` on GitHub's side (src/github/sync-pull.ts): the files a sync wrote, committed alone on
 * `obsdeploy/sync/<stack>` from the default branch, pushed with git, and one pull request per branch, opened,
 * updated or closed. Against a real repository whose `origin` is a local bare repository, and the fake GitHub.
 * Commit dates are fixed per run (GIT_*_DATE), so a push is told from no push by the remote's hook, not by time.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync
} from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { scrubber } from '../../src/github/git.js'
import { publishSync, SyncPermissionError, type SyncPullInput } from '../../src/github/sync-pull.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'

const TOKEN = 'ghs_syncToken0123456789abcdefghij'
const BOT = 'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>'
const SHOP = 'obs/shop.yaml'
const SHOP_TEXT = '# Checkout team\nkind: Dashboard\nname: Checkout\ntiles: []\n'
/** The shop dashboard as a UI edit renamed it. */
const shopNamed = (name: string): string => SHOP_TEXT.replace('name: Checkout', `name: ${name}`)
const OLD = 'obs/old.yaml'
const SAVED = 'obs/saved.yaml'

let root: string
let gh: FakeGitHub
const saved: Record<string, string | undefined> = {}
const ENV = ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE']

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sync-pull-'))
  for (const name of ENV) saved[name] = process.env[name]
  // No git config of the machine's: a developer's commit.gpgSign or hooks path would change what git does.
  writeFileSync(path.join(root, 'gitconfig'), '')
  process.env.GIT_CONFIG_GLOBAL = path.join(root, 'gitconfig')
  process.env.GIT_CONFIG_NOSYSTEM = '1'
})
afterAll(() => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
  rmSync(root, { recursive: true, force: true })
})
beforeEach(async () => {
  gh = await startFakeGitHub()
})
afterEach(() => gh.close())

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

/** The commit dates of the next run: each run commits at its own fixed moment. */
function day(n: number): void {
  const at = `2026-01-${String(n).padStart(2, '0')}T12:00:00Z`
  process.env.GIT_AUTHOR_DATE = at
  process.env.GIT_COMMITTER_DATE = at
}

interface Repo {
  work: string
  origin: string
  start: string
  /** The ref updates the remote received, one line each (`old new ref`). */
  pushes(): string[]
  /** A file of a branch of the remote, or undefined when the branch lacks it. */
  show(branch: string, file: string): string | undefined
  files(branch: string): string[]
  write(file: string, text: string): void
}

let repoCount = 0
function repository(): Repo {
  const dir = path.join(root, `r${++repoCount}`)
  const origin = path.join(dir, 'origin.git')
  const work = path.join(dir, 'work')
  const log = path.join(dir, 'pushes.log')
  mkdirSync(work, { recursive: true })
  git(dir, 'init', '-q', '--bare', '-b', 'main', origin)
  git(work, 'init', '-q', '-b', 'main')
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true })
    writeFileSync(path.join(work, file), text)
  }
  write('README.md', '# shop\n')
  write(SHOP, SHOP_TEXT)
  write(OLD, 'kind: Dashboard\nname: Old\n')
  write(SAVED, 'kind: SavedSearch\nname: Errors\n')
  day(1)
  git(work, 'add', '-A')
  git(work, 'commit', '-q', '-m', 'manifests')
  git(work, 'remote', 'add', 'origin', origin)
  git(work, 'push', '-q', 'origin', 'main')
  // Installed after the first push: it records what each later push updates.
  const hook = path.join(origin, 'hooks', 'pre-receive')
  writeFileSync(hook, `#!/bin/sh\ncat >> '${log}'\n`)
  chmodSync(hook, 0o755)
  const show = (branch: string, file: string): string | undefined => {
    try {
      return git(origin, 'show', `refs/heads/${branch}:${file}`)
    } catch {
      return undefined
    }
  }
  return {
    work,
    origin,
    start: git(work, 'rev-parse', 'HEAD').trim(),
    pushes: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
    show,
    files: branch =>
      git(origin, 'ls-tree', '-r', '--name-only', `refs/heads/${branch}`).split('\n').filter(Boolean),
    write
  }
}

function input(repo: Repo, over: Partial<SyncPullInput> = {}): SyncPullInput {
  const stack = over.stack ?? 'shop'
  return {
    token: TOKEN,
    owner: 'acme',
    repo: 'shop',
    baseUrl: gh.url,
    cwd: repo.work,
    base: 'main',
    stack,
    branch: `obsdeploy/sync/${stack}`,
    files: [SHOP],
    title: `Sync ${stack} from the UI`,
    body: `The UI changed ${stack}.`,
    commitMessage: `sync: ${stack} as the UI has it`,
    closeComment: 'The UI and the repository agree again.',
    ...over
  }
}

/** The work tree is on its starting commit and branch, and git sees no change but `dirty`. */
function expectBackOnStart(repo: Repo, dirty: string[] = []): void {
  expect(git(repo.work, 'rev-parse', 'HEAD').trim()).toBe(repo.start)
  expect(git(repo.work, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main')
  const status = git(repo.work, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean)
  expect(status).toEqual(dirty)
}

const BRANCH = 'obsdeploy/sync/shop'

describe('publishSync', () => {
  it('opens a pull request from the stack branch with the synced files alone, and leaves the work tree as it was', async () => {
    const repo = repository()
    repo.write(SHOP, SHOP_TEXT.replace('tiles: []', 'tiles: [{ name: Errors }]'))
    repo.write('obs/new/extra.yaml', 'kind: Alert\nname: Extra\n')
    unlinkSync(path.join(repo.work, OLD))
    repo.write('README.md', '# shop, edited by hand\n') // not the sync's: neither committed nor undone
    day(2)

    const outcome = await publishSync(input(repo, { files: [SHOP, 'obs/new/extra.yaml', OLD, SAVED] }))

    expect(outcome).toEqual({ operation: 'created', number: 1, url: 'https://github.com/acme/shop/pull/1' })
    expect(gh.pulls()).toEqual([
      expect.objectContaining({
        number: 1,
        state: 'open',
        head: BRANCH,
        base: 'main',
        title: 'Sync shop from the UI',
        body: 'The UI changed shop.'
      })
    ])
    expect(repo.show(BRANCH, SHOP)).toContain('tiles: [{ name: Errors }]')
    expect(repo.files(BRANCH)).toEqual(['README.md', 'obs/new/extra.yaml', SAVED, SHOP])
    expect(repo.show(BRANCH, 'README.md')).toBe('# shop\n')
    const commit = git(
      repo.origin,
      'log',
      '-1',
      '--format=%an <%ae>%n%cn <%ce>%n%P%n%s',
      `refs/heads/${BRANCH}`
    )
    expect(commit.trim().split('\n')).toEqual([BOT, BOT, repo.start, 'sync: shop as the UI has it'])

    expectBackOnStart(repo, [' M README.md'])
    expect(readFileSync(path.join(repo.work, SHOP), 'utf8')).toBe(SHOP_TEXT)
    expect(existsSync(path.join(repo.work, 'obs/new'))).toBe(false)
    expect(existsSync(path.join(repo.work, OLD))).toBe(true)
    // The bot's name was given to the commit alone: the repository's config is as it was.
    expect(() => git(repo.work, 'config', '--local', '--get', 'user.name')).toThrow()
  })

  it('updates the same pull request when the UI changes again, and pushes nothing for the same change', async () => {
    const repo = repository()
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    expect(await publishSync(input(repo))).toMatchObject({ operation: 'created', number: 1 })
    expect(repo.pushes()).toHaveLength(1)

    repo.write(SHOP, shopNamed('Checkout v3'))
    day(3)
    const second = await publishSync(input(repo, { body: 'The UI changed shop twice.' }))
    expect(second).toEqual({ operation: 'updated', number: 1, url: 'https://github.com/acme/shop/pull/1' })
    expect(repo.show(BRANCH, SHOP)).toContain('name: Checkout v3')
    expect(repo.pushes()).toHaveLength(2)
    expect(gh.pulls()).toEqual([expect.objectContaining({ number: 1, body: 'The UI changed shop twice.' })])
    // Made afresh from the default branch each time: one commit on top of it, not a pile.
    expect(git(repo.origin, 'rev-list', '--count', `main..refs/heads/${BRANCH}`).trim()).toBe('1')

    repo.write(SHOP, shopNamed('Checkout v3'))
    day(4)
    const third = await publishSync(input(repo, { body: 'The UI changed shop twice (checked again).' }))
    expect(third).toEqual({ operation: 'unchanged', number: 1, url: 'https://github.com/acme/shop/pull/1' })
    expect(repo.pushes()).toHaveLength(2)
    expect(gh.pulls()).toEqual([
      expect.objectContaining({
        number: 1,
        state: 'open',
        body: 'The UI changed shop twice (checked again).'
      })
    ])

    // Nothing new at all: not a single write to GitHub.
    repo.write(SHOP, shopNamed('Checkout v3'))
    const before = gh.requests.length
    day(5)
    expect(
      await publishSync(input(repo, { body: 'The UI changed shop twice (checked again).' }))
    ).toMatchObject({
      operation: 'unchanged'
    })
    expect(gh.requests.slice(before).map(r => r.method)).toEqual(['GET'])
    expectBackOnStart(repo)
    // Reading the branch's tree did not make a full clone shallow.
    expect(git(repo.work, 'rev-parse', '--is-shallow-repository').trim()).toBe('false')
  })

  it('works in a shallow checkout, as actions/checkout leaves one', async () => {
    const repo = repository()
    const shallow = path.join(path.dirname(repo.work), 'shallow')
    git(root, 'clone', '-q', '--depth=1', `file://${repo.origin}`, shallow)
    const write = (text: string) => writeFileSync(path.join(shallow, SHOP), text)
    write(shopNamed('Checkout v2'))
    day(2)
    expect(await publishSync(input(repo, { cwd: shallow }))).toMatchObject({ operation: 'created' })
    write(shopNamed('Checkout v2'))
    day(3)
    expect(await publishSync(input(repo, { cwd: shallow }))).toMatchObject({ operation: 'unchanged' })
    write(shopNamed('Checkout v3'))
    day(4)
    expect(await publishSync(input(repo, { cwd: shallow }))).toMatchObject({ operation: 'updated' })
    expect(repo.pushes()).toHaveLength(2)
    expect(repo.show(BRANCH, SHOP)).toBe(shopNamed('Checkout v3'))
    expect(git(shallow, 'status', '--porcelain').trim()).toBe('')
    expect(git(shallow, 'rev-parse', 'HEAD').trim()).toBe(repo.start)
  })

  it('takes the files relative to cwd, in a folder of the work tree', async () => {
    const repo = repository()
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    const outcome = await publishSync(input(repo, { cwd: path.join(repo.work, 'obs'), files: ['shop.yaml'] }))
    expect(outcome).toMatchObject({ operation: 'created' })
    expect(repo.show(BRANCH, SHOP)).toBe(shopNamed('Checkout v2'))
    expectBackOnStart(repo)
  })

  it('closes the open pull request with the comment when nothing differs any more', async () => {
    const repo = repository()
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    await publishSync(input(repo))

    day(3)
    const outcome = await publishSync(input(repo)) // the sync wrote the files as they are
    expect(outcome).toEqual({ operation: 'closed', number: 1, url: 'https://github.com/acme/shop/pull/1' })
    expect(gh.pulls()).toEqual([expect.objectContaining({ number: 1, state: 'closed', merged: false })])
    expect(gh.comments(1).map(c => c.body)).toEqual(['The UI and the repository agree again.'])
    expect(repo.pushes()).toHaveLength(1)

    day(4)
    expect(await publishSync(input(repo, { files: [] }))).toEqual({ operation: 'none' })
    expect(gh.comments(1)).toHaveLength(1)
    expectBackOnStart(repo)
  })

  it('after the pull request is merged, a run where nothing differs opens and closes nothing', async () => {
    const repo = repository()
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    await publishSync(input(repo))
    gh.mergePull(1)
    git(repo.origin, 'update-ref', 'refs/heads/main', `refs/heads/${BRANCH}`)
    git(repo.work, 'pull', '-q', '--ff-only', 'origin', 'main')
    repo.start = git(repo.work, 'rev-parse', 'HEAD').trim()

    const before = gh.requests.length
    day(3)
    expect(await publishSync(input(repo))).toEqual({ operation: 'none' })
    expect(gh.requests.slice(before).map(r => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/acme/shop/pulls'
    ])
    expect(gh.pulls()).toEqual([expect.objectContaining({ number: 1, state: 'closed', merged: true })])
    expect(gh.comments(1)).toEqual([])
    expectBackOnStart(repo)
  })

  it('gives each stack of one repository its own branch and pull request, each from the default branch', async () => {
    const repo = repository()
    // The sync wrote both stacks' files before either was published.
    repo.write(SHOP, shopNamed('Checkout v2'))
    repo.write(SAVED, 'kind: SavedSearch\nname: Errors only\n')
    day(2)
    const shop = await publishSync(input(repo))
    const search = await publishSync(input(repo, { stack: 'search', files: [SAVED] }))

    expect(shop).toMatchObject({ operation: 'created', number: 1 })
    expect(search).toMatchObject({ operation: 'created', number: 2 })
    expect(gh.pulls().map(p => [p.number, p.head, p.state])).toEqual([
      [1, BRANCH, 'open'],
      [2, 'obsdeploy/sync/search', 'open']
    ])
    expect(repo.show(BRANCH, SHOP)).toContain('Checkout v2')
    expect(repo.show(BRANCH, SAVED)).toBe('kind: SavedSearch\nname: Errors\n')
    expect(repo.show('obsdeploy/sync/search', SAVED)).toBe('kind: SavedSearch\nname: Errors only\n')
    expect(repo.show('obsdeploy/sync/search', SHOP)).toBe(SHOP_TEXT)
    for (const branch of [BRANCH, 'obsdeploy/sync/search'])
      expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}^`).trim()).toBe(repo.start)
    expectBackOnStart(repo)
  })

  it('updates a pull request of the branch someone opened by hand instead of opening a second', async () => {
    const repo = repository()
    const byHand = gh.openPull({ owner: 'acme', repo: 'shop', head: BRANCH, base: 'main', title: 'wip' })
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    expect(await publishSync(input(repo))).toMatchObject({ operation: 'updated', number: byHand.number })
    expect(gh.pulls()).toEqual([expect.objectContaining({ title: 'Sync shop from the UI', state: 'open' })])
  })
})

describe('publishSync refused', () => {
  it('names contents: write when GitHub refuses the push, and leaves the work tree as it was', async () => {
    const repo = repository()
    writeFileSync(
      path.join(repo.origin, 'hooks', 'pre-receive'),
      [
        '#!/bin/sh',
        'echo "Permission to acme/shop.git denied to github-actions[bot]." >&2',
        `echo "fatal: unable to access 'https://x-access-token:${TOKEN}@github.com/acme/shop/': The requested URL returned error: 403" >&2`,
        'exit 1',
        ''
      ].join('\n')
    )
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)

    const error = await publishSync(input(repo)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SyncPermissionError)
    expect(error).toMatchObject({ needs: 'contents: write' })
    const message = (error as Error).message
    expect(message).toContain('The sync could not push the branch obsdeploy/sync/shop')
    expect(message).toContain('permissions:\n  contents: write\n  pull-requests: write')
    expect(message).toContain('remote: Permission to acme/shop.git denied to github-actions[bot].')
    expect(message).not.toContain(TOKEN)
    expect(gh.pulls()).toEqual([])
    expectBackOnStart(repo)
  })

  it('names pull-requests: write when GitHub refuses the pull request to the token', async () => {
    const repo = repository()
    gh.setPermissions('read')
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    const error = await publishSync(input(repo)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SyncPermissionError)
    expect(error).toMatchObject({ needs: 'pull-requests: write' })
    expect((error as Error).message).toContain(
      "The sync could not open the pull request for obsdeploy/sync/shop: the job's token needs `pull-requests: write` (403: Resource not accessible by integration)"
    )
    expectBackOnStart(repo)
  })

  it('names pull-requests: write when closing is refused, too', async () => {
    const repo = repository()
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    await publishSync(input(repo))
    gh.setPermissions('read')
    const error = await publishSync(input(repo)).catch((e: unknown) => e)
    expect(error).toMatchObject({ needs: 'pull-requests: write' })
    expect((error as Error).message).toContain('The sync could not close pull request #1')
  })

  it('names the repository setting when Actions may not create pull requests', async () => {
    const repo = repository()
    gh.refusePullCreation(true)
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    const error = await publishSync(input(repo)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SyncPermissionError)
    expect(error).toMatchObject({ needs: 'repository setting' })
    expect((error as Error).message).toContain(
      'Settings → Actions → General → Workflow permissions → "Allow GitHub Actions to create and approve pull requests"'
    )
  })

  it('quotes what git said when it fails, without the credentials of the remote URL', async () => {
    const repo = repository()
    const port = await closedPort()
    git(
      repo.work,
      'remote',
      'set-url',
      'origin',
      `http://x-access-token:${TOKEN}@127.0.0.1:${port}/acme/shop.git`
    )
    repo.write(SHOP, shopNamed('Checkout v2'))
    day(2)
    const error = await publishSync(input(repo)).catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(SyncPermissionError)
    const message = (error as Error).message
    expect(message).toMatch(
      /^git --literal-pathspecs ls-remote --exit-code origin refs\/heads\/obsdeploy\/sync\/shop failed \(exit code 128\):\n {2}fatal: /
    )
    expect(message).not.toContain(TOKEN)
    expect(message).not.toContain('x-access-token:')
    expectBackOnStart(repo)
  })
})

describe('what git says, scrubbed', () => {
  it('loses URL credentials, Authorization values, GitHub tokens and the given secret in its forms', () => {
    const scrub = scrubber(['s3cr3t-value'])
    expect(
      scrub(
        "fatal: unable to access 'https://x-access-token:abc123@github.com/o/r/': 403; " +
          'http.extraheader=AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46YWJj; ghp_abcdefghijklmnopqrstuvwxyz; ' +
          `github_pat_11ABCDEFGHIJKLMNOPQRSTUV; s3cr3t-value ${Buffer.from('s3cr3t-value').toString('base64')}`
      )
    ).toBe(
      "fatal: unable to access 'https://***@github.com/o/r/': 403; http.extraheader=AUTHORIZATION: basic ***; ***; " +
        '***; *** ***'
    )
  })
})

/** A loopback port nothing listens on: git's connection is refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}
