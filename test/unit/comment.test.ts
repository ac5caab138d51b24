import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { commentMarker, upsertStickyComment, type CommentTarget } from '../../src/github/comment.js'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-api.js'

const TOKEN = 'ghs_fakeToken1234567890abcdef'
const ISSUE = 42
const marker = commentMarker('shop', 'Observability/plan')
const plan = (text: string) => `${marker}\n### 📝 Plan for stack shop (self-hosted)\n\n${text}`

describe('sticky pull request comment', () => {
  let github: FakeGitHub
  let target: CommentTarget

  beforeEach(async () => {
    github = await startFakeGitHub()
    target = { token: TOKEN, owner: 'acme', repo: 'shop', issueNumber: ISSUE, baseUrl: github.url }
  })
  afterEach(async () => {
    await github.close()
  })

  const writes = () => github.requests.filter(r => r.method !== 'GET')

  it('posts a comment the first time', async () => {
    const result = await upsertStickyComment(target, marker, plan('Plan: 1 to update.'), { hasChanges: true })
    expect(result.action).toBe('created')
    const comments = github.comments(ISSUE)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toBe(plan('Plan: 1 to update.'))
    expect(result.url).toBe(comments[0].html_url)
  })

  it('updates the same comment on the next run: one comment in total', async () => {
    await upsertStickyComment(target, marker, plan('Plan: 1 to update.'), { hasChanges: true })
    const [first] = github.comments(ISSUE)
    const result = await upsertStickyComment(target, marker, plan('Plan: 2 to update.'), { hasChanges: true })
    expect(result).toEqual({ action: 'updated', url: first.html_url })
    const comments = github.comments(ISSUE)
    expect(comments).toHaveLength(1)
    expect(comments[0].id).toBe(first.id)
    expect(comments[0].body).toBe(plan('Plan: 2 to update.'))
    expect(writes().map(r => r.method)).toEqual(['POST', 'PATCH'])
  })

  it('finds its comment on page 2 behind 150 older comments by others', async () => {
    github.seedComments(ISSUE, 150)
    await upsertStickyComment(target, marker, plan('first'), { hasChanges: true })
    github.requests.length = 0
    const result = await upsertStickyComment(target, marker, plan('second'), { hasChanges: true })
    expect(result.action).toBe('updated')
    expect(github.comments(ISSUE).filter(c => c.body.startsWith(marker))).toHaveLength(1)
    const pages = github.requests.filter(r => r.method === 'GET').map(r => r.query.page ?? '1')
    expect(pages).toEqual(['1', '2'])
    expect(github.requests.find(r => r.method === 'GET')?.query.per_page).toBe('100')
  })

  it('follows the Link header when the server hands out smaller pages than asked', async () => {
    const small = await startFakeGitHub({ perPageMax: 30 })
    try {
      small.seedComments(ISSUE, 140)
      small.addComment(ISSUE, plan('old'), { login: 'github-actions[bot]', type: 'Bot' })
      small.seedComments(ISSUE, 40)
      const result = await upsertStickyComment({ ...target, baseUrl: small.url }, marker, plan('new'), {
        hasChanges: true
      })
      expect(result.action).toBe('updated')
      expect(small.comments(ISSUE)).toHaveLength(181)
      expect(small.comments(ISSUE)[140].body).toBe(plan('new'))
      expect(small.requests.filter(r => r.method === 'GET')).toHaveLength(7)
    } finally {
      await small.close()
    }
  })

  it('posts nothing when there are no changes and no earlier comment', async () => {
    const result = await upsertStickyComment(target, marker, plan('No changes.'), { hasChanges: false })
    expect(result).toEqual({ action: 'skipped' })
    expect(github.comments(ISSUE)).toHaveLength(0)
    expect(writes()).toHaveLength(0)
  })

  it('updates the earlier comment to say there are no changes any more', async () => {
    await upsertStickyComment(target, marker, plan('Plan: 1 to create.'), { hasChanges: true })
    const result = await upsertStickyComment(target, marker, plan('No changes.'), { hasChanges: false })
    expect(result.action).toBe('updated')
    expect(github.comments(ISSUE).map(c => c.body)).toEqual([plan('No changes.')])
  })

  it('returns skipped with a warning naming the permission when the token is read-only', async () => {
    github.setPermissions('read')
    const result = await upsertStickyComment(target, marker, plan('Plan: 1 to create.'), { hasChanges: true })
    expect(result.action).toBe('skipped')
    expect(result.warning).toContain('permissions:\n  pull-requests: write')
    expect(result.warning).toContain('Resource not accessible by integration')
    expect(result.warning).toContain('job summary')
    expect(JSON.stringify(result)).not.toContain(TOKEN)
    expect(github.comments(ISSUE)).toHaveLength(0)
  })

  it('warns the same way when an existing comment cannot be edited', async () => {
    await upsertStickyComment(target, marker, plan('first'), { hasChanges: true })
    github.setPermissions('read')
    const result = await upsertStickyComment(target, marker, plan('second'), { hasChanges: true })
    expect(result.action).toBe('skipped')
    expect(result.warning).toContain('pull-requests: write')
    expect(github.comments(ISSUE)[0].body).toBe(plan('first'))
  })

  it('turns a server error into a warning, never a failure', async () => {
    github.failNext(502)
    const result = await upsertStickyComment(target, marker, plan('x'), { hasChanges: true })
    expect(result.action).toBe('skipped')
    expect(result.warning).toMatch(/GitHub answered 502/)
    expect(result.warning).toContain('job summary')
  })

  it('never returns the token, even when GitHub rejects it', async () => {
    const strict = await startFakeGitHub({ token: 'the-right-token-000000' })
    try {
      const result = await upsertStickyComment({ ...target, baseUrl: strict.url }, marker, plan('x'), {
        hasChanges: true
      })
      expect(result.action).toBe('skipped')
      expect(result.warning).toContain('401')
      expect(JSON.stringify(result)).not.toContain(TOKEN)
    } finally {
      await strict.close()
    }
  })

  it('does not take over a user comment that quotes the marker', async () => {
    const quoted = github.addComment(ISSUE, `> ${plan('old plan')}\n\nWhy does this delete Legacy checkout?`)
    const mentioned = github.addComment(ISSUE, `The bot comment starts with ${marker}, see above`)
    const result = await upsertStickyComment(target, marker, plan('new plan'), { hasChanges: true })
    expect(result.action).toBe('created')
    const comments = github.comments(ISSUE)
    expect(comments).toHaveLength(3)
    expect(comments.find(c => c.id === quoted.id)?.body).toBe(quoted.body)
    expect(comments.find(c => c.id === mentioned.id)?.body).toBe(mentioned.body)
  })

  it('updates the newest when several comments carry the marker', async () => {
    const bot = { login: 'github-actions[bot]', type: 'Bot' as const }
    const older = github.addComment(ISSUE, plan('older'), bot)
    const newer = github.addComment(ISSUE, plan('newer'), bot)
    await upsertStickyComment(target, marker, plan('latest'), { hasChanges: true })
    const comments = github.comments(ISSUE)
    expect(comments.find(c => c.id === older.id)?.body).toBe(plan('older'))
    expect(comments.find(c => c.id === newer.id)?.body).toBe(plan('latest'))
  })

  it('keeps separate comments for different stacks and different jobs', async () => {
    const shopPlan = commentMarker('shop', 'Observability/plan')
    const paymentsPlan = commentMarker('payments', 'Observability/plan')
    const shopDrift = commentMarker('shop', 'Observability/drift')
    for (const m of [shopPlan, paymentsPlan, shopDrift, shopPlan, paymentsPlan, shopDrift]) {
      await upsertStickyComment(target, m, `${m}\nplan`, { hasChanges: true })
    }
    const bodies = github.comments(ISSUE).map(c => c.body)
    expect(bodies).toEqual([`${shopPlan}\nplan`, `${paymentsPlan}\nplan`, `${shopDrift}\nplan`])
  })

  it('adds the marker when the body lacks it, so the next run finds the comment', async () => {
    await upsertStickyComment(target, marker, 'Plan: 1 to create.', { hasChanges: true })
    expect(github.comments(ISSUE)[0].body).toBe(`${marker}\nPlan: 1 to create.`)
    const result = await upsertStickyComment(target, marker, 'Plan: 2 to create.', { hasChanges: true })
    expect(result.action).toBe('updated')
  })

  it('talks to GITHUB_API_URL when no base URL is given', async () => {
    const saved = process.env.GITHUB_API_URL
    process.env.GITHUB_API_URL = github.url
    try {
      const { baseUrl: _unused, ...withoutBase } = target
      const result = await upsertStickyComment(withoutBase, marker, plan('x'), { hasChanges: true })
      expect(result.action).toBe('created')
    } finally {
      if (saved === undefined) delete process.env.GITHUB_API_URL
      else process.env.GITHUB_API_URL = saved
    }
  })
})

