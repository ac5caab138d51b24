/**
 * Reading rules from where a pull request cannot change them: the base commit's manifest files through the
 * GitHub API (the checkout's own copy where its git blob is the same), `policy-source` through the API in
 * the action, and a local path or git ref in the CLI.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readLocalPolicySource } from '../../src/cli/policy-source.js'
import { readBaseFiles } from '../../src/github/base-files.js'
import { parsePolicySource } from '../../src/github/policy-source-address.js'
import { readPolicySource } from '../../src/github/policy-source.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'
import { scratchDir } from '../support/scratch.js'

const TOKEN = 'ghs_fakeToken1234567890abcdef'
const BASE = 'b'.repeat(40)

function workspace(files: Record<string, string>, git = true): string {
  const dir = scratchDir('policy-files')
  if (git) mkdirSync(path.join(dir, '.git'))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
  return dir
}

describe("a pull request's base commit", () => {
  let github: FakeGitHub
  beforeEach(async () => {
    github = await startFakeGitHub()
  })
  afterEach(async () => {
    await github.close()
  })

  const read = (cwd: string, patterns = ['observability/**/*.yaml']) =>
    readBaseFiles({
      token: TOKEN,
      owner: 'acme',
      repo: 'shop',
      sha: BASE,
      patterns,
      cwd,
      baseUrl: github.url
    })

  it('is this checkout where the blobs are the same, and the base text elsewhere, in two requests', async () => {
    github.setCommit('acme/shop', BASE, {
      'observability/policy.yaml': 'kind: Policy\nname: org\n',
      'observability/same.yaml': 'kind: Dashboard\nname: Same\n',
      'observability/gone.yaml': 'kind: Dashboard\nname: Gone\n',
      'observability/notes.md': 'not a manifest',
      'src/app.yaml': 'outside the globs'
    })
    const cwd = workspace({
      'observability/policy.yaml': 'kind: Policy\nname: weaker\n',
      'observability/same.yaml': 'kind: Dashboard\nname: Same\n',
      'observability/new.yaml': 'kind: Dashboard\nname: New\n'
    })
    const base = await read(cwd)
    expect(base).toEqual({
      commit: BASE,
      unchanged: new Set(['observability/same.yaml']),
      differing: [
        { path: 'observability/gone.yaml', text: 'kind: Dashboard\nname: Gone\n' },
        { path: 'observability/policy.yaml', text: 'kind: Policy\nname: org\n' }
      ]
    })
    expect(github.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/acme/shop/git/trees/${BASE}`,
      'POST /graphql'
    ])
  })

  it('is found under the folder the workspace is in, when the checkout is a subfolder of it', async () => {
    github.setCommit('acme/shop', BASE, { 'deploy/observability/policy.yaml': 'kind: Policy\nname: org\n' })
    const root = workspace({})
    const cwd = path.join(root, 'deploy')
    mkdirSync(cwd)
    const base = await read(cwd)
    expect(base).toMatchObject({
      differing: [{ path: 'observability/policy.yaml', text: 'kind: Policy\nname: org\n' }]
    })
  })

  it('honours the globs that exclude', async () => {
    github.setCommit('acme/shop', BASE, {
      'observability/policy.yaml': 'kind: Policy\nname: org\n',
      'observability/drafts/x.yaml': 'kind: Policy\nname: draft\n'
    })
    const base = await read(workspace({}), ['observability/**/*.yaml', '!observability/drafts/**'])
    expect(base).toMatchObject({ differing: [{ path: 'observability/policy.yaml' }] })
  })

  it('says why it cannot be read, never with the token', async () => {
    const base = await read(workspace({}))
    expect(base).toEqual({
      unavailable: "GitHub answered 404: Not Found; the job's token needs `contents: read`"
    })
    expect(
      await readBaseFiles({ token: '', owner: 'a', repo: 'b', sha: BASE, patterns: [], cwd: '.' })
    ).toEqual({
      unavailable: 'no github-token to read it with'
    })
  })
})

describe('policy-source in the action', () => {
  let github: FakeGitHub
  beforeEach(async () => {
    github = await startFakeGitHub()
  })
  afterEach(async () => {
    await github.close()
  })

  it('is written owner/repo@ref:path', () => {
    expect(parsePolicySource('acme/policies@main:observability/')).toEqual({
      owner: 'acme',
      repo: 'policies',
      ref: 'main',
      path: 'observability'
    })
    expect(parsePolicySource('acme/policies@v1.2:')).toMatchObject({ ref: 'v1.2', path: '' })
    expect(parsePolicySource('acme/policies:main')).toEqual({
      problem: 'must be written owner/repo@ref:path (for example acme/policies@main:observability)'
    })
    expect(parsePolicySource('acme/policies@main:../x')).toEqual({
      problem: 'its path must stay inside the repository: "../x"'
    })
  })

  it("reads a folder's YAML files, or one file, at the ref", async () => {
    github.setCommit(
      'acme/policies',
      'c'.repeat(40),
      {
        'observability/org.yaml': 'kind: Policy\nname: org\n',
        'observability/more/team.yml': 'kind: Policy\nname: team\n',
        'observability/README.md': 'no',
        'other.yaml': 'kind: Policy\nname: other\n'
      },
      ['main']
    )
    const address = parsePolicySource('acme/policies@main:observability') as Exclude<
      ReturnType<typeof parsePolicySource>,
      { problem: string }
    >
    expect(await readPolicySource(address, TOKEN, github.url)).toEqual({
      origin: 'acme/policies@main:observability',
      files: [
        { path: 'acme/policies@main:observability/more/team.yml', text: 'kind: Policy\nname: team\n' },
        { path: 'acme/policies@main:observability/org.yaml', text: 'kind: Policy\nname: org\n' }
      ]
    })
    const file = { ...address, path: 'other.yaml' }
    expect(await readPolicySource(file, TOKEN, github.url)).toMatchObject({
      files: [{ path: 'acme/policies@main:other.yaml' }]
    })
    expect(await readPolicySource({ ...address, ref: 'gone' }, TOKEN, github.url)).toEqual({
      origin: 'acme/policies@gone:observability',
      unreadable: 'GitHub answered 404: Not Found'
    })
  })
})

describe('policy-source in the CLI', () => {
  it('reads a local file or folder', async () => {
    const cwd = workspace(
      { 'policies/org.yaml': 'kind: Policy\nname: org\n', 'policies/a/b.yml': 'x: 1\n' },
      false
    )
    expect(await readLocalPolicySource('policies', cwd)).toEqual({
      origin: 'policies',
      files: [
        { path: 'policies/a/b.yml', text: 'x: 1\n' },
        { path: 'policies/org.yaml', text: 'kind: Policy\nname: org\n' }
      ]
    })
    expect(await readLocalPolicySource('policies/org.yaml', cwd)).toMatchObject({
      files: [{ path: 'policies/org.yaml' }]
    })
  })

  it('reads <git ref>:<path> of the local repository with git', async () => {
    const cwd = workspace({ 'policies/org.yaml': 'kind: Policy\nname: committed\n' }, false)
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd })
    git('init', '-q', '-b', 'main')
    git('add', '.')
    git('commit', '-q', '-m', 'policies')
    writeFileSync(path.join(cwd, 'policies/org.yaml'), 'kind: Policy\nname: edited\n')
    expect(await readLocalPolicySource('main:policies', cwd)).toEqual({
      origin: 'main:policies',
      files: [{ path: 'main:policies/org.yaml', text: 'kind: Policy\nname: committed\n' }]
    })
    expect(await readLocalPolicySource('nothere:policies', cwd)).toMatchObject({
      origin: 'nothere:policies',
      unreadable: expect.stringMatching(/git/) as unknown
    })
    expect(await readLocalPolicySource('missing', cwd)).toEqual({
      origin: 'missing',
      unreadable: 'no such file or folder, and not a `<git ref>:<path>` either'
    })
  })
})
