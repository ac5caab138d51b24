import { describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defaultStack } from '../../src/cli.js'

describe('the CLI picks the same default stack as the action', () => {
  it('takes the repository name from GITHUB_REPOSITORY, else from the git remote origin, else the folder', () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'folder-name-'))
    mkdirSync(path.join(repo, '.git'))
    mkdirSync(path.join(repo, 'observability'))
    writeFileSync(
      path.join(repo, '.git', 'config'),
      '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:acme/shop.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
    )
    expect(defaultStack(repo, { GITHUB_REPOSITORY: 'acme/storefront' })).toBe('storefront')
    expect(defaultStack(path.join(repo, 'observability'), {})).toBe('shop')
    const plain = mkdtempSync(path.join(tmpdir(), 'no-git-'))
    expect(defaultStack(plain, {})).toBe(path.basename(plain))
  })
})
