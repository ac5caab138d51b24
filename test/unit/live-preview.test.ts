/**
 * The live preview's pieces, without a network: a copy's tags fit the server's limit and name their stack and pull
 * request; its request leaves raw SQL out unless asked; the live read sets copies aside so no stage takes one for a
 * dashboard of the stack's (and a saved plan does not see them come and go); the sweep's reasons; what each GitHub
 * event allows.
 */
import { describe, expect, it } from '@jest/globals'
import type { ObservabilityApi } from '../../src/api/client.js'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { livePreviewOf } from '../../src/github/events.js'
import { dashboardKind } from '../../src/kinds/dashboard/index.js'
import {
  copiedName,
  copyBody,
  copyFacts,
  copyName,
  isPreviewCopy,
  previewCopyTags,
  previewStackTag
} from '../../src/kinds/dashboard/preview-copy.js'
import { isOwnershipTag, ownershipTag, userTags } from '../../src/kinds/ownership.js'
import { readLiveState } from '../../src/live/read.js'
import { sweepCopies, sweepReason } from '../../src/live-preview/sweep.js'
import { liveDigest } from '../../src/run/saved-plan.js'
import { LIMITS } from '../../src/manifest/vocabulary.js'
import { livePreviewMarkdown, livePreviewText } from '../../src/report/live-preview.js'

const AT = new Date('2026-12-06T07:56:31Z')
const DAY = 24 * 3600 * 1000
const dashboard = (id: string, name: string, tags: string[]): LiveDashboard =>
  ({ id, name, tags, tiles: [] }) as unknown as LiveDashboard

/** An API of dashboards only, that logs the requests it is sent. */
function server(dashboards: LiveDashboard[]) {
  const sent: string[] = []
  const api = {
    withSignal: () => api,
    listDashboards: async () => {
      sent.push('GET /dashboards')
      return structuredClone(dashboards)
    },
    deleteDashboard: async (id: string) => {
      sent.push(`DELETE /dashboards/${id}`)
      return 'deleted' as const
    }
  }
  return { api: api as unknown as ObservabilityApi, sent }
}

describe("a preview copy's tags", () => {
  it('name the stack, the pull request and the minute of the write, none of them an ownership tag', () => {
    const tags = previewCopyTags('shop', 7, AT)
    expect(tags).toEqual(['obsdeploy-preview:shop', 'obsdeploy-pr:7', 'obsdeploy-at:2026-12-06T07:56Z'])
    expect(tags.some(isOwnershipTag)).toBe(false)
    expect(tags).not.toContain(ownershipTag('shop'))
    expect(copyFacts({ tags })).toEqual({ pullRequest: 7, writtenAt: new Date('2026-12-06T07:56:00Z') })
    expect(isPreviewCopy({ tags })).toBe(true)
    expect(isPreviewCopy({ tags: [ownershipTag('shop'), 'obsdeploy-registry'] })).toBe(false)
  })

  it("fit the server's 32 characters for a long stack name and a long pull request number, stacks kept apart", () => {
    const long = 'payments-platform-europe-west-production'
    const tags = previewCopyTags(long, 1234567, AT)
    expect(tags.every(t => t.length <= LIMITS.tagLength)).toBe(true)
    expect(previewStackTag(long)).not.toBe(previewStackTag(`${long}-2`))
  })

  it('name the copy [PR #7] <name>, within the name limit, and give the name back', () => {
    expect(copyName(7, 'Checkout')).toBe('[PR #7] Checkout')
    expect(copiedName(7, '[PR #7] Checkout')).toBe('Checkout')
    expect(copyName(7, 'x'.repeat(LIMITS.dashboardName))).toHaveLength(LIMITS.dashboardName)
  })
})

