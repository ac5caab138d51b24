import { describe, expect, it } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { cli, defaultStack } from '../../src/cli.js'
import { defaultStackOf } from '../../src/config/default-stack.js'
import { scratchDir } from '../support/scratch.js'

describe('the CLI picks the same default stack as the action', () => {
  it('takes the repository name from GITHUB_REPOSITORY, else from the git remote origin, else the folder', () => {
    const repo = scratchDir('folder-name-')
    mkdirSync(path.join(repo, '.git'))
    mkdirSync(path.join(repo, 'observability'))
    writeFileSync(
      path.join(repo, '.git', 'config'),
      '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:acme/shop.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
    )
    expect(defaultStack(repo, { GITHUB_REPOSITORY: 'acme/storefront' })).toBe('storefront')
    expect(defaultStack(path.join(repo, 'observability'), {})).toBe('shop')
    const plain = scratchDir('no-git-')
    expect(defaultStack(plain, {})).toBe(path.basename(plain))
  })
})

describe('a default stack that is only the folder name', () => {
  const cliIn = async (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    let stderr = ''
    const code = await cli(args, {
      stdout: () => undefined,
      stderr: t => (stderr += t),
      env: { OBSDEPLOY_API_KEY: 'key-1234567890', ...env },
      cwd,
      isTty: false
    })
    return { code, stderr }
  }

  it('says which stack and why, only when it falls back to the folder', () => {
    const plain = scratchDir('no-git-')
    const fallback = defaultStackOf(plain, {})
    expect(fallback.name).toBe(path.basename(plain))
    expect(fallback.why).toBe(
      `stack "${path.basename(plain)}" is the name of this folder: no git repository to name the repository, and GITHUB_REPOSITORY is not set. The stack is the ownership tag of everything this run creates and updates; pass --stack NAME (or OBSDEPLOY_STACK) to choose it`
    )
    const noOrigin = scratchDir('no-origin-')
    mkdirSync(path.join(noOrigin, '.git'))
    writeFileSync(path.join(noOrigin, '.git', 'config'), '[core]\n\tbare = false\n')
    expect(defaultStackOf(noOrigin, {}).why).toContain(
      `the git repository in ${noOrigin} has no remote "origin" to name the repository`
    )
    expect(defaultStackOf(plain, { GITHUB_REPOSITORY: 'acme/shop' })).toEqual({ name: 'shop' })
  })

  it('the CLI prints it before it plans or exports; not with --stack, and not for validate', async () => {
    const plain = scratchDir('no-git-')
    // A file as --out: the run stops there with a usage error, after the settings, before any request.
    writeFileSync(path.join(plain, 'taken'), '')
    const args = ['export', '--out', 'taken', '--api-url', 'http://127.0.0.1:9']
    const notice = `obsdeploy export: stack "${path.basename(plain)}" is the name of this folder`
    expect((await cliIn(plain, args)).stderr).toContain(notice)
    expect((await cliIn(plain, [...args, '--stack', 'shop'])).stderr).not.toContain('name of this folder')
    expect((await cliIn(plain, args, { OBSDEPLOY_STACK: 'shop' })).stderr).not.toContain(
      'name of this folder'
    )
    mkdirSync(path.join(plain, 'observability'))
    writeFileSync(path.join(plain, 'observability', 'a.yaml'), 'kind: Dashboard\nname: A\n')
    expect((await cliIn(plain, ['validate', 'observability/'])).stderr).not.toContain('name of this folder')
  })
})
