/**
 * The sync pull request's body and the CLI's words: true to the outcome, and inert whatever a name or a value holds
 * (markdown, mentions, HTML, terminal escapes).
 */
import { describe, expect, it } from '@jest/globals'
import type { SyncStackReport } from '../../src/plan/sync.js'
import { syncMarkdown, syncMark, syncText, syncTitle } from '../../src/report/sync.js'

const report = (over: Partial<SyncStackReport> = {}): SyncStackReport => ({
  stack: 'shop',
  readAt: '2026-12-06T10:00:00.000Z',
  after: [],
  outcome: {
    files: [{ path: 'observability/checkout.yaml', before: 'a\n', after: 'b\n' }],
    records: [
      {
        address: 'Dashboard/Checkout',
        kind: 'Dashboard',
        name: 'Checkout',
        action: 'updated',
        id: '6b153b9144d2fc3e9efa52a1',
        file: 'observability/checkout.yaml',
        fields: [{ path: 'tiles["Errors"].x', before: 3, after: 0 }]
      },
      {
        address: 'Alert/Checkout errors',
        kind: 'Alert',
        name: 'Checkout errors',
        action: 'updated',
        file: 'observability/checkout.yaml',
        fields: [{ path: 'threshold', before: 25, after: 10 }],
        updatedAt: '2026-12-06T09:58:00.000Z'
      },
      {
        address: 'Dashboard/Cart',
        kind: 'Dashboard',
        name: 'Cart',
        action: 'removed',
        file: 'observability/cart.yaml',
        fields: []
      }
    ],
    left: [{ address: 'Webhook/pager', why: 'url is a placeholder in the manifest' }]
  },
  plan: {
    references: {
      version: 2,
      keys: {},
      seenOn: { 'Dashboard/Checkout': { dashboard: 'Checkout', own: true } },
      nouns: {}
    }
  } as unknown as SyncStackReport['plan'],
  ...over
})

describe('the sync pull request body', () => {
  it("says per record the manifest's value and the server's, when, the files, and that the plan after merging is empty", () => {
    const body = syncMarkdown(report(), {
      uiUrl: 'https://hyperdx.example.com',
      runUrl: 'https://github.com/acme/shop/actions/runs/1'
    })
    expect(body.startsWith(syncMark('shop'))).toBe(true)
    expect(body).toContain('**After merging, the plan is empty**')
    expect(body).toContain('### Changed on the server (2)')
    expect(body).toContain(
      '[**Dashboard Checkout**](https://hyperdx.example.com/dashboards/6b153b9144d2fc3e9efa52a1)'
    )
    expect(body).toContain('`tiles["Errors"].x`: `0` in the manifest, `3` on the server')
    expect(body).toContain('`threshold`: `10` in the manifest, `25` on the server')
    expect(body).toContain('last changed at 2026-12-06T09:58:00.000Z')
    expect(body).toContain('### Deleted on the server (1)')
    expect(body).toContain('### Left as it is (1)')
    expect(body).toContain('Files: `observability/checkout.yaml`.')
    expect(body).toContain('[its workflow run](https://github.com/acme/shop/actions/runs/1)')
    expect(syncTitle(report())).toBe(
      'obsdeploy sync (stack shop): 2 changed, 1 deleted record(s) from the UI'
    )
  })

  it('says what the plan still holds after merging when sync could not say everything', () => {
    const after = [{ address: 'Webhook/pager', action: 'update' }] as SyncStackReport['after']
    expect(syncMarkdown(report({ after }))).toContain(
      '**After merging, the plan still holds 1 change(s)**: `Webhook/pager` (update)'
    )
  })

  it('keeps names and values inert: no markdown, mention, HTML or link of their own', () => {
    const hostile = 'x](https://evil.example) @octocat <img src=x> #1 **bold**'
    const r = report()
    r.outcome.records[0]!.name = hostile
    r.outcome.records[0]!.fields = [{ path: 'name', before: `${hostile}\n- [ ] injected`, after: 'Checkout' }]
    const body = syncMarkdown(r, { uiUrl: 'https://hyperdx.example.com' })
    // Inside a code span nothing renders; outside one, nothing may.
    const outside = body.replace(/(`+)[^`]*?\1/g, '')
    expect(outside).not.toContain('<img')
    expect(outside).not.toContain('@octocat')
    expect(outside).not.toContain('](https://evil.example)')
    expect(body).not.toContain('\n- [ ] injected')
    expect(body).toContain('- [ ] injected` on the server')
    // A dashboard id that could change where its link points gives no link.
    r.outcome.records[0]!.id = '../../settings'
    expect(syncMarkdown(r, { uiUrl: 'https://hyperdx.example.com' })).not.toContain('/dashboards/../')
  })
})

describe('what is left after merging', () => {
  it('tells a delete held back (prune off) from a change the plan would apply', () => {
    const held = [
      { address: 'Dashboard/Made in UI', action: 'delete', deferred: 'prune' }
    ] as SyncStackReport['after']
    const body = syncMarkdown(report({ after: held }))
    expect(body).toContain('**After merging, the plan is empty**: merging changes nothing on the server.')
    expect(body).toContain('It still lists 1 record(s) it does not apply (`Dashboard/Made in UI`')
    const text = syncText(report({ after: held }), () => '', false)
    expect(text).toContain('after this sync the plan is empty')
    expect(text).toContain('and lists 1 record(s) it does not apply (left as it is): Dashboard/Made in UI')
  })
})

describe("the CLI's words", () => {
  it('lists each record with its fields and escapes what a terminal would obey', () => {
    const r = report()
    r.outcome.records[0]!.name = 'Check\u001b[31mout'
    const text = syncText(r, f => `diff of ${f.path}`, false)
    expect(text).toContain(
      'stack shop: 2 changed, 1 deleted record(s) to write (run with --write to write them)'
    )
    expect(text).toContain('tiles["Errors"].x: 0 -> 3')
    expect(text).toContain('left as it is: Webhook/pager: url is a placeholder in the manifest')
    expect(text).toContain('after this sync the plan is empty')
    expect(text).toContain('diff of observability/checkout.yaml')
    expect(text).not.toContain('\u001b[31m')
  })
})