describe("a preview copy's request", () => {
  const sql = {
    id: 't2',
    name: 'Slow queries',
    x: 12,
    y: 0,
    w: 12,
    h: 4,
    containerId: 'c1',
    config: {
      configType: 'sql',
      displayType: 'table',
      connectionId: 'k1',
      sqlTemplate: 'SELECT secret FROM t'
    }
  }
  const request = {
    name: 'Payments',
    tags: ['team', ownershipTag('shop')],
    tiles: [{ id: 't1', name: 'Errors', x: 0, y: 0, w: 12, h: 4, series: [] }, sql]
  }

  it("has the copy's name and tags only, tiles without ids, and each raw SQL tile a placeholder in its place", () => {
    const tags = previewCopyTags('shop', 7, AT)
    const { body, sqlLeftOut } = copyBody(request, { name: '[PR #7] Payments', tags, sql: false })
    expect(body.name).toBe('[PR #7] Payments')
    expect(body.tags).toEqual(tags)
    expect(sqlLeftOut).toEqual(['Slow queries'])
    const tiles = body.tiles as Array<Record<string, unknown>>
    expect(tiles.map(t => t.id)).toEqual([undefined, undefined])
    expect(tiles[1]).toEqual({
      name: 'Slow queries',
      x: 12,
      y: 0,
      w: 12,
      h: 4,
      containerId: 'c1',
      series: [{ type: 'markdown', content: expect.stringContaining('live-preview-sql: true') }]
    })
    expect(JSON.stringify(body)).not.toContain('SELECT secret')
  })

  it('keeps raw SQL tiles with live-preview-sql', () => {
    const { body, sqlLeftOut } = copyBody(request, { name: 'n', tags: [], sql: true })
    expect(sqlLeftOut).toEqual([])
    expect(JSON.stringify(body)).toContain('SELECT secret')
  })
})

describe('the live read', () => {
  const own = dashboard('d1', 'Checkout', [ownershipTag('shop')])
  const copy = dashboard('d2', 'Checkout', previewCopyTags('shop', 7, AT))
  const theirs = dashboard('d3', '[PR #3] Orders', previewCopyTags('other', 3, AT))

  it('sets preview copies aside from the dashboards every stage plans, pairs, prunes and exports', async () => {
    const { api } = server([own, copy, theirs])
    const state = await readLiveState(api, { service: false }, [dashboardKind])
    expect(state.Dashboard.map(d => d.id)).toEqual(['d1'])
    expect(state.previewCopies?.map(d => d.id)).toEqual(['d2', 'd3'])
  })

  it('leaves the state as it was when there is no copy', async () => {
    const { api } = server([own])
    const state = await readLiveState(api, { service: false }, [dashboardKind])
    expect(state).toEqual({ Dashboard: [own] })
  })

  it("is digested for a saved plan without the copies: a preview's push does not invalidate the plan", async () => {
    const alone = await readLiveState(server([own]).api, { service: false }, [dashboardKind])
    const withCopies = await readLiveState(server([own, copy, theirs]).api, { service: false }, [
      dashboardKind
    ])
    expect(liveDigest(withCopies)).toBe(liveDigest(alone))
  })

  it("keeps the user's tags of a dashboard apart from the preview's (ownership.ts)", () => {
    expect(userTags(['team', ownershipTag('shop')])).toEqual(['team'])
  })
})

describe('the sweep', () => {
  const now = new Date('2026-12-20T00:00:00Z')
  const copyOf = (id: string, pr: number, at: Date) =>
    dashboard(id, `[PR #${pr}] X`, previewCopyTags('shop', pr, at))

  it('deletes a copy last written longer ago than the TTL, and one of a closed pull request, asking GitHub once a pull request', async () => {
    const asked: number[] = []
    const isClosed = async (n: number) => {
      asked.push(n)
      return n === 4
    }
    const copies = [
      copyOf('old', 3, new Date(now.getTime() - 8 * DAY)),
      copyOf('closed-a', 4, now),
      copyOf('closed-b', 4, now),
      copyOf('open', 5, new Date(now.getTime() - 6 * DAY))
    ]
    const { api, sent } = server([])
    const { swept, requests } = await sweepCopies(api, copies, { now, ttlMs: 7 * DAY, isClosed })
    expect(swept.map(s => [s.id, s.why])).toEqual([
      ['old', 'last written 8 days ago (live-preview-ttl: 7 days)'],
      ['closed-a', 'pull request #4 is closed'],
      ['closed-b', 'pull request #4 is closed']
    ])
    expect(sent).toEqual([
      'DELETE /dashboards/old',
      'DELETE /dashboards/closed-a',
      'DELETE /dashboards/closed-b'
    ])
    expect(requests).toBe(3)
    expect(asked).toEqual([4, 5])
  })

  it('keeps a copy when GitHub cannot say, until its TTL runs out', async () => {
    const reason = await sweepReason(
      copyOf('a', 5, now),
      { now, ttlMs: 7 * DAY, isClosed: async () => undefined },
      new Map()
    )
    expect(reason).toBeUndefined()
  })

  it('deletes only the copies of the pull requests named, whatever their age', async () => {
    const rules = { now, ttlMs: 7 * DAY, pullRequests: [7] }
    expect(await sweepReason(copyOf('a', 7, now), rules, new Map())).toBe('a copy of pull request #7')
    expect(await sweepReason(copyOf('b', 3, new Date(0)), rules, new Map())).toBeUndefined()
  })

  it('deletes a copy whose date tag is gone: its age cannot be known', async () => {
    const bare = dashboard('x', '[PR #7] X', ['obsdeploy-preview:shop', 'obsdeploy-pr:7'])
    expect(await sweepReason(bare, { now, ttlMs: 7 * DAY }, new Map())).toMatch(/no date of its last write/)
  })
})

