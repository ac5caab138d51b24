import { describe, expect, it } from '@jest/globals'
import { eventPolicy, serviceGateFor, type EventContext } from '../../src/github/events.js'

const repo = { repository: { default_branch: 'main' } }
const ev = (eventName: string, ref?: string, payload: Record<string, unknown> = {}): EventContext => ({
  eventName,
  ref,
  payload: { ...repo, ...payload }
})

describe('what each GitHub event may do', () => {
  it('refuses apply on pull requests, with a clear reason', () => {
    const p = eventPolicy(ev('pull_request', 'refs/pull/7/merge'), 'apply', 'on-release')
    expect(p.refusal).toMatch(/apply is refused on pull_request events.*apply on push to the default branch/)
    expect(eventPolicy(ev('pull_request', 'refs/pull/7/merge'), 'plan', 'on-release').refusal).toBeUndefined()
  })

  it('refuses apply on pull_request_target, and warns that checking out PR code there exposes secrets', () => {
    const p = eventPolicy(ev('pull_request_target'), 'apply', 'on-release')
    expect(p.refusal).toMatch(/refused on pull_request_target/)
    expect(eventPolicy(ev('pull_request_target'), 'plan', 'on-release').warnings.join(' ')).toMatch(
      /exposes them/
    )
  })

  it('allows apply on a push to the default branch or a tag, and refuses other branches', () => {
    expect(eventPolicy(ev('push', 'refs/heads/main'), 'apply', 'on-release').refusal).toBeUndefined()
    expect(eventPolicy(ev('push', 'refs/tags/v1.2.0'), 'apply', 'on-release').refusal).toBeUndefined()
    expect(eventPolicy(ev('push', 'refs/heads/feature'), 'apply', 'on-release').refusal).toMatch(
      /default branch \(main\)/
    )
  })

  it('allows apply on a published release only', () => {
    expect(
      eventPolicy(ev('release', 'refs/tags/v1', { action: 'published' }), 'apply', 'on-release').refusal
    ).toBeUndefined()
    expect(
      eventPolicy(ev('release', 'refs/tags/v1', { action: 'created' }), 'apply', 'on-release').refusal
    ).toMatch(/published/)
  })

  it('opens the service gate on a published release or a tag push, and says why it waits otherwise', () => {
    expect(
      serviceGateFor(
        ev('release', 'refs/tags/v2', { action: 'published', release: { tag_name: 'v2' } }),
        'on-release'
      )
    ).toEqual({
      open: true,
      reason: 'release v2 published'
    })
    expect(serviceGateFor(ev('push', 'refs/tags/v2.1.0'), 'on-release')).toEqual({
      open: true,
      reason: 'tag v2.1.0 pushed'
    })
    for (const e of [ev('push', 'refs/heads/main'), ev('pull_request'), ev('schedule')]) {
      expect(serviceGateFor(e, 'on-release')).toMatchObject({
        open: false,
        reason: expect.stringMatching(/waits for a release/)
      })
    }
    expect(serviceGateFor(ev('pull_request'), 'always').open).toBe(true)
    expect(serviceGateFor(ev('release', undefined, { action: 'published' }), 'never').open).toBe(false)
    expect(serviceGateFor(undefined, 'on-release')).toMatchObject({ open: false })
  })

  it('allows scheduled and manual apply from the default branch only', () => {
    expect(eventPolicy(ev('schedule', 'refs/heads/main'), 'apply', 'on-release').refusal).toBeUndefined()
    expect(eventPolicy(ev('workflow_dispatch', 'refs/heads/dev'), 'apply', 'on-release').refusal).toMatch(
      /only on the default branch/
    )
    expect(eventPolicy(ev('issue_comment'), 'apply', 'on-release').refusal).toMatch(
      /not allowed on issue_comment/
    )
  })
})