describe('comment marker', () => {
  it('is a hidden HTML comment naming the stack and the job', () => {
    expect(commentMarker('shop', 'Observability/plan')).toBe(
      '<!-- obsdeploy:sticky stack=shop job=Observability%2Fplan -->'
    )
  })

  it('cannot be closed early or broken by any stack or job text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (stack, job) => {
        const m = commentMarker(stack, job)
        const inner = m.slice('<!--'.length, -'-->'.length)
        expect(m.startsWith('<!-- ')).toBe(true)
        expect(m.endsWith(' -->')).toBe(true)
        expect(inner).not.toMatch(/--|[<>\n\r]/)
        expect(inner.endsWith('-')).toBe(false)
      })
    )
    expect(commentMarker('a-->b', '--!>')).toBe(
      '<!-- obsdeploy:sticky stack=a%2D%2D%3Eb job=%2D%2D%21%3E -->'
    )
  })

  it('is different for every stack and job, and no marker is the start of another', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (s1, j1, s2, j2) => {
        fc.pre(s1 !== s2 || j1 !== j2)
        const a = commentMarker(s1, j1)
        const b = commentMarker(s2, j2)
        expect(a).not.toBe(b)
        expect(b.startsWith(a)).toBe(false)
      })
    )
    expect(commentMarker('shop', 'plan/x').startsWith(commentMarker('shop', 'plan'))).toBe(false)
  })
})
