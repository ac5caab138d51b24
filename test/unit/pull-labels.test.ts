/**
 * The pull request's labels for policy rules (src/github/pull-labels.ts, events.ts): from a pull_request
 * event's payload, and on a push from the merged pull request of the commit; when they cannot be read,
 * none, with a reason that never holds the token.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { labelsOfEvent } from '../../src/github/events.js'
import { labelsOfCommit } from '../../src/github/pull-labels.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'

const SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e'
const TOKEN = 'ghs_secret_token_0123456789'
let gh: FakeGitHub
beforeAll(async () => {
  gh = await startFakeGitHub()
})
afterAll(() => gh.close())
const target = () => ({ token: TOKEN, owner: 'acme', repo: 'shop', sha: SHA, baseUrl: gh.url })

describe('labels of a pull request', () => {
  it('are read from a pull_request event, and absent on an event without a pull request', () => {
    expect(
      labelsOfEvent({ pull_request: { labels: [{ name: 'approved-delete' }, { name: 'docs' }] } })
    ).toEqual({
      names: ['approved-delete', 'docs']
    })
    expect(labelsOfEvent({ pull_request: {} })).toEqual({ names: [] })
    expect(labelsOfEvent({ ref: 'refs/heads/main' })).toBeUndefined()
  })

  it('on a push, are the labels of the merged pull requests of the commit, not of open ones', async () => {
    gh.setCommitPulls(SHA, [
      { number: 7, labels: ['docs', 'approved-delete'] },
      { number: 8, labels: ['wip'], merged: false }
    ])
    expect(await labelsOfCommit(target())).toEqual({ names: ['approved-delete', 'docs'] })
  })

  it('are none, with the reason, when no merged pull request has the commit', async () => {
    gh.setCommitPulls(SHA, [{ number: 8, labels: ['approved-delete'], merged: false }])
    expect(await labelsOfCommit(target())).toEqual({
      names: [],
      unknown: 'no merged pull request has commit 6dcb09b5b578'
    })
  })

  it('are none when GitHub refuses, and the reason names the permission, never the token', async () => {
    gh.failNext(403)
    const found = await labelsOfCommit(target())
    expect(found.names).toEqual([])
    expect(found.unknown).toContain('could not be read (403: Fault injected by the fake)')
    expect(found.unknown).toContain('pull-requests: read')
    expect(found.unknown).not.toContain(TOKEN)
  })
})
