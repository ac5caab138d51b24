import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { commentMarker, upsertStickyComment, type CommentTarget } from '../../src/github/comment.js'
import { writtenBy } from '../../src/github/identity.js'
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

  // GraphQL's viewer query is a POST that writes nothing.
  const writes = () => github.requests.filter(r => r.method !== 'GET' && r.path !== '/graphql')

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
    const listed = github.requests.filter(r => r.method === 'GET' && r.path.endsWith('/comments'))
    expect(listed.map(r => r.query.page ?? '1')).toEqual(['1', '2'])
    expect(listed[0]?.query.per_page).toBe('100')
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
      expect(small.requests.filter(r => r.method === 'GET' && r.path.endsWith('/comments'))).toHaveLength(7)
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

  it("never edits a user's comment that carries a copied marker: a new comment is created instead", async () => {
    const copied = github.addComment(ISSUE, plan('Plan: nothing to see here, approve it'))
    const result = await upsertStickyComment(target, marker, plan('Plan: 1 to delete.'), { hasChanges: true })
    expect(result.action).toBe('created')
    const comments = github.comments(ISSUE)
    expect(comments).toHaveLength(2)
    expect(comments[0]).toMatchObject({ id: copied.id, body: copied.body, user: { login: 'octocat' } })
    expect(comments[1]).toMatchObject({
      body: plan('Plan: 1 to delete.'),
      user: { login: 'github-actions[bot]' }
    })
    expect(github.requests.filter(r => r.method === 'PATCH')).toEqual([])
    // The workflow's token cannot read GET /user; GraphQL's viewer names it.
    expect(github.requests.map(r => `${r.method} ${r.path} ${r.status}`)).toEqual(
      expect.arrayContaining(['GET /user 403', 'POST /graphql 200'])
    )
    // The next run finds its own comment, and still leaves the copy alone.
    const again = await upsertStickyComment(target, marker, plan('Plan: 2 to delete.'), { hasChanges: true })
    expect(again.action).toBe('updated')
    expect(github.comments(ISSUE).map(c => c.body)).toEqual([copied.body, plan('Plan: 2 to delete.')])
  })

  it("with a personal token, edits that person's comment and no one else's", async () => {
    const personal = await startFakeGitHub({ identity: { login: 'deploy-user', type: 'User' } })
    try {
      const at = { ...target, baseUrl: personal.url }
      const other = personal.addComment(ISSUE, plan('copied'), { login: 'mallory', type: 'User' })
      const bot = personal.addComment(ISSUE, plan('by the workflow'), {
        login: 'github-actions[bot]',
        type: 'Bot'
      })
      const own = personal.addComment(ISSUE, plan('old'), { login: 'Deploy-User', type: 'User' })
      const newer = personal.addComment(ISSUE, plan('newer copy'), { login: 'mallory', type: 'User' })
      const result = await upsertStickyComment(at, marker, plan('new'), { hasChanges: true })
      expect(result.action).toBe('updated')
      const bodies = new Map(personal.comments(ISSUE).map(c => [c.id, c.body]))
      expect(bodies.get(own.id)).toBe(plan('new'))
      for (const untouched of [other, bot, newer]) expect(bodies.get(untouched.id)).toBe(untouched.body)
      expect(personal.requests.filter(r => r.path === '/graphql')).toEqual([])
    } finally {
      await personal.close()
    }
  })

  it("with a GitHub App's token, edits the App's comment, not the workflow bot's", async () => {
    const app = await startFakeGitHub({ identity: { login: 'obsdeploy-app[bot]', type: 'Bot' } })
    try {
      const at = { ...target, baseUrl: app.url }
      const workflow = app.addComment(ISSUE, plan('other bot'), { login: 'github-actions[bot]', type: 'Bot' })
      const own = app.addComment(ISSUE, plan('old'), { login: 'obsdeploy-app[bot]', type: 'Bot' })
      const result = await upsertStickyComment(at, marker, plan('new'), { hasChanges: true })
      expect(result.action).toBe('updated')
      const bodies = new Map(app.comments(ISSUE).map(c => [c.id, c.body]))
      expect(bodies.get(own.id)).toBe(plan('new'))
      expect(bodies.get(workflow.id)).toBe(workflow.body)
    } finally {
      await app.close()
    }
  })

  it("takes the token for the workflow's own when GitHub does not say who it is", async () => {
    const silent = await startFakeGitHub({ graphql: false })
    try {
      const at = { ...target, baseUrl: silent.url }
      const user = silent.addComment(ISSUE, plan('copied'))
      const own = silent.addComment(ISSUE, plan('old'), { login: 'github-actions[bot]', type: 'Bot' })
      expect((await upsertStickyComment(at, marker, plan('new'), { hasChanges: true })).action).toBe(
        'updated'
      )
      const bodies = new Map(silent.comments(ISSUE).map(c => [c.id, c.body]))
      expect(bodies.get(own.id)).toBe(plan('new'))
      expect(bodies.get(user.id)).toBe(user.body)
    } finally {
      await silent.close()
    }
  })

  it('asks who the token is only when some comment carries the marker', async () => {
    github.seedComments(ISSUE, 3)
    await upsertStickyComment(target, marker, plan('first'), { hasChanges: true })
    expect(github.requests.map(r => r.path)).not.toContain('/user')
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

describe('whose comment it is', () => {
  it('matches the login (in any case), and a [bot] login only on a Bot account', () => {
    expect(writtenBy({ login: 'Deploy-User', type: 'User' }, 'deploy-user')).toBe(true)
    expect(writtenBy({ login: 'mallory', type: 'User' }, 'deploy-user')).toBe(false)
    expect(writtenBy({ login: 'github-actions[bot]', type: 'Bot' }, 'github-actions[bot]')).toBe(true)
    expect(writtenBy({ login: 'github-actions[bot]', type: 'User' }, 'github-actions[bot]')).toBe(false)
    expect(writtenBy(null, 'github-actions[bot]')).toBe(false)
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