describe('what each event allows the live preview', () => {
  const payload = (n: number, head: string | null, action = 'opened') => ({
    action,
    pull_request: {
      number: n,
      head: { repo: head === null ? null : { full_name: head } },
      base: { repo: { full_name: 'acme/shop' } }
    }
  })

  it("writes on a pull request of this repository, refuses a fork's and pull_request_target, deletes on close", () => {
    expect(livePreviewOf({ eventName: 'pull_request', payload: payload(7, 'acme/shop') })).toEqual({
      pullRequest: 7
    })
    expect(livePreviewOf({ eventName: 'pull_request', payload: payload(7, 'mallory/shop') })).toEqual({
      pullRequest: 7,
      refused: expect.stringContaining('refused on a pull request from a fork (mallory/shop)')
    })
    expect(livePreviewOf({ eventName: 'pull_request', payload: payload(7, null) }).refused).toContain(
      'a deleted repository'
    )
    expect(
      livePreviewOf({ eventName: 'pull_request_target', payload: payload(7, 'acme/shop') }).refused
    ).toContain('pull_request events only')
    expect(
      livePreviewOf({ eventName: 'pull_request', payload: payload(7, 'mallory/shop', 'closed') })
    ).toEqual({
      closed: 7
    })
    expect(livePreviewOf({ eventName: 'push', payload: {} })).toEqual({})
  })
})

describe("the report's live preview section", () => {
  const section = {
    pullRequest: 7,
    copies: [
      {
        dashboard: 'Pay<img src=x>',
        name: '[PR #7] Pay<img src=x>',
        id: 'abc123',
        action: 'created' as const,
        sqlLeftOut: ['Slow']
      },
      { dashboard: 'Old', name: '[PR #7] Old', id: 'def456', action: 'deleted' as const },
      {
        dashboard: 'Bad',
        name: '[PR #7] Bad',
        action: 'failed' as const,
        problem: 'POST /api/v2/dashboards: 400 nope'
      }
    ],
    swept: [{ name: '[PR #3] Gone', id: 'x1', pullRequest: 3, why: 'pull request #3 is closed' }],
    requests: 4
  }
  const markdown = (s: Parameters<typeof livePreviewMarkdown>[0]) =>
    livePreviewMarkdown(s, 'https://ui.example.com')
      .map(run => [run.head, ...run.items, run.tail].join(''))
      .join('')

  it('links each copy written to the UI, names what was left out, deleted, failed and swept, and escapes every name', () => {
    const text = markdown(section)
    expect(text).toContain('(https://ui.example.com/dashboards/abc123)')
    expect(text).not.toContain('<img')
    expect(text).not.toContain('dashboards/def456')
    expect(text).toContain('Slow')
    expect(text).toContain('400 nope')
    expect(text).toContain('pull request')
    expect(text).toMatch(/4 requests to the live server/)
    expect(livePreviewText(section, undefined)).toEqual([
      'Live preview of pull request #7 (4 requests to the live server)',
      '  created [PR #7] Pay<img src=x> without its raw SQL tile "Slow" (live-preview-sql: false)',
      '  deleted [PR #7] Old (its dashboard is no longer changed by this pull request)',
      '  failed [PR #7] Bad: POST /api/v2/dashboards: 400 nope',
      '  swept [PR #3] Gone (pull request #3 is closed)'
    ])
  })

  it('says why no copy was written, and that a plan without a dashboard change has none', () => {
    const held = { pullRequest: 9, notWritten: 'the plan has errors', copies: [], swept: [], requests: 0 }
    expect(livePreviewText(held, undefined)).toEqual([
      'Live preview of pull request #9: no copy written (0 requests to the live server)',
      '  the plan has errors.'
    ])
    expect(livePreviewText({ pullRequest: 9, copies: [], swept: [], requests: 0 }, undefined)[1]).toBe(
      '  No copy: the plan creates or changes no dashboard.'
    )
    expect(livePreviewMarkdown(undefined, undefined)).toEqual([])
  })
})
